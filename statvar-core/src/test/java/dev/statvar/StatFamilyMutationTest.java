package dev.statvar;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * StatFamily's accessors and text form, and two threads asking for the same new series at once: both get the one
 * series, even at the family's cap. Written against PIT's surviving mutants (docs/RELIABILITY.md, "Mutation
 * testing").
 */
class StatFamilyMutationTest {

    @Test
    void accessorsAndToString() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> c = r.counterFamily("requests", "", "method", "code");
        assertEquals("requests", c.name());
        assertEquals(StatKind.COUNTER, c.kind());
        assertNull(c.precision());
        assertEquals("counter family requests[method, code]", c.toString());
        StatFamily<Histogram> h = r.histogramFamily("latency", "", HistogramPrecision.ofSubBucketBits(5), "route");
        assertEquals("latency", h.name());
        assertEquals(HistogramPrecision.ofSubBucketBits(5), h.precision());
        assertEquals(HistogramPrecision.ofSubBucketBits(5), h.labels("/").precision());
        assertEquals("histogram family latency[route] with HistogramPrecision[subBucketBits=5]", h.toString());
        assertEquals("gauge family queue[pool]", r.gaugeFamily("queue", "", "pool").toString());
    }

    @Test
    void theSameNameAgainNeedsTheSameKindLabelNamesAndPrecision() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Histogram> h = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "a");
        assertSame(h, r.histogramFamily("h", "other help", HistogramPrecision.ofSubBucketBits(6), "a"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> r.histogramFamily("h", "", HistogramPrecision.ofSubBucketBits(5), "a"));
        assertEquals("'h' is already registered as histogram family h[a] with HistogramPrecision[subBucketBits=6];"
                + " cannot register it as histogram family h[a] with HistogramPrecision[subBucketBits=5]", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "b"));
        assertThrows(IllegalArgumentException.class, () -> r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "a", "b"));
        StatFamily<Counter> c = r.counterFamily("c", "", "a");
        assertSame(c, r.counterFamily("c", "", "a"));
        e = assertThrows(IllegalArgumentException.class, () -> r.gaugeFamily("c", "", "a"));
        assertEquals("'c' is already registered as counter family c[a]; cannot register it as gauge family c[a]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> r.histogramFamily("x", "", HistogramPrecision.DEFAULT));
        assertEquals("histogram family x[] with HistogramPrecision[subBucketBits=6]: a family needs at least one label name;"
                + " for a stat without labels use histogram(name)", e.getMessage());
    }

    /**
     * Both threads miss the series in the map and wait for the family's lock (held here); released, one creates
     * it and the other must find it there, although the family is then at its cap of one series.
     */
    @Test
    void twoThreadsCreatingTheSameSeriesGetTheOneSeriesAtTheCap() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(1).build();
        StatFamily<Counter> f = r.counterFamily("f", "", "k");
        AtomicReferenceArray<Object> got = new AtomicReferenceArray<>(2);
        Thread[] threads = new Thread[2];
        synchronized (f) {
            for (int i = 0; i < 2; i++) {
                int slot = i;
                threads[i] = new Thread(() -> {
                    try {
                        got.set(slot, f.labels("x"));
                    } catch (Throwable e) {
                        got.set(slot, e);
                    }
                });
                threads[i].start();
            }
            for (Thread t : threads) { // each is blocked on this family's monitor: both missed the series
                while (!blockedOn(mx, t, f)) {
                    assertTrue(t.isAlive(), "ended without waiting for the family's lock");
                    Thread.onSpinWait();
                }
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        Object a = got.get(0);
        Object b = got.get(1);
        assertTrue(a instanceof Counter, String.valueOf(a));
        assertNotNull(b);
        assertSame(a, b, "one series for the same values");
        assertEquals(1, f.size());
        ((Counter) a).add(2);
        assertEquals(2, r.collect().counter("f", Labels.of("k", "x")));
    }

    private static boolean blockedOn(ThreadMXBean mx, Thread t, Object monitor) {
        ThreadInfo info = mx.getThreadInfo(t.getId());
        return info != null && info.getThreadState() == Thread.State.BLOCKED && info.getLockInfo() != null
                && info.getLockInfo().getIdentityHashCode() == System.identityHashCode(monitor);
    }
}
