package dev.statvar.lab.atomics;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FairnessTest {

    @Test
    void jainIsOneForEqualSharesAndOneOverNForOneThreadDoingAll() {
        assertEquals(1.0, Fairness.jain(new long[]{5, 5, 5, 5}), 1e-12);
        assertEquals(0.25, Fairness.jain(new long[]{0, 20, 0, 0}), 1e-12);
        assertEquals(0.9, Fairness.jain(new long[]{1, 2}), 1e-12); // 9 / (2 * 5)
        assertTrue(Double.isNaN(Fairness.jain(new long[]{0, 0})));
    }

    @Test
    void samplingWindowsAndCapacity() {
        assertEquals(3, Fairness.logK(1_000_000));
        assertEquals(3, Fairness.logK(8L << 22));
        assertEquals(4, Fairness.logK((8L << 22) + 8));
        assertTrue((2_000_000_000L >> Fairness.logK(2_000_000_000L)) <= Fairness.MAX_SAMPLED);
        // logK 3: windows 0, 8, 16, ... of 16,384 values are sampled
        assertTrue(Fairness.sampled(1, 3));
        assertTrue(Fairness.sampled(Fairness.WINDOW - 1, 3));
        assertFalse(Fairness.sampled(Fairness.WINDOW, 3));
        assertTrue(Fairness.sampled(8L * Fairness.WINDOW, 3));
        assertEquals(2 * Fairness.WINDOW, Fairness.capacity(8L * Fairness.WINDOW, 3));
        assertEquals(Fairness.WINDOW, Fairness.capacity(8L * Fairness.WINDOW - 1, 3));
    }

    @Test
    void runsAreMaximalSequencesOfOneOwnerCutAtWindowEdges() {
        // values 1..10 of window 0: thread 0 has 1,2,3 and 7; thread 1 has 4,5,6 and 8,9,10
        int[][] v = {{1, 2, 3, 7}, {4, 5, 6, 8, 9, 10}};
        assertArrayEquals(new long[]{10, 4}, Fairness.runs(v, new int[]{4, 6}, 3));
        // only the first 3 of thread 1's values counted: 7 values, runs {1,2,3} {4,5,6} {7}
        assertArrayEquals(new long[]{7, 3}, Fairness.runs(v, new int[]{4, 3}, 3));
        // one thread across two sampled windows: one run per window, not one in all
        int w = Fairness.WINDOW;
        int[][] one = {{w - 2, w - 1, 8 * w, 8 * w + 1}};
        assertArrayEquals(new long[]{4, 2}, Fairness.runs(one, new int[]{4}, 3));
        // strict alternation: every value is a run of its own
        int[][] alt = {{1, 3, 5, 7}, {2, 4, 6, 8}};
        assertArrayEquals(new long[]{8, 8}, Fairness.runs(alt, new int[]{4, 4}, 3));
    }

    @Test
    void aValueObtainedTwiceIsAnError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Fairness.runs(new int[][]{{1, 2}, {2, 3}}, new int[]{2, 2}, 3));
        assertTrue(e.getMessage().contains("value 2 obtained by threads 0 and 1"), e.getMessage());
    }

    @Test
    void resultLinesParseAndBadOnesAreRejected() {
        RunResult r = RunResult.parse("RESULT impl=native case=CAS_VAL delay=10 threads=2 count=1000 ops=1000"
                + " duration_ns=20000 failures=250 sampled=800 runs=100 shares=600,400 repeat=1");
        assertEquals("native", r.impl());
        assertEquals(AtomicCase.CAS_VAL, r.atomicCase());
        assertEquals(20.0, r.nsPerOp(), 1e-12);
        assertEquals(5e7, r.opsPerSec(), 1e-3);
        assertEquals(8.0, r.meanRun(), 1e-12);
        assertEquals(0.25, r.failuresPerSuccess(), 1e-12);
        assertEquals(1e6 / (2 * (360_000 + 160_000)), r.fairness(), 1e-12);
        assertTrue(Double.isNaN(RunResult.parse("RESULT impl=java case=LOCK_ADD delay=0 threads=1 count=5 ops=5"
                + " duration_ns=50 failures=0 sampled=0 runs=0 shares=5 repeat=0").meanRun()));
        assertEquals(0, r.redone(), "absent: 0");
        assertEquals(2, RunResult.parse("RESULT impl=java case=LOCK_ADD delay=0 threads=1 count=5 ops=5"
                + " duration_ns=50 failures=0 sampled=0 runs=0 shares=5 repeat=0 redone=2").redone());
        assertThrows(IllegalArgumentException.class, () -> RunResult.parse("PROGRESS delay=0 threads=1"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunResult.parse("RESULT impl=java case=NOPE delay=0 threads=1"));
        assertTrue(e.getMessage().contains("cannot parse"), e.getMessage());
    }
}
