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
 *
 * <p><b>What else it rejects.</b> A figure that is the median (or the article's mean, or a typical rate)
 * of a cell whose runs form two levels ({@link #twoLevels}); a link to a data file or console under
 * {@code lab/} that is not committed ({@link Committed}: {@code git ls-files}); bold text that states a
 * verdict outside the scheme ({@link #NON_SCHEME}: the scheme is
 * {@link dev.statvar.lab.kit.Verdict}'s four words); and a verdict table ({@code <!-- lab verdicts -->})
 * that is not what {@code ./statvar lab verdicts} makes of the committed runs ({@link VerdictTable}).
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
        return check(doc, docDir, Committed.of(docDir));
    }

    /**
     * As {@link #check(String, Path)}, with {@code committed} telling whether a data file (absolute,
     * normalised) is committed: every table, figure and verdict must come from one that is.
     */
    static List<String> check(String doc, Path docDir, java.util.function.Predicate<Path> committed) throws IOException {
        List<String> problems = new ArrayList<>();
        String verdicts = VerdictTable.check(doc, docDir);
        if (verdicts != null) {
            problems.add(verdicts);
        }
        Matcher links = DATA_LINK.matcher(doc);
        java.util.Set<String> seen = new java.util.HashSet<>();
        while (links.find()) {
            Path p = docDir.resolve(links.group(1)).normalize().toAbsolutePath();
            if (seen.add(links.group(1)) && !committed.test(p)) {
                problems.add(links.group(1) + ": cited, but not a committed file (a figure must come from a committed run)");
            }
        }
        Matcher bold = BOLD.matcher(doc);
        while (bold.find()) {
            Matcher w = NON_SCHEME.matcher(bold.group(1));
            if (w.find()) {
                problems.add("**" + bold.group(1) + "**: '" + w.group() + "' is not a verdict of the scheme ("
                        + String.join(" / ", dev.statvar.lab.kit.Verdict.words()) + ")");
            }
        }
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

    /** A link to a file under lab/: a quoted figure's JSON, a table's data, a console. */
    static final Pattern DATA_LINK = Pattern.compile("\\]\\((lab/[^ )\"]+)");
    /** Bold text: where the document states verdicts. */
    static final Pattern BOLD = Pattern.compile("\\*\\*([^*]+)\\*\\*");
    /** Words that state a verdict outside the scheme. */
    static final Pattern NON_SCHEME = Pattern.compile("(?i)\\b(not )?(reproduced|reproducible|partly|consistent with the data"
            + "|supported|not comparable|not checked|holds here)\\b");

    /** Whether a file is committed: the paths {@code git ls-files} lists under the document's folder. */
    static final class Committed {
        private Committed() {
        }

        /** {@code git ls-files} of {@code dir}'s work tree; throws when {@code dir} is not in one (the check needs it). */
        static java.util.function.Predicate<Path> of(Path dir) throws IOException {
            Path top;
            List<String> files;
            try {
                top = Path.of(git(dir, "rev-parse", "--show-toplevel").get(0));
                files = git(top, "ls-files");
            } catch (IOException | InterruptedException | IndexOutOfBoundsException e) {
                throw new IOException("cannot tell which data files are committed: " + dir + " is not in a git work tree ("
                        + e.getMessage() + ")", e);
            }
            java.util.Set<Path> set = new java.util.HashSet<>();
            for (String f : files) { // each file, and each folder holding one (a link to a run's folder)
                for (Path p = top.resolve(f).normalize().toAbsolutePath(); p != null && p.startsWith(top); p = p.getParent()) {
                    if (!set.add(p)) {
                        break;
                    }
                }
            }
            return p -> set.contains(p.toAbsolutePath().normalize());
        }

        private static List<String> git(Path dir, String... args) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            List<String> out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
            if (p.waitFor() != 0) {
                throw new IOException("git " + String.join(" ", args) + " failed");
            }
            return out;
        }
    }

    static JsonNode load(Path p) {
        try {
            return Json.read(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Non-null when the figure is the one figure across the runs (the median, the article's mean, the
     * typical rate) of a cell whose runs form two levels of it (a {@code levels} object, or
     * {@code "bimodal": true}): such a cell is quoted by its levels, never by a figure across them.
     */
    static String twoLevels(String query, JsonNode root) {
        CellQuery q = CellQuery.parse(query);
        JsonNode cell = q.cell(root);
        boolean two = cell.path("levels").isObject() || cell.path("bimodal").asBoolean(false);
        boolean median = java.util.Set.of("paired_ns_per_op_minus_base.median", "ns_per_op_minus_base",
                "article_rule_ns_per_op_minus_base", "median_mops", "typical_mops").contains(q.path());
        return two && median ? "the cell's runs form two levels: quote each level (levels.low_ns / levels.high_ns), not a"
                + " median across them" : null;
    }

    private static final Pattern NUMBER = Pattern.compile("[-−]?[0-9][0-9,]*(\\.[0-9]+)?");

    /** Null when {@code text}'s number is the value the {@code query} names in {@code root}, rounded as shown. */
    static String checkFigure(String text, String query, JsonNode root) {
        JsonNode v;
        try {
            v = CellQuery.parse(query).node(root);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (!v.isNumber()) {
            return "the field is not a number in the data";
        }
        String level = twoLevels(query, root);
        if (level != null) {
            return level;
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
