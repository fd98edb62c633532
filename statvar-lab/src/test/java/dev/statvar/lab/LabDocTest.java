package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statvar.lab.kit.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** docs/LAB.md's tables and quoted figures against the committed data they cite ({@link LabDoc}). */
class LabDocTest {
    private static final Path DOC = Path.of("..", "docs", "LAB.md");

    @Test
    void everyGeneratedTableAndQuotedFigureOfLabMdMatchesItsData() throws Exception {
        String doc = Files.readString(DOC);
        List<String> problems = LabDoc.check(doc, DOC.toAbsolutePath().getParent());
        assertEquals(List.of(), problems);
    }

    @Test
    void aFigureIsCheckedAgainstTheCellItNamesRoundedAsShown() throws Exception {
        JsonNode root = new ObjectMapper().readTree("""
                {"cells": [
                  {"implementation": "A B", "delay": 100, "threads": 2, "paired": {"median": 134.567}, "n": 1234567},
                  {"implementation": "A B", "delay": 100, "threads": 1, "paired": {"median": -0.3}, "n": 1}
                ]}""");
        assertNull(LabDoc.checkFigure("134.6 ns", "implementation=A B, delay=100, threads=2 | paired.median", root));
        assertNull(LabDoc.checkFigure("135", "implementation=A B, delay=100, threads=2 | paired.median", root));
        assertNull(LabDoc.checkFigure("1,234,567 counts", "implementation=A B, delay=100, threads=2 | n", root));
        assertNull(LabDoc.checkFigure("−0.30", "implementation=A B, delay=100, threads=1 | paired.median", root));
        assertEquals("the data says 134.57", LabDoc.checkFigure("134.50", "implementation=A B, delay=100, threads=2 | paired.median", root));
        assertEquals("more than one cell matches", LabDoc.checkFigure("1", "implementation=A B, delay=100 | n", root));
        assertEquals("no cell matches", LabDoc.checkFigure("1", "implementation=C, delay=100 | n", root));
        assertEquals("the field is not a number in the data", LabDoc.checkFigure("1", "implementation=A B, threads=1 | paired", root));
        assertEquals("the link's text holds no number", LabDoc.checkFigure("many", "implementation=A B, threads=1 | n", root));
    }

    /** A document and one study's data in a temporary folder: {@code lab/x/x.json}, committed or not. */
    private static List<String> checkAlone(Path dir, String doc, boolean committed) throws Exception {
        Files.createDirectories(dir.resolve("lab/x"));
        Files.writeString(dir.resolve("lab/x/x.json"), """
                {"study": "x", "cells": [
                  {"implementation": "A", "delay": 0, "threads": 2, "paired_ns_per_op_minus_base": {"median": 3.40}, "levels": {"low_ns": 3.28, "high_ns": 7.93},
                   "noise_floor_ns": 0.5},
                  {"implementation": "B", "delay": 0, "threads": 2, "paired_ns_per_op_minus_base": {"median": 1.25}, "levels": null}
                ]}""");
        return LabDoc.check(doc, dir, p -> committed);
    }

