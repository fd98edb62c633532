package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.StudyResults;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * docs/LAB.md's numbers, tied to the data they come from.
 *
 * <p><b>Generated tables.</b> A block
 * <pre>
 * &lt;!-- lab report: lab/counters/counters.json --&gt;
 * ...
 * &lt;!-- /lab report --&gt;
 * </pre>
 * holds the tables that study's {@link StudyResults} makes from its JSON (path relative to the document);
 * {@code ./statvar lab report DIR --doc docs/LAB.md} rewrites it.
 *
 * <p><b>Quoted figures.</b> A number in the prose that comes from the data is a link to the JSON
 * whose title names the cell and the field:
 * {@code [134.6](lab/counters/counters.json "implementation=AtomicCounter, delay=100, threads=2 | levels.low_ns")}.
 * {@link #check} finds the one object of the JSON's {@code cells} with those keys, follows the
 * dotted field, and fails when the link's number is not the field's value rounded to as many
 * decimals as the number shows.
 */
final class LabDoc {
    static final Pattern BLOCK = Pattern.compile("<!-- lab report: (\\S+) -->\\n(.*?)<!-- /lab report -->", Pattern.DOTALL);
    static final Pattern FIGURE = Pattern.compile("\\[([^\\]]+)]\\((lab/[^ )]+\\.json) \"([^\"]+)\"\\)");

    private LabDoc() {
    }

    /** The tables of the study whose data {@code json} is, made by its {@link StudyResults}. */
    static String tables(Path json) {
        JsonNode root = load(json);
        return StudyResults.of(root).orElseThrow(() -> new IllegalArgumentException(json + ": no registered study's data"
                + " (its \"study\" field is '" + root.path("study").asText() + "')")).tables(root);
    }

    /** {@code doc} with every block citing {@code json} (relative to {@code docDir}) regenerated. */
    static String regenerate(String doc, Path docDir, Path json) throws IOException {
        Matcher m = BLOCK.matcher(doc);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String rel = m.group(1);
            String body = m.group(2);
            if (Files.isSameFile(docDir.resolve(rel), json)) {
                body = tables(json).replace("(DATA)", "(" + rel + ")");
            }
            m.appendReplacement(out, Matcher.quoteReplacement("<!-- lab report: " + rel + " -->\n" + body + "<!-- /lab report -->"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** What is wrong with {@code doc}'s generated blocks and quoted figures: empty when nothing. */
    static List<String> check(String doc, Path docDir) throws IOException {
        List<String> problems = new ArrayList<>();
        Matcher b = BLOCK.matcher(doc);
        while (b.find()) {
            Path json = docDir.resolve(b.group(1));
            String want = tables(json).replace("(DATA)", "(" + b.group(1) + ")");
            if (!want.equals(b.group(2))) {
                problems.add("the tables of " + b.group(1) + " are not what ./statvar lab report makes of it now");
            }
        }
        Map<Path, JsonNode> loaded = new LinkedHashMap<>();
        Matcher f = FIGURE.matcher(doc);
        while (f.find()) {
            String problem = checkFigure(f.group(1), f.group(3), loaded.computeIfAbsent(docDir.resolve(f.group(2)), LabDoc::load));
            if (problem != null) {
                problems.add(f.group(0) + ": " + problem);
            }
        }
        return problems;
    }

    static JsonNode load(Path p) {
        try {
            return Json.read(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static final Pattern NUMBER = Pattern.compile("[-−]?[0-9][0-9,]*(\\.[0-9]+)?");

    /** Null when {@code text}'s number is the value the {@code query} names in {@code root}, rounded as shown. */
    static String checkFigure(String text, String query, JsonNode root) {
        int bar = query.lastIndexOf('|');
        if (bar < 0) {
            return "the title must be 'key=value, ... | field'";
        }
        Map<String, String> keys = new LinkedHashMap<>();
        for (String kv : query.substring(0, bar).split(",")) {
            int eq = kv.indexOf('=');
            if (eq < 0) {
                return "'" + kv.trim() + "' is not key=value";
            }
            keys.put(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
        }
        JsonNode cell = null;
        for (JsonNode c : root.path("cells")) {
            boolean match = true;
            for (var e : keys.entrySet()) {
                match &= c.has(e.getKey()) && c.get(e.getKey()).asText().equals(e.getValue());
            }
            if (match) {
                if (cell != null) {
                    return "more than one cell matches";
                }
                cell = c;
            }
        }
        if (cell == null) {
            return "no cell matches";
        }
        JsonNode v = cell;
        for (String part : query.substring(bar + 1).trim().split("\\.")) {
            v = v.path(part);
        }
        if (!v.isNumber()) {
            return "the field is not a number in the data";
        }
        Matcher n = NUMBER.matcher(text);
        if (!n.find()) {
            return "the link's text holds no number";
        }
        String shown = n.group().replace(",", "").replace('−', '-');
        int decimals = n.group(1) == null ? 0 : n.group(1).length() - 1;
        BigDecimal data = BigDecimal.valueOf(v.asDouble()).setScale(decimals, RoundingMode.HALF_UP);
        BigDecimal quoted = new BigDecimal(shown);
        if (data.compareTo(quoted) != 0) {
            return "the data says " + data.toPlainString();
        }
        return null;
    }
}
