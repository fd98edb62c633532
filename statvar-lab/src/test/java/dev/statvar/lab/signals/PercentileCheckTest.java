package dev.statvar.lab.signals;

import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The check of statvar's percentiles against HdrHistogram, on synthetic samples: it passes on the same samples and fails otherwise. */
class PercentileCheckTest {

    /** Latency-like samples: mostly 1 .. 3 µs, a tail to milliseconds. */
    private static long[][] samples(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[][] s = new long[16][1000];
        for (long[] row : s) {
            for (int i = 0; i < row.length; i++) {
                row[i] = r.nextInt(100) < 98 ? 1000 + r.nextInt(2000) : 10_000 + r.nextInt(2_000_000);
            }
        }
        return s;
    }

    private static HistogramValue statvar(long[][] samples, double scale) {
        StatRegistry reg = StatRegistry.create();
        Histogram h = reg.histogram("x");
        for (long[] row : samples) {
            for (long v : row) {
                h.record(Math.round(v * scale));
            }
        }
        return reg.collect().histogram("x");
    }

    @Test
    void theSameSamplesPass() {
        long[][] s = samples(1);
        PercentileCheck.Result r = PercentileCheck.compare(statvar(s, 1), PercentileCheck.hdr(s));
        assertTrue(r.ok(), r.summary());
        assertEquals(6, r.rows().size());
        assertTrue(r.worstRatio() < 1, r.summary());
    }

    @Test
    void percentilesTwoPercentOffFail() {
        long[][] s = samples(2);
        PercentileCheck.Result r = PercentileCheck.compare(statvar(s, 1.02), PercentileCheck.hdr(s));
        assertFalse(r.ok(), r.summary());
        assertTrue(r.summary().startsWith("FAILS") && r.summary().contains("p50"), r.summary());
    }

    @Test
    void aLostSampleFails() {
        long[][] s = samples(3);
        long[][] fewer = samples(3);
        fewer[0][0] = -1; // no sample: HdrHistogram gets one value fewer
        PercentileCheck.Result r = PercentileCheck.compare(statvar(s, 1), PercentileCheck.hdr(fewer));
        assertFalse(r.ok(), "the counts differ: " + r.summary());
    }

    @Test
    void theAllowedDifferenceIsStatvarsPrecisionPlusHdrHistogramsWidth() {
        PercentileCheck.Row ok = PercentileCheck.row(50, 1007, 1000, 1, 0.0078125);
        assertEquals(8 + 1, ok.allowed());
        assertTrue(ok.ok());
        assertFalse(PercentileCheck.row(50, 1010, 1000, 1, 0.0078125).ok());
        assertFalse(PercentileCheck.row(99.9, 990, 1000, 1, 0.0078125).ok());
        assertEquals("p99.9", PercentileCheck.row(99.9, 1, 1, 0, 0.01).line().substring(0, 5));
    }
}
