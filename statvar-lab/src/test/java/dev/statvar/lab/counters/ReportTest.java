package dev.statvar.lab.counters;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness's columns, computed on stub repeats whose answers are known; a result read back ({@link JsonReport#read}). */
class ReportTest {

    /** A protocol value of the wrong kind is refused naming its key (a hand-written reader took {@code "ten"} for 0 ms). */
    @Test
    void aResultsValueOfTheWrongKindIsRefusedNamingItsKey(@TempDir Path dir) throws Exception {
        String committed = Files.readString(Path.of("..", "docs", "lab", "counters-quick", "counters.json"));
        String broken = committed.replace("\"run_ms\" : 100,", "\"run_ms\" : \"ten\",");
        assertTrue(!broken.equals(committed), "the committed result holds \"run_ms\" : 100");
        Path file = Files.writeString(dir.resolve("counters.json"), broken);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JsonReport.read(file));
        assertTrue(e.getMessage().contains("run_ms") && e.getMessage().contains("ten"), e.getMessage());
    }

    private static Forker.Repeat rep(int delay, int threads, int repeat, double wall, double base, long counted, long correct) {
        return new Forker.Repeat(delay, threads, repeat, wall, wall + 0.5, 1e6 * (repeat + 1), counted, correct,
                counted * 3, correct * 3, base, base + 0.25, repeat % 2);
    }

    @Test
    void aCellIsTheArticlesRuleMinusTheBaseOfTheSameRuns() {
        List<Forker.Repeat> reps = new ArrayList<>();
        double[] walls = {5, 4, 9, 3, 2};   // kept: 2, 3, 4 -> 3
        double[] bases = {1, 1.5, 8, 0.5, 1}; // kept: 0.5, 1, 1 -> 0.8333
        for (int i = 0; i < walls.length; i++) {
            reps.add(rep(10, 2, i, walls[i], bases[i], 100 - i, 100));
        }
        reps.add(rep(0, 2, 0, 77, 1, 5, 5)); // another cell: must not leak in
        CellStats c = CellStats.of("X", reps, 10, 2);
        assertEquals(3.0, c.wall().mean(), 1e-12);
        assertEquals(2.0, c.wall().min(), 1e-12);
        assertEquals(9.0, c.wall().max(), 1e-12);
        assertEquals(2.5 / 3, c.base().mean(), 1e-12);
        assertEquals(3.0 - 2.5 / 3, c.wallMinusBase(), 1e-12);
        assertEquals(3.5 - (0.75 + 1.25 + 1.25) / 3, c.cpuMinusBase(), 1e-12);
        assertEquals(500 - 10, c.counted());     // 100+99+98+97+96
        assertEquals(500, c.correct());
        assertEquals(-10, c.difference());
        assertEquals(-30, c.sumDifference());
        assertEquals(3e6, c.opsPerSec(), 1e-6);  // mean of 1..5 million
        assertEquals(2, c.redone());             // repeats 1 and 3 were run again
        assertThrows(IllegalArgumentException.class, () -> CellStats.of("X", reps, 50, 2));
        // paired: 4, 2.5, 1, 2.5, 1 -> sorted 1, 1, 2.5, 2.5, 4
        assertEquals(2.5, c.pairedWall().median(), 1e-12);
        assertEquals(1.0, c.pairedWall().q1(), 1e-12);
        assertEquals(2.5, c.pairedWall().q3(), 1e-12);
        assertEquals(1.0, c.pairedWall().min(), 1e-12);
        assertEquals(4.0, c.pairedWall().max(), 1e-12);
        assertEquals(2.5, c.wallFigure(CellStats.Rule.PAIRED), 1e-12);
        assertEquals(c.wallMinusBase(), c.wallFigure(CellStats.Rule.ARTICLE), 1e-12);
    }

    @Test
    void theCsvHasOneRowPerRepeatWithTheIssuesColumns() {
        Map<String, List<Forker.Repeat>> results = new LinkedHashMap<>();
        results.put("A, quoted", List.of(rep(0, 1, 0, 1.5, 0.25, 7, 8), rep(0, 1, 1, 2.5, 0.25, 8, 8)));
        String[] lines = Report.csv(results).split("\n");
        assertEquals(3, lines.length);
        assertTrue(lines[0].startsWith("implementation,delay,threads,repeat,ns_per_op,base_ns,counted,correct,"), lines[0]);
        assertEquals("\"A, quoted\",0,1,0,1.5000,0.2500,7,8,2.0000,0.5000,1000000.0,21,24,0,measured,,0,-1,-1", lines[1]);
        assertEquals("\"A, quoted\",0,1,1,2.5000,0.2500,8,8,3.0000,0.5000,2000000.0,24,24,1,measured,,0,-1,-1", lines[2]);
    }

    @Test
    void articleFiguresParseGluedOrEmptyCellsAndRejectDuplicates() throws Exception {
        String csv = """
                # source: an article (test)
                kind,implementation,delay,base_ns,t1,t2,t6,t12,article_line,article_name
                counters,TrivialCounter,100,887,-3,15,96,569,296,TrivialCounter
                gauges,"Compound Lazy, odd",0,1,4,,,,900,Compound Lazy
                """;
        ArticleFigures s = ArticleFigures.parse(new BufferedReader(new StringReader(csv)));
        assertEquals("an article (test)", s.source);
        ArticleFigures.Figure f = s.get(Catalog.Kind.COUNTERS, "TrivialCounter", 100);
        assertEquals(887.0, f.base());
        assertEquals(-3.0, f.at(1));
        assertEquals(569.0, f.at(12));
        assertNull(f.at(4));
        ArticleFigures.Figure g = s.get(Catalog.Kind.GAUGES, "Compound Lazy, odd", 0);
        assertEquals(4.0, g.at(1));
        assertNull(g.at(2));
        assertNull(s.get(Catalog.Kind.GAUGES, "TrivialCounter", 100));
        assertThrows(IllegalStateException.class, () -> ArticleFigures.parse(new BufferedReader(new StringReader(
                csv + "counters,TrivialCounter,100,1,1,1,1,1,1,x\n"))));
    }

    @Test
    void theShippedArticleFiguresNameOnlyKnownImplementations() {
        ArticleFigures s = ArticleFigures.load();
        assertNotNull(s.get(Catalog.Kind.COUNTERS, "TrivialCounter", 0), "the article's TrivialCounter table");
        for (Catalog.Kind kind : Catalog.Kind.values()) {
            for (String name : s.implementations(kind)) {
                Catalog.find(kind, name); // throws for a name the lab does not know
            }
        }
    }
}
