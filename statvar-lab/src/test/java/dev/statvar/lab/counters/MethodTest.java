package dev.statvar.lab.counters;

import dev.statvar.lab.kit.CpuInfo;
import dev.statvar.lab.kit.MachineFacts;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lab's method (issue "Lab truth"): paired base subtraction, two levels, the noise floor,
 * exactness judged per run, the regime and the topology, on runs whose answers are known.
 */
class MethodTest {

    /** A measured counter run: wall and base, counted against correct. */
    private static Forker.Repeat run(int delay, int threads, int i, double wall, double base, long counted, long correct) {
        return run(delay, threads, i, wall, base, counted, correct, Forker.Repeat.MEASURED);
    }

    private static Forker.Repeat run(int delay, int threads, int i, double wall, double base, long counted, long correct, String phase) {
        return new Forker.Repeat(delay, threads, i, wall, wall, 1e6, counted, correct, counted, correct, base, base, 0,
                phase, Double.NaN, 0, Forker.Repeat.UNKNOWN, Forker.Repeat.UNKNOWN);
    }

    private static Forker.Repeat gauge(long count, long correct, long sum, long correctSum, long bad, long min, long max) {
        return new Forker.Repeat(0, 2, 0, 10, 10, 1e6, count, correct, sum, correctSum, 5, 5, 0,
                Forker.Repeat.MEASURED, Double.NaN, bad, min, max);
    }

    @Test
    void eachRunIsPairedWithItsOwnBaseNotTrimmedSeparately() {
        // the fifth run is slow while its base is fast: the article's rule trims it out of the implementation's
        // runs but keeps its base, so the subtraction mixes runs; the paired median does not
        double[] walls = {12, 22, 14, 24, 40};
        double[] bases = {10, 20, 12, 22, 14};
        List<Forker.Repeat> reps = new ArrayList<>();
        for (int i = 0; i < walls.length; i++) {
            reps.add(run(100, 2, i, walls[i], bases[i], 7, 7));
        }
        CellStats c = CellStats.of("X", reps, 100, 2);
        assertEquals(2.0, c.wallFigure(CellStats.Rule.PAIRED), 1e-12);
        assertEquals(2.0, c.pairedWall().q1(), 1e-12);
        assertEquals(2.0, c.pairedWall().q3(), 1e-12);
        assertEquals(26.0, c.pairedWall().max(), 1e-12);
        assertEquals((12 + 14 + 22) / 3.0 - (10 + 12 + 14) / 3.0, c.wallFigure(CellStats.Rule.ARTICLE), 1e-12);
    }

    @Test
    void quartilesInterpolateBetweenOrderStatistics() {
        Paired p = Paired.of(new double[]{4, 1, 3, 2});
        assertEquals(2.5, p.median(), 1e-12);
        assertEquals(1.75, p.q1(), 1e-12);
        assertEquals(3.25, p.q3(), 1e-12);
        assertEquals(4, p.n());
        assertEquals(4.0, Paired.of(new double[]{-4, 1, 3}).largestDeviation(), 1e-12);
    }

    @Test
    void twoClustersAreTwoLevelsNeverOneFigure() {
        // the cells: AtomicCounter, delay 100, 2 threads; VolatileCounter, delay 50
        Levels a = Levels.of(new double[]{243, 134.6, 283, 260, 270}, 101);
        assertNotNull(a);
        assertEquals(134.6, a.low(), 1e-9);
        assertEquals(1, a.lowRuns());
        assertEquals(265, a.high(), 1e-9);
        assertEquals(4, a.highRuns());
        Levels v = Levels.of(new double[]{64.7, 127, 129, 131.5, 132}, 10);
        assertNotNull(v);
        assertEquals(4, v.highRuns());
        assertEquals("64.70 (1 run) / 130.25 (4 runs)", v.toString());
    }

    @Test
    void noiseSpreadOutRowsAndSmallStepsAreOneLevel() {
        assertNull(Levels.of(new double[]{-49, -10, 0, 20, 52}, 101), "a gap the noise's own range could open");
        assertNull(Levels.of(new double[]{100, 120, 140, 160, 180}, 5), "evenly spread: no clusters");
        assertNull(Levels.of(new double[]{1.38, 1.39, 1.40, 1.52, 1.53}, 0.01), "a 9 % step is one level");
        assertNull(Levels.of(new double[]{10, 100}, 0), "two runs cannot show two clusters");
        assertNull(Levels.of(new double[]{1.33, 1.36, 2.33}, 0.05), "of three runs, one off the others is an outlier as much as a level");
        assertNotNull(Levels.of(new double[]{1.33, 1.34, 1.36, 2.33}, 0.05), "four runs can");
        assertNull(Levels.of(new double[]{64.7, 127, 129, 131.5, 132}, 70), "the noise's range is wider than the gap");
    }

