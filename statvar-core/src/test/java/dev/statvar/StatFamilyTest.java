package dev.statvar;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * StatFamily, labelled families: series identity, validation, the series cap, name conflicts, exact values
 * per series; the accessors and text form; two threads asking for the same new series at once get the one
 * series, even at the family's cap.
 */
class StatFamilyTest {

    @Test
    void sameValuesSameSeriesAndEachSeriesCountsOnItsOwn() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("requests_total", "requests", "method", "code");
        Counter get200 = f.labels("GET", "200");
        assertSame(get200, f.labels("GET", "200"));
        assertNotSame(get200, f.labels("GET", "404"));
        assertSame(f, r.counterFamily("requests_total", "other help", "method", "code"));
        get200.add(3);
        f.labels("GET", "404").add();
        Snapshot s = r.collect();
        assertEquals(3, s.counter("requests_total", Labels.of("method", "GET", "code", "200")));
        assertEquals(1, s.counter("requests_total", Labels.of("method", "GET", "code", "404")));
        assertEquals(Labels.of("method", "GET", "code", "200"), s.values().get(0).labels());
        assertEquals(2, f.size());
        assertThrows(IllegalArgumentException.class, () -> s.counter("requests_total"), "no unlabelled series");
    }

    @Test
    void gaugeAndHistogramFamiliesCarryTheirLabelsIntoValues() {
        StatRegistry r = StatRegistry.create();
        r.gaugeFamily("queue", "", "pool").labels("io").report(7);
        r.histogramFamily("latency", "", HistogramPrecision.DEFAULT, "route").labels("/a\"b\n").record(1000);
        Snapshot s = r.collect();
        GaugeValue g = s.gauge("queue", Labels.of("pool", "io"));
        assertEquals(7, g.max());
        HistogramValue h = s.histogram("latency", Labels.of("route", "/a\"b\n"));
        assertEquals(1, h.count());
        assertEquals("{route=\"/a\\\"b\\n\"}", h.labels().toString(), "escaped as in the text format");
        assertTrue(s.toString().contains("latency{route="), s.toString());
    }

    @Test
    void badLabelNamesAndValuesFailNamingTheBadOne() {
        StatRegistry r = StatRegistry.create();
        assertMessage("'1a'", () -> r.counterFamily("c1", "", "1a"));
        assertMessage("'__name'", () -> r.counterFamily("c2", "", "__name"));
        assertMessage("'m' is given twice", () -> r.counterFamily("c3", "", "m", "m"));
        assertMessage("at least one label", () -> r.counterFamily("c4", ""));
        assertMessage("'le' is reserved", () -> r.histogramFamily("h1", "", HistogramPrecision.DEFAULT, "le"));
        assertMessage("'quantile' is reserved", () -> r.histogramFamily("h2", "", HistogramPrecision.DEFAULT, "quantile"));
        assertMessage("invalid stat name", () -> r.counterFamily("bad name", "", "a"));
        StatFamily<Counter> f = r.counterFamily("ok", "", "a", "b");
        assertMessage("expected 2 label value(s)", () -> f.labels("x"));
        assertMessage("the value of label 'b' is null", () -> f.labels("x", null));
        assertMessage("unpaired surrogate", () -> f.labels("x", "\uD800"));
        f.labels("x", "\uD83D\uDE00"); // a pair is fine
        assertEquals(1, f.size(), "failed calls create nothing");
    }

    @Test
    void nameConflictsBetweenFamiliesAndPlainStatsAreRejected() {
        StatRegistry r = StatRegistry.create();
        r.counter("plain");
        assertMessage("without labels", () -> r.counterFamily("plain", "", "a"));
        r.counterFamily("fam", "", "a");
        assertMessage("counter family fam[a]", () -> r.counter("fam"));
        assertMessage("counter family fam[a]", () -> r.gauge("fam"));
        assertMessage("cannot register it as gauge family", () -> r.gaugeFamily("fam", "", "a"));
        assertMessage("cannot register it as counter family fam[b]", () -> r.counterFamily("fam", "", "b"));
        r.histogramFamily("hf", "", HistogramPrecision.DEFAULT, "a");
        assertMessage("cannot register it as histogram family",
                () -> r.histogramFamily("hf", "", HistogramPrecision.ofSubBucketBits(4), "a"));
    }

    @Test
    void theSeriesCapFoldsNewValuesIntoTheOverflowSeries() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(3).build();
        StatFamily<Counter> f = r.counterFamily("by_user", "", "user");
        for (int i = 0; i < 3; i++) {
            f.labels("u" + i).add();
        }
        Counter over = f.labels("u3");
        assertSame(over, f.labels("u4"), "one overflow series for all new values");
        over.add(2);
        f.labels("u5").add();
        f.labels("u1").add(); // existing series still work
        assertEquals(3, f.size(), "the overflow series is not one of the family's series");
        assertEquals(3, r.size(), "nor counted towards maxStats");
        assertEquals(3, f.overflowCount());
        assertNull(f.existing("u3"), "folded values have no series of their own");
        Snapshot s = r.collect();
        assertEquals(3, s.counter("by_user", Labels.of(StatFamily.OVERFLOW_LABEL, "true")), "no update lost to the cap");
        assertEquals(2, s.counter("by_user", Labels.of("user", "u1")));
        assertEquals(4, s.values().size());
        assertEquals(1000, StatRegistry.create().counterFamily("x", "", "a").maxSeries());
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().maxSeriesPerFamily(0));
    }

    @Test
    void theRegistrysStatCapCountsSeries() {
        StatRegistry r = StatRegistry.builder().maxStats(2).build();
        StatFamily<Counter> f = r.counterFamily("c", "", "a");
        f.labels("1");
        f.labels("2");
        f.labels("3").add(5); // the registry is full: the overflow series, which is exempt from maxStats
        assertEquals(5, r.collect().counter("c", Labels.of("otel_metric_overflow", "true")));
        assertEquals(2, r.size());
        assertMessage("maximum of 2 stats", () -> r.counter("d"));
    }

    @Test
    void aHistogramFamilysOverflowSeriesIsExemptFromTheStatCapAndFromItsCount() {
        StatRegistry r = StatRegistry.builder().maxStats(2).build();
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "a");
        f.labels("1");
        f.labels("2");
        f.labels("3").record(5); // the registry is full: the overflow series, which is exempt from maxStats
        assertEquals(1, r.collect().histogram("h", Labels.of("otel_metric_overflow", "true")).count());
        assertEquals(2, r.size());
        assertTrue(r.remove("h"));
        assertEquals(0, r.size(), "its two series removed, and nothing for the exempt overflow series");
        r.counter("x");
        r.counter("y");
        assertMessage("maximum of 2 stats", () -> r.counter("z"));
    }

    @Test
    void seriesCreatedConcurrentlyAreOneSeriesEachAndCountExactly() throws Exception {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("hits", "", "k");
        int threads = 4;
        int per = 20_000;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        List<Snapshot> snaps = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < per; i++) {
                    f.labels("k" + (i % 10)).add();
                }
            });
            ts.add(th);
            th.start();
        }
        go.countDown();
        boolean alive = true;
        for (int round = 0; alive && round < 100_000; round++) {
            snaps.add(r.collect());
            alive = ts.stream().anyMatch(Thread::isAlive);
        }
        for (Thread th : ts) {
            th.join();
        }
        snaps.add(r.collect());
        assertEquals(10, f.size());
        for (int k = 0; k < 10; k++) {
            long sum = 0;
            for (Snapshot s : snaps) {
                for (StatValue v : s) {
                    if (v.labels().equals(Labels.of("k", "k" + k))) {
                        sum += ((CounterValue) v).value();
                    }
                }
            }
            assertEquals((long) threads * per / 10, sum, "series k" + k);
        }
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(part), "expected '" + part + "' in: " + e.getMessage());
    }

    @Test
    void existingFindsASeriesWithoutCreatingOneEvenAtTheCap() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(1).build();
        StatFamily<Counter> f = r.counterFamily("found", "", "k");
        assertNull(f.existing("a"));
        assertEquals(0, f.size(), "a lookup creates nothing");
        Counter a = f.labels("a");
        assertSame(a, f.existing("a"));
        assertNull(f.existing("b"), "at the cap: no exception, no series");
        assertNull(f.existing("a", "extra"), "other arity: no such series");
        assertEquals(1, f.size());
        assertThrows(IllegalArgumentException.class, () -> f.existing((String[]) null));
        assertThrows(IllegalArgumentException.class, () -> f.existing((String) null));
    }


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
