package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.testsupport.OnThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What collect() makes of the cells, interval after interval: deltas, totals, sums, min/max,
 * exactness and histogram buckets, for live threads, threads that terminate between or before
 * collects (their final values are retired), local views, stats registered after a thread's
 * array was sized, histograms whose values move into new octaves, and intervals without updates.
 */
class IntervalClosingTest {
    private static final int BITS = HistogramPrecision.DEFAULT.subBucketBits();

    private static void assertGauge(GaugeValue v, long count, long sum, long min, long max, long totalCount, long totalSum) {
        assertEquals(count, v.count(), "count");
        assertEquals(sum, v.sum(), "sum");
        assertEquals(min, v.min(), "min");
        assertEquals(max, v.max(), "max");
        assertEquals(totalCount, v.totalCount(), "totalCount");
        assertEquals(totalSum, v.totalSum(), "totalSum");
        assertTrue(v.isMinMaxExact(), "exact");
    }

    private static void assertHistogram(HistogramValue v, long count, long sum, long min, long max) {
        assertEquals(count, v.count(), "count");
        assertEquals(sum, v.sum(), "sum");
        assertEquals(min, v.min(), "min");
        assertEquals(max, v.max(), "max");
        assertTrue(v.isMinMaxExact(), "exact");
    }

    private static long bucket(HistogramValue v, long value) {
        return v.bucketCount(LogLinear.index(value, BITS));
    }

    @Test
    void gaugeIntervalsWithAndWithoutReports() {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        g.report(7);
        assertGauge(r.collect().gauge("g"), 1, 7, 7, 7, 1, 7);
        assertGauge(r.collect().gauge("g"), 0, 0, 0, 0, 1, 7);
        g.report(50);
        g.report(40);
        assertGauge(r.collect().gauge("g"), 2, 90, 40, 50, 3, 97);
        g.report(60);
        assertGauge(r.collect().gauge("g"), 1, 60, 60, 60, 4, 157);
    }

