package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

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