    @Test
    void aQuotedMedianOfACellWithTwoLevelsIsRejected(@TempDir Path dir) throws Exception {
        String levels = "A costs [3.28](lab/x/x.json \"implementation=A, delay=0, threads=2 | levels.low_ns\") or"
                + " [7.93](lab/x/x.json \"implementation=A, delay=0, threads=2 | levels.high_ns\") ns; B [1.25](lab/x/x.json"
                + " \"implementation=B, delay=0, threads=2 | paired_ns_per_op_minus_base.median\"), floor [0.5](lab/x/x.json"
                + " \"implementation=A, delay=0, threads=2 | noise_floor_ns\").\n";
        assertEquals(List.of(), checkAlone(dir, levels, true), "levels, a one-level median and a floor may be quoted");
        String median = "A costs [3.40](lab/x/x.json \"implementation=A, delay=0, threads=2 | paired_ns_per_op_minus_base.median\") ns.\n";
        List<String> problems = checkAlone(dir, median, true);
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("two levels"), problems.get(0));
    }

    @Test
    void aFigureFromARunThatIsNotCommittedIsRejected(@TempDir Path dir) throws Exception {
        String doc = "B costs [1.25](lab/x/x.json \"implementation=B, delay=0, threads=2 | paired_ns_per_op_minus_base.median\") ns"
                + " ([console](lab/x.txt)).\n";
        Files.createDirectories(dir.resolve("lab"));
        Files.writeString(dir.resolve("lab/x.txt"), "console\n");
        List<String> problems = checkAlone(dir, doc, false);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("lab/x/x.json: cited, but not a committed file"), problems.get(0));
        assertEquals(List.of(), checkAlone(dir, doc, true));
    }

    @Test
    void aVerdictOutsideTheSchemeIsRejected(@TempDir Path dir) throws Exception {
        for (String word : List.of("**Reproduced.**", "**Partly confirmed**", "**Consistent with the data, but not tested.**",
                "**OSR-only loops: not reproduced here.**")) {
            List<String> problems = checkAlone(dir, "1. " + word + " Some text.\n", true);
            assertEquals(1, problems.size(), word + ": " + problems);
            assertTrue(problems.get(0).contains("is not a verdict of the scheme"), problems.get(0));
        }
        for (String word : List.of("**Confirmed.**", "**refuted**", "**Within noise**", "**Not testable here.**",
                "**The incorrect counters are incorrect.** **Confirmed**")) {
            assertEquals(List.of(), checkAlone(dir, "1. " + word + " Some text.\n", true), word);
        }
    }

    @Test
    void everyVerdictInTheCommittedDataIsAWordOfTheScheme() throws Exception {
        List<String> wrong = new java.util.ArrayList<>();
        try (var files = Files.walk(DOC.toAbsolutePath().getParent().resolve("lab"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                verdicts(new ObjectMapper().readTree(f.toFile()), f.toString(), wrong);
            }
        }
        assertEquals(List.of(), wrong);
        List<String> seeded = new java.util.ArrayList<>();
        verdicts(new ObjectMapper().readTree("{\"cells\": [{\"verdict\": \"not reproduced (within 10 %)\"}], \"verdicts\":"
                + " [\"partly (not every cell)\", \"confirmed: x\"]}"), "seeded", seeded);
        assertEquals(2, seeded.size(), "a wrong word in a verdict field, and in a verdict list, is found: " + seeded);
    }

    /** Every "verdict" field and every string of a "verdicts" list under {@code n} that does not begin with a scheme word. */
    private static void verdicts(JsonNode n, String where, List<String> wrong) {
        if (n.isObject()) {
            n.fields().forEachRemaining(e -> {
                if (e.getKey().equals("verdict") && e.getValue().isTextual()) {
                    scheme(e.getValue().asText(), where, wrong);
                } else if (e.getKey().equals("verdicts") && e.getValue().isArray()) {
                    e.getValue().forEach(v -> {
                        if (v.isTextual()) {
                            scheme(v.asText(), where, wrong);
                        } else {
                            verdicts(v, where, wrong);
                        }
                    });
                } else {
                    verdicts(e.getValue(), where, wrong);
                }
            });
        } else if (n.isArray()) {
            n.forEach(v -> verdicts(v, where, wrong));
        }
    }

    private static void scheme(String verdict, String where, List<String> wrong) {
        if (Verdict.leading(verdict) == null) {
            wrong.add(where + ": " + verdict);
        }
    }

    @Test
    void aChangedTableOrFigureInTheDocumentIsFound() throws Exception {
        String doc = Files.readString(DOC);
        var blocks = LabDoc.BLOCK.matcher(doc);
        assertTrue(blocks.find(), "docs/LAB.md has generated tables");
        String tampered = doc.substring(0, blocks.start(2)) + "| a hand-edited row |\n" + doc.substring(blocks.start(2));
        assertEquals(1, LabDoc.check(tampered, DOC.toAbsolutePath().getParent()).size());
        var fig = LabDoc.FIGURE.matcher(doc);
        assertTrue(fig.find(), "docs/LAB.md quotes figures as links to their data");
        String wrong = doc.substring(0, fig.start(1)) + "999999" + doc.substring(fig.end(1));
        assertEquals(1, LabDoc.check(wrong, DOC.toAbsolutePath().getParent()).size());
    }
}
