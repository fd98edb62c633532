package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * collect() reads and switches the virtual threads' stripes (JDK 21+): counters and gauges in
 * several stripe segments, with a histogram registered between them, and the stripes'
 * histograms; each interval has its own values and exact min/max; a virtual thread's local view
 * gets no storage of its own.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class StripeCollectTest {
    /** The interval's gauge value, exact min/max included (StripeCardsTest uses it too). */
    static void assertGauge(GaugeValue v, long count, long sum, long min, long max) {
        assertEquals(count, v.count(), "count");
        assertEquals(sum, v.sum(), "sum");
        assertEquals(min, v.min(), "min");
        assertEquals(max, v.max(), "max");
        assertTrue(v.isMinMaxExact(), "exact");
    }

    private static void assertHistogram(HistogramValue v, long count, long sum, long min, long max) {
        assertEquals(count, v.count(), "count");
        assertEquals(sum, v.sum(), "sum");
        assertEquals(min, v.min(), "min");
        assertEquals(max, v.max(), "max");
        assertTrue(v.isMinMaxExact(), "exact");
    }

    @Test
    void virtualThreadsIntervalsAcrossSegments() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        Counter c1 = r.counter("c1");
        Histogram h = r.histogram("h");
        Counter c2 = r.counter("c2");
        Gauge g0 = r.gauge("g0");
        Gauge g1 = r.gauge("g1");
        Gauge g2 = r.gauge("g2"); // the first stat of the stripes' second segment
        Worker v = new Worker(Worker.virtual());
        v.run(() -> {
            c1.add(3);
            c2.add(4);
            g0.report(100);
            g1.report(10);
            h.record(100);
        });
        Snapshot s = r.collect();
        assertEquals(3, s.counter("c1"));
        assertEquals(4, s.counter("c2"));
        assertGauge(s.gauge("g0"), 1, 100, 100, 100);
        assertGauge(s.gauge("g1"), 1, 10, 10, 10);
        assertGauge(s.gauge("g2"), 0, 0, 0, 0);
        assertHistogram(s.histogram("h"), 1, 100, 100, 100);
        v.run(() -> {
            g0.report(5);
            g2.report(7);
            h.record(5);
        });
        s = r.collect();
        assertEquals(0, s.counter("c1"));
        assertEquals(3, s.counterValue("c1").total());
        assertGauge(s.gauge("g0"), 1, 5, 5, 5);
        assertGauge(s.gauge("g1"), 0, 0, 0, 0);
        assertGauge(s.gauge("g2"), 1, 7, 7, 7);
        assertHistogram(s.histogram("h"), 1, 5, 5, 5);
        assertHistogram(s.histogram("h").totals(), 2, 105, 5, 100);
        v.run(() -> {
            c2.localView().add(2);
            g2.localView().report(8);
        });
        assertEquals(0, e.threadBlocks(), "a virtual thread's local view has no storage of its own");
        s = r.collect();
        assertEquals(2, s.counter("c2"));
        assertGauge(s.gauge("g2"), 1, 8, 8, 8);
        assertGauge(s.gauge("g0"), 0, 0, 0, 0);
        v.stop();
        s = r.collect();
        assertEquals(0, s.counter("c2"));
        assertEquals(6, s.counterValue("c2").total());
        assertGauge(s.gauge("g2"), 0, 0, 0, 0);
    }
}