    @Test
    void theEmptyImplementationsPairedSpreadIsTheNoiseFloorOfItsCell() {
        Map<String, List<Forker.Repeat>> results = new LinkedHashMap<>();
        double[] emptyDiffs = {-49, -10, 0, 20, 52};
        double[] cheap = {30, 25, 35, 28, 31};
        double[] dear = {80, 85, 90, 78, 88};
        results.put("Empty", series(emptyDiffs));
        results.put("Cheap", series(cheap));
        results.put("Dear", series(dear));
        Map<String, List<CellStats>> cells = Report.cells(Catalog.Kind.COUNTERS, results, List.of(100), List.of(2));
        Report.Noise noise = Report.Noise.of(cells, results);
        CellStats e = cells.get("Empty").get(0);
        CellStats c = cells.get("Cheap").get(0);
        CellStats d = cells.get("Dear").get(0);
        assertEquals(52.0, noise.floor(c), 1e-9);
        assertTrue(noise.withinNoise(c, CellStats.Rule.PAIRED), "a 30 ns median under a 52 ns floor is noise");
        assertFalse(noise.withinNoise(d, CellStats.Rule.PAIRED));
        assertTrue(noise.withinNoise(e, CellStats.Rule.PAIRED));
        assertNull(noise.levels(e), "the empty implementation's spread is the noise itself");
        assertTrue(Report.cellText(c, noise, CellStats.Rule.PAIRED).contains("~"));
        assertFalse(Report.cellText(d, noise, CellStats.Rule.PAIRED).contains("~"));
    }

    /** One cell (delay 100, 2 threads) whose paired differences are {@code diffs}, on a drifting base. */
    private static List<Forker.Repeat> series(double[] diffs) {
        List<Forker.Repeat> reps = new ArrayList<>();
        for (int i = 0; i < diffs.length; i++) {
            double base = 300 + 7 * i;
            reps.add(run(100, 2, i, base + diffs[i], base, 10, 10));
        }
        return reps;
    }

    @Test
    void exactnessIsJudgedPerRunSoOppositeErrorsCannotCancel() {
        List<Forker.Repeat> reps = List.of(
                run(0, 2, 0, 5, 1, 95, 100),                 // lost 5
                run(0, 2, 1, 5, 1, 105, 100),                // counted 5 twice
                run(0, 2, 0, 5, 1, 80, 100, "warmup"),       // a warm-up run that lost 20
                run(0, 2, 0, 5, 1, 100, 100, "redone"));
        CellStats c = CellStats.of("X", reps, 0, 2);
        assertEquals(0, c.difference(), "the measured runs' sum cancels: the old check saw nothing");
        CellStats.Exactness x = c.exactness();
        assertFalse(x.exact());
        assertEquals(4, x.runs(), "warm-up and redone runs are judged too");
        assertEquals(3, x.inexactRuns());
        assertEquals(-20, x.worstLost());
        assertEquals(5, x.worstExtra());
        assertEquals(2, c.pairedWall().n(), "times come from the measured runs only");
    }

    @Test
    void gaugesAreJudgedOnMinAndMaxToo() {
        assertTrue(CellStats.Exactness.exact(gauge(2048, 2048, 7, 7, 0, 0, 1023), true));
        assertFalse(CellStats.Exactness.exact(gauge(2048, 2048, 7, 7, 1, 0, 1023), true), "a bad interval");
        assertFalse(CellStats.Exactness.exact(gauge(2048, 2048, 7, 7, 0, 0, 1022), true), "never saw 1023");
        assertFalse(CellStats.Exactness.exact(gauge(2048, 2048, 7, 8, 0, 0, 1023), true), "the sum differs");
        assertTrue(CellStats.Exactness.exact(gauge(2048, 2048, 7, 7, 0, Forker.Repeat.UNKNOWN, Forker.Repeat.UNKNOWN), true),
                "results from before min and max were recorded are judged on counts and sums");
        assertTrue(CellRunner.badInterval(3, 5, 4), "min above max: a torn read");
        assertTrue(CellRunner.badInterval(3, 0, 1024));
        assertTrue(CellRunner.badInterval(3, -1, 5));
        assertFalse(CellRunner.badInterval(3, 0, 1023));
        assertFalse(CellRunner.badInterval(0, Long.MAX_VALUE, Long.MIN_VALUE), "an empty interval is not judged");
        CellStats.Exactness x = CellStats.Exactness.of(List.of(gauge(2048, 2048, 7, 7, 0, 0, 1023),
                gauge(2048, 2048, 7, 7, 2, 3, 1023)), true);
        assertEquals(1, x.inexactRuns());
        assertEquals(2, x.badIntervals());
        assertEquals(0, x.minSeen());
        assertEquals(1023, x.maxSeen());
    }

    @Test
    void theRegimeIsStatedAgainstTheArticles() {
        MachineFacts m = new MachineFacts("cpu", CpuInfo.parse(""), 2, "17", "vm", "topology: t", "latency facts: l");
        RunInfo info = new RunInfo(m, List.of(), 200, 20, 1, 5, List.of(0), List.of(1));
        assertTrue(info.regimeLine().contains("The article's ratio (10 : 1 : 0.5)"), info.regimeLine());
        assertTrue(info.regimeLine().contains("cool-down 10 ms"), info.regimeLine());
        assertTrue(info.regimeLine().contains("50x shorter"), info.regimeLine());
        RunInfo other = new RunInfo(m, List.of(), 200, 50, 1, 5, List.of(0), List.of(1));
        assertTrue(other.regimeLine().contains("Not the article's ratio: 4.0 retrievals per run"), other.regimeLine());
        assertTrue(info.protocolLine().contains(info.regimeLine()));
        assertTrue(info.machineLine().contains("topology: t"));
    }
}