    @Test
    void histogramIntervalsAndTotalsAsValuesMoveIntoNewOctaves() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h");
        h.record(10);
        HistogramValue v = r.collect().histogram("h");
        assertHistogram(v, 1, 10, 10, 10);
        assertHistogram(v.totals(), 1, 10, 10, 10);
        h.record(1000); // a new octave: the array is replaced by a wider one
        h.record(1001);
        v = r.collect().histogram("h");
        assertHistogram(v, 2, 2001, 1000, 1001);
        assertEquals(0, bucket(v, 10));
        assertEquals(2, bucket(v, 1000));
        assertHistogram(v.totals(), 3, 2011, 10, 1001);
        assertEquals(1, bucket(v.totals(), 10));
        assertEquals(2, bucket(v.totals(), 1000));
        v = r.collect().histogram("h");
        assertHistogram(v, 0, 0, 0, 0);
        assertTrue(v.isEmpty());
        assertHistogram(v.totals(), 3, 2011, 10, 1001);
        h.record(3);
        h.record(5_000_000);
        v = r.collect().histogram("h");
        assertHistogram(v, 2, 5_000_003, 3, 5_000_000);
        assertEquals(1, bucket(v, 3));
        assertEquals(0, bucket(v, 1000));
        assertHistogram(v.totals(), 5, 5_002_014, 3, 5_000_000);
        assertEquals(2, bucket(v.totals(), 1000));
        h.record(500);
        v = r.collect().histogram("h");
        assertHistogram(v, 1, 500, 500, 500);
        assertHistogram(v.totals(), 6, 5_002_514, 3, 5_000_000);
    }

    @Test
    void aThreadThatDiesAfterACollectAddsNothingMore() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Worker w = new Worker();
        w.run(() -> {
            c.add(3);
            g.report(8);
            h.record(9);
            h.record(900);
        });
        Snapshot s = r.collect();
        assertEquals(3, s.counter("c"));
        assertGauge(s.gauge("g"), 1, 8, 8, 8, 1, 8);
        assertHistogram(s.histogram("h"), 2, 909, 9, 900);
        w.stop(); // its final values are retired by the next collect
        s = r.collect();
        assertEquals(0, s.counter("c"));
        assertEquals(3, s.counterValue("c").total());
        assertGauge(s.gauge("g"), 0, 0, 0, 0, 1, 8);
        HistogramValue v = s.histogram("h");
        assertHistogram(v, 0, 0, 0, 0);
        assertHistogram(v.totals(), 2, 909, 9, 900);
        assertEquals(1, bucket(v.totals(), 900));
        c.add();
        g.report(4);
        h.record(4);
        s = r.collect();
        assertEquals(1, s.counter("c"));
        assertEquals(4, s.counterValue("c").total());
        assertGauge(s.gauge("g"), 1, 4, 4, 4, 2, 12);
        assertHistogram(s.histogram("h"), 1, 4, 4, 4);
        assertHistogram(s.histogram("h").totals(), 3, 913, 4, 900);
    }

    @Test
    void threadsThatDieBeforeTheirFirstCollectAreCountedWithTheirMinMax() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Worker w1 = new Worker();
        w1.run(() -> {
            c.add(2);
            g.report(20);
            g.report(30);
            h.record(100);
            c.localView().add(5);
            g.localView().report(25);
        });
        Gauge g2 = r.gauge("g2"); // registered after w1's and w2's arrays were sized
        Gauge g3 = r.gauge("g3");
        Counter c2 = r.counter("c2");
        Worker w2 = new Worker();
        w2.run(() -> {
            c.add();
            h.record(7);
            h.localView().record(70_000);
            g.report(40);
            g3.report(3);
        });
        w1.stop();
        w2.stop();
        Snapshot s = r.collect();
        assertEquals(8, s.counter("c"));
        assertGauge(s.gauge("g"), 4, 115, 20, 40, 4, 115);
        assertGauge(s.gauge("g2"), 0, 0, 0, 0, 0, 0);
        assertGauge(s.gauge("g3"), 1, 3, 3, 3, 1, 3);
        assertEquals(0, s.counter("c2"));
        HistogramValue v = s.histogram("h");
        assertHistogram(v, 3, 70_107, 7, 70_000);
        assertEquals(1, bucket(v, 70_000));
        assertHistogram(v.totals(), 3, 70_107, 7, 70_000);
        // one more thread dies with values in an octave the collector has not seen yet
        Worker w3 = new Worker();
        w3.run(() -> {
            h.record(1L << 40);
            c2.add(6);
            g2.report(9);
        });
        w3.stop();
        s = r.collect();
        assertEquals(0, s.counter("c"));
        assertEquals(8, s.counterValue("c").total());
        assertEquals(6, s.counter("c2"));
        assertGauge(s.gauge("g"), 0, 0, 0, 0, 4, 115);
        assertGauge(s.gauge("g2"), 1, 9, 9, 9, 1, 9);
        v = s.histogram("h");
        assertHistogram(v, 1, 1L << 40, 1L << 40, 1L << 40);
        assertEquals(1, bucket(v, 1L << 40));
        assertEquals(0, bucket(v, 70_000));
        assertHistogram(v.totals(), 4, 70_107 + (1L << 40), 7, 1L << 40);
        assertEquals(1, bucket(v.totals(), 70_000));
    }

    /** Hot from its first report (hotAfter 1): this thread's gauges are in its own array, read while it lives. */
    @Test
    @Timeout(60)
    void aLiveHotThreadsGaugeArrayIsReadAndSwitchedEveryInterval() {
        StatRegistry r = StatRegistry.builder().hotAfter(1).build();
        Gauge g0 = r.gauge("g0");
        r.gauge("g1");
        Gauge g2 = r.gauge("g2");
        g2.report(5);
        long[] cells = EngineProbe.myBlock(r).cells;
        assertEquals(((GaugeImpl) g2).limit(), cells.length, "grown to the last gauge: its limit is the array's length");
        g0.report(-3);
        g2.report(8);
        Snapshot s = r.collect();
        assertGauge(s.gauge("g2"), 2, 13, 5, 8, 2, 13);
        assertGauge(s.gauge("g0"), 1, -3, -3, -3, 1, -3);
        g2.report(100);
        assertGauge(r.collect().gauge("g2"), 1, 100, 100, 100, 3, 113);
        g2.report(1);
        g0.report(4);
        s = r.collect();
        assertGauge(s.gauge("g2"), 1, 1, 1, 1, 4, 114);
        assertGauge(s.gauge("g0"), 1, 4, 4, 4, 2, 1);
        assertSame(cells, EngineProbe.myBlock(r).cells, "the same live array all along");
    }

    /**
     * A series registered again while its removed predecessor's last interval is pending is left
     * out of that interval (one series per name and labels) and shows its reports in the next,
     * min and max included: carried when the thread that reported ended meanwhile (its array
     * retired, not read again), merged with the next interval's, and not made up when it had none.
     */
    @Test
    @Timeout(60)
    void aDeferredSeriesCarriesItsMinAndMaxToTheNextInterval() throws InterruptedException {
        StatRegistry r = StatRegistry.builder().hotAfter(1).build();
        StatFamily<Gauge> f = r.gaugeFamily("depth", "", "k");
        for (String k : new String[] {"up", "down", "later"}) {
            f.labels(k).report(50);
            f.remove(k);
        }
        Gauge up = f.labels("up");
        Gauge down = f.labels("down");
        Gauge later = f.labels("later");
        OnThread.run(() -> { // a thread that ends before the collect
            up.report(7);
            up.report(9);
            down.report(-7);
            down.report(-9);
        });
        Snapshot s = r.collect(); // the predecessors' last interval; the new series deferred
        for (String k : new String[] {"up", "down", "later"}) {
            assertGauge(s.gauge("depth", Labels.of("k", k)), 1, 50, 50, 50, 1, 50);
        }
        down.report(-3);
        down.report(-30);
        later.report(7);
        later.report(9);
        s = r.collect();
        assertGauge(s.gauge("depth", Labels.of("k", "up")), 2, 16, 7, 9, 2, 16);
        assertGauge(s.gauge("depth", Labels.of("k", "down")), 4, -49, -30, -3, 4, -49);
        assertGauge(s.gauge("depth", Labels.of("k", "later")), 2, 16, 7, 9, 2, 16);
        up.report(1);
        assertGauge(r.collect().gauge("depth", Labels.of("k", "up")), 1, 1, 1, 1, 3, 17);
    }

    /** Reports {@code values} through the calling thread's view of {@code g} as a writer would that read the epoch before the last switch. */
    private static void reportInFlight(GaugeImpl g, long... values) {
        Gauge view = g.localView();
        long[] cells = g.writers().localCells(g.index()); // the view's cells
        long current = cells[Layout.EPOCH];
        cells[Layout.EPOCH] = current - 1; // as InexactIntervalTest makes an inexact interval
        for (long v : values) {
            view.report(v);
        }
        cells[Layout.EPOCH] = current;
    }

    /** As above, for an interval made inexact by reports in flight across the switch: the deferred one's, or the next one's. */
    @Test
    @Timeout(60)
    void aDeferredSeriesCarriesItsInexactnessToTheNextInterval() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        StatFamily<Gauge> f = r.gaugeFamily("depth", "", "k");
        for (String k : new String[] {"x", "y"}) {
            f.labels(k).report(1);
            f.remove(k);
        }
        GaugeImpl x = (GaugeImpl) f.labels("x");
        GaugeImpl y = (GaugeImpl) f.labels("y");
        OnThread.run(() -> reportInFlight(x, 5, 6)); // a thread that ends before the collect
        y.localView().report(8); // exact
        r.collect(); // the predecessors' last interval; x and y deferred
        reportInFlight(y, 2); // this thread's view of y: its slot holds the deferred interval's report
        Snapshot s = r.collect();
        GaugeValue v = s.gauge("depth", Labels.of("k", "x"));
        assertEquals(2, v.count());
        assertEquals(11, v.sum());
        assertFalse(v.isMinMaxExact(), "the deferred interval's inexactness carried: " + v);
        v = s.gauge("depth", Labels.of("k", "y"));
        assertEquals(2, v.count());
        assertFalse(v.isMinMaxExact(), "an exact deferred interval leaves the next one's inexactness: " + v);
        x.report(3);
        v = r.collect().gauge("depth", Labels.of("k", "x"));
        assertTrue(v.isMinMaxExact(), "and not further: " + v);
        assertEquals(3, v.min());
    }
}
