package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The table of shared fields in {@code internal/package-info.java} and the {@code pairing X}
 * tags at the accesses in the code name the same pairings: a tag with no row, or a row no access
 * cites, fails here.
 */
class PairingTableTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/statvar");
    private static final Pattern TAG = Pattern.compile("[Pp]airing ([A-Z][A-Z_]{2,})\\b");
    private static final Pattern CELL = Pattern.compile("<t[dh]( colspan=\"(\\d+)\")?>(.*?)</t[dh]>", Pattern.DOTALL);

    @Test
    void everyPairingInTheCodeHasARowAndEveryRowIsCited() throws IOException {
        Map<String, Set<String>> tags = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                if (!f.endsWith("package-info.java")) {
                    for (String name : tags(Files.readString(f))) {
                        tags.computeIfAbsent(name, k -> new TreeSet<>()).add(f.getFileName().toString());
                    }
                }
            }
        }
        Set<String> rows = pairingColumn(Files.readString(SOURCES.resolve("internal/package-info.java")));
        assertTrue(rows.size() >= 10, "the table was read: " + rows);
        Set<String> untabled = new TreeSet<>(tags.keySet());
        untabled.removeAll(rows);
        Set<String> uncited = new TreeSet<>(rows);
        uncited.removeAll(tags.keySet());
        assertEquals(Set.of(), untabled, "pairings cited in the code with no row in package-info's table: " + tags);
        assertEquals(Set.of(), uncited, "rows of package-info's table that no access in the code cites");
    }

    @Test
    void theCheckSeesAMissingRowAndATagWrappedOverTwoLines() {
        String code = "x.setOpaque(v); // pairing COUNT\n /* (pairing\n  * EPOCH) */ y = 1; // Pairing NEWONE";
        assertEquals(Set.of("COUNT", "EPOCH", "NEWONE"), tags(code));
        String table = "<tr><th>f</th><th>w</th><th>r</th><th>pairing</th><th>g</th></tr>"
                + "<tr><td>a</td><td>b</td><td>c</td><td>COUNT</td><td>x</td></tr>"
                + "<tr><td>a</td><td colspan=\"2\">plain</td><td>none</td><td>x</td></tr>"
                + "<tr><td>a</td><td>b</td><td>c</td><td>EPOCH (elements)</td><td>x</td></tr>";
        Set<String> rows = pairingColumn(table);
        assertEquals(Set.of("COUNT", "EPOCH"), rows);
        assertTrue(!rows.containsAll(tags(code)), "NEWONE has no row");
    }

    /** The pairing names a source cites, with comment line breaks ("\n * ") folded. */
    static Set<String> tags(String source) {
        String folded = source.replaceAll("\\n\\s*\\*?\\s*", " ");
        Set<String> names = new TreeSet<>();
        Matcher m = TAG.matcher(folded);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** The names in the table's "pairing" column (the 4th, counting colspans), "none" left out. */
    static Set<String> pairingColumn(String packageInfo) {
        Set<String> names = new TreeSet<>();
        for (String row : packageInfo.split("<tr>")) {
            int column = 0;
            Matcher m = CELL.matcher(row);
            while (m.find()) {
                if (column == 3) {
                    String text = m.group(3).replaceAll("\\s*\\*\\s*", " ").trim();
                    Matcher name = Pattern.compile("^([A-Z][A-Z_]{2,})\\b").matcher(text);
                    if (name.find()) {
                        names.add(name.group(1));
                    }
                }
                column += m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
            }
        }
        return names;
    }
}
