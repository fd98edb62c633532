package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.testsupport.OnThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sizes of a platform thread's arrays, exactly: a counter or gauge array grown for one stat
 * reaches the last stat of its kind registered so far plus the trailing pad ({@link CellArrays#grownLength}),
 * so that stats registered before the updates cost no further copy, and no further; the tables of a
 * thread's histogram arrays and views double (amortised O(1) per histogram, not a copy per
 * histogram); the stripes are 2 x cores rounded up to a power of two. {@code MemoryPerThreadTest}
 * measures the resulting heap; these pin the arithmetic behind it, deterministically.
 */
@Timeout(60)
class ThreadArraysTest {

    @Test
    void aCounterArrayGrownForOneCounterReachesTheLastRegisteredCounterAndItsPad() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        Counter[] cs = counters(r, 40);
        OnThread.run(() -> {
            cs[0].add(1);
            int first = EngineProbe.myBlock(r).counters.length;
            assertEquals(Layout.MIN_LENGTH, first, "the first array: the minimum length");
            cs[20].add(1); // beyond it, below 1.5 x its length: grown to the extent of all 40 counters
            assertEquals(Layout.DATA_START + cs.length + Layout.PAD, EngineProbe.myBlock(r).counters.length);
        });
        assertEquals(1, r.collect().counter("c20"));
    }

    /** Registers counters "c0" .. "c{n-1}". */
    static Counter[] counters(StatRegistry r, int n) {
        Counter[] cs = new Counter[n];
        for (int i = 0; i < n; i++) {
            cs[i] = r.counter("c" + i);
        }
        return cs;
    }

    /**
     * Gives the calling thread a counter array of {@link Layout#MIN_LENGTH} (an add to "c0"), fills
     * it with counters, and registers one more, "next", whose cell is the first of the array's
     * trailing pad: the array must grow before anything counts into it.
     */
    static Counter counterJustPastMyArray(StatRegistry r) {
        r.counter("c0").add(1);
        long[] first = EngineProbe.myBlock(r).counters;
        assertEquals(Layout.MIN_LENGTH, first.length);
        for (int i = 1; i < first.length - Layout.PAD - Layout.DATA_START; i++) {
            r.counter("c" + i);
        }
        Counter next = r.counter("next");
        assertEquals(first.length - Layout.PAD, ((CounterImpl) next).cell());
        return next;
    }

    @Test
    void anAddToTheCounterJustPastTheThreadsArrayGrowsTheArrayInsteadOfWritingThePad() {
        StatRegistry r = StatRegistry.create();
        Counter next = counterJustPastMyArray(r);
        long[] first = EngineProbe.myBlock(r).counters;
        next.add(3);
        assertTrue(EngineProbe.myBlock(r).counters.length > first.length, "grown to cover it");
        assertEquals(3, r.collect().counter("next"));
    }

    @Test
    void aLiveThreadsCounterArrayIsReadOnlyAsFarAsItReaches() {
        StatRegistry r = StatRegistry.create();
        r.counter("c0").add(1); // this live thread's counter array: Layout.MIN_LENGTH
        int length = EngineProbe.myBlock(r).counters.length;
        int later = length - Layout.DATA_START + 2 * Layout.PAD; // more than twice the pad past what it covers
        for (int i = 1; i < later; i++) {
            r.counter("c" + i);
        }
        assertEquals(length, EngineProbe.myBlock(r).counters.length, "not grown: no add to the later counters");
        Snapshot s = r.collect(); // reads this thread's array while it lives
        assertEquals(1, s.counter("c0"));
        assertEquals(0, s.counter("c" + (later - 1)));
    }

    @Test
    void aGaugeArrayGrownForOneGaugeReachesTheLastRegisteredGaugeAndItsPad() throws InterruptedException {
        StatRegistry r = StatRegistry.builder().hotAfter(1).build();
        Gauge[] gs = new Gauge[3]; // their extent: more than the first array's length, less than 1.5 x it
        for (int i = 0; i < gs.length; i++) {
            gs[i] = r.gauge("g" + i);
        }
        OnThread.run(() -> {
            gs[0].report(1);
            int first = EngineProbe.myBlock(r).cells.length;
            assertEquals(Layout.DATA_START + Layout.GAUGE_CELLS + Layout.PAD, first, "the first array: one gauge and the pad");
            gs[1].report(2); // beyond it: grown to the extent of all 3 gauges, no further (none registered since the first array)
            assertEquals(Layout.DATA_START + gs.length * Layout.GAUGE_CELLS + Layout.PAD, EngineProbe.myBlock(r).cells.length);
            assertEquals(0, EngineProbe.myBlock(r).counters.length, "no counter array for gauges");
        });
        assertEquals(2, r.collect().gauge("g1").max());
    }

    @Test
    void aThreadsHistogramTablesDoubleAsItRecordsIntoMoreHistograms() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        Histogram[] hs = new Histogram[10];
        for (int i = 0; i < hs.length; i++) {
            hs[i] = r.histogram("h" + i);
        }
        OnThread.run(() -> {
            for (int i = 0; i < hs.length; i++) {
                hs[i].localView().record(i + 1); // a local view is hot at once: an array of its own
            }
            Block b = EngineProbe.myBlock(r);
            assertNotNull(b);
            assertEquals(16, b.hists.length, "4, 8, 16: doubled, not grown per histogram");
            assertEquals(16, b.histViews.length, "4, 8, 16: doubled, not grown per histogram");
            for (int i = 0; i < hs.length; i++) {
                assertNotNull(b.hists[i], "h" + i + "'s array");
            }
        });
        for (int i = 0; i < hs.length; i++) {
            assertEquals(i + 1, r.collect().histogram("h" + i).totals().sum());
        }
    }

    @Test
    void aHistogramArrayExtendedDownwardsKeepsEveryBucketItHeld() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h");
        long[] values = {1_000_000_000L, 3_000_000L, 5_000L, 70L, 1L, 2_000_000_000L};
        OnThread.run(() -> {
            Histogram view = h.localView();
            for (long v : values) {
                view.record(v); // each in another octave: the array is extended below, then above
            }
            long[] a = EngineProbe.myBlock(r).hists[((HistogramImpl) h).hindex()];
            int bits = h.precision().subBucketBits();
            int lo = LogLinear.index(1L, bits) & -(1 << bits);
            int hi = (LogLinear.index(2_000_000_000L, bits) | ((1 << bits) - 1)) + 1;
            assertEquals(lo, (int) a[Layout.H_LO], "covers from the octave of the lowest value");
            assertEquals(hi - lo, (int) a[Layout.H_LEN], "to the octave of the highest, whole octaves");
        });
        HistogramValue v = r.collect().histogram("h");
        assertEquals(values.length, v.count());
        long sum = 0;
        for (long x : values) {
            sum += x;
            assertEquals(1, v.bucketCount(LogLinear.index(x, h.precision().subBucketBits())), "the bucket of " + x);
        }
        assertEquals(sum, v.sum());
    }

    @Test
    void theStripesAreTwiceTheCoresRoundedUpToAPowerOfTwo() {
        int cpus = Runtime.getRuntime().availableProcessors();
        int expected = 2;
        while (expected < 2 * cpus) {
            expected <<= 1;
        }
        assertEquals(expected, EngineProbe.stripeCount(EngineProbe.engine(StatRegistry.create())));
    }
}
