package dev.statvar.internal;

import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.testsupport.OnThread;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hot/cold rule (ColdCounts): a platform thread's first hotAfter - 1 updates of a gauge or
 * histogram in an interval go to the shared stripes and cost it no copy of its own; the
 * hotAfter-th gives it one; every count, sum, min and max stays exact across the promotion; the
 * count starts again in each interval; a local view is hot at once.
 */
class ColdThreadTest {
    private static final int HOT_AFTER = 10;

    private static StatRegistry registry() {
        return StatRegistry.builder().hotAfter(HOT_AFTER).build();
    }

    @Test
    void aGaugeGoesToTheStripesUntilTheThreadIsHotThenToItsOwnCells() throws Exception {
        StatRegistry r = registry();
        Gauge g = r.gauge("g");
        OnThread.run(() -> {
            for (int i = 1; i < HOT_AFTER; i++) {
                g.report(100 + i); // 101 .. 109
            }
            Block b = EngineProbe.myBlock(r);
            assertSame(CellArrays.NONE, b.cells, "cold: no gauge array of its own after hotAfter - 1 reports");
            g.report(5); // the hotAfter-th report: promoted, into its own cells
            assertTrue(b.cells.length > 0, "hot: a gauge array of its own");
            g.report(1_000);
        });
        GaugeValue v = r.collect().gauge("g");
        assertEquals(HOT_AFTER + 1, v.count());
        assertEquals(101 + 102 + 103 + 104 + 105 + 106 + 107 + 108 + 109 + 5 + 1_000, v.sum());
        assertEquals(5, v.min(), "the min is in the thread's own cells");
        assertEquals(1_000, v.max());
        assertTrue(v.isMinMaxExact());
    }

    @Test
    void theCountStartsAgainInEachInterval() throws Exception {
        StatRegistry r = registry();
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        AtomicReference<Block> block = new AtomicReference<>();
        Runnable belowTheThreshold = () -> {
            for (int i = 1; i < HOT_AFTER; i++) {
                g.report(i);
                h.record(i);
            }
        };
        long[] counts = new long[3];
        OnThread.run(() -> {
            belowTheThreshold.run();
            block.set(EngineProbe.myBlock(r));
            counts[0] = r.collect().gauge("g").count();
            belowTheThreshold.run();
            counts[1] = r.collect().histogram("h").count();
            belowTheThreshold.run();
            assertSame(CellArrays.NONE, block.get().cells, "3 x (hotAfter - 1) reports in 3 intervals: still cold");
            assertEquals(0, block.get().hists == null ? 0 : nonNull(block.get().hists),
                    "3 x (hotAfter - 1) records in 3 intervals: no bucket array");
        });
        Snapshot last = r.collect();
        assertEquals(HOT_AFTER - 1, counts[0]);
        assertEquals(HOT_AFTER - 1, counts[1]);
        assertEquals(HOT_AFTER - 1, last.gauge("g").count());
        assertEquals(HOT_AFTER - 1, last.histogram("h").count());
        assertEquals(3L * (HOT_AFTER - 1), last.histogram("h").totals().count(), "nothing lost in the stripes");
    }

    @Test
    void aHistogramIsRecordedExactlyAcrossThePromotion() throws Exception {
        StatRegistry r = registry();
        Histogram h = r.histogram("h");
        long[] expected = new long[LogLinear.bucketCount(h.precision().subBucketBits())];
        long sum = 0;
        for (int i = 0; i < 3 * HOT_AFTER; i++) {
            long v = 7L * i * i + 3;
            expected[LogLinear.index(v, h.precision().subBucketBits())]++;
            sum += v;
        }
        long expectedSum = sum;
        OnThread.run(() -> {
            LocalHistogram view = null;
            for (int i = 0; i < 3 * HOT_AFTER; i++) {
                h.record(7L * i * i + 3);
                if (i == HOT_AFTER - 2) {
                    view = (LocalHistogram) h.localView();
                    view.hot = false; // the view of the any-thread path, as record() found it: not forced hot
                    assertSame(HistogramCells.NO_BUCKETS, view.cells, "cold: no bucket array after hotAfter - 1 records");
                }
            }
            assertNotSame(HistogramCells.NO_BUCKETS, view.cells, "hot: a bucket array of its own");
        });
        HistogramValue v = r.collect().histogram("h");
        assertEquals(3L * HOT_AFTER, v.count());
        assertEquals(expectedSum, v.sum());
        assertEquals(3, v.min());
        assertEquals(7L * (3 * HOT_AFTER - 1) * (3 * HOT_AFTER - 1) + 3, v.max());
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], v.bucketCount(k), "bucket " + k);
        }
    }

    @Test
    void aLocalViewIsHotAtOnce() throws Exception {
        StatRegistry r = registry();
        Histogram h = r.histogram("h");
        OnThread.run(() -> {
            LocalHistogram view = (LocalHistogram) h.localView();
            view.record(42);
            assertNotSame(HistogramCells.NO_BUCKETS, view.cells, "the first record through a local view makes the array");
        });
        assertEquals(1, r.collect().histogram("h").count());
    }

    @Test
    void hotAfterOneGivesEveryThreadItsOwnCopyAtOnce() throws Exception {
        StatRegistry r = StatRegistry.builder().hotAfter(1).build();
        Gauge g = r.gauge("g");
        OnThread.run(() -> {
            g.report(3);
            assertTrue(EngineProbe.myBlock(r).cells.length > 0);
        });
        assertEquals(3, r.collect().gauge("g").sum());
    }

    private static int nonNull(long[][] arrays) {
        int n = 0;
        for (long[] a : arrays) {
            if (a != null) {
                n++;
            }
        }
        return n;
    }

}
