package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Removal of series and stats: the last interval, then nothing; a new series of the same labels starts at zero. */
@Timeout(60)
class RemovalTest {
    private static final Labels A = Labels.of("k", "a");

    private static List<String> keys(Snapshot s) {
        return s.values().stream().map(v -> v.name() + v.labels()).toList();
    }

    @Test
    void aRemovedSeriesIsDeliveredOnceMoreThenGoneAndItsLabelsStartANewSeries() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("hits", "", "k");
        Counter a = f.labels("a");
        a.add(5);
        f.labels("b").add(1);
        assertTrue(f.remove("a"));
        assertFalse(f.remove("a"), "removed already");
        assertFalse(f.remove("zz"), "never there");
        assertFalse(f.remove("a", "b"), "other arity");
        assertEquals(1, f.size());
        assertEquals(1, r.size());
        assertNull(f.existing("a"));
        Snapshot last = r.collect();
        assertEquals(5, last.counter("hits", A), "the updates before the removal, in its last interval");
        assertEquals(List.of("hits{k=\"a\"}", "hits{k=\"b\"}"), keys(last));
        a.add(100); // a stale handle: counted nowhere
        assertEquals(List.of("hits{k=\"b\"}"), keys(r.collect()), "gone after its last interval");
        assertEquals(List.of("hits{k=\"b\"}"), keys(r.registered()));
        Counter again = f.labels("a");
        assertNotSame(a, again);
        again.add(2);
        a.add(100);
        CounterValue v = r.collect().counterValue("hits", A);
        assertEquals(2, v.value(), "a new series: no leftovers of the removed one, nor of its stale handle");
        assertEquals(2, v.total(), "its total counts from zero");
    }

    /**
     * Re-registered before the removed series' last interval: an interval shows one series per
     * name and labels (exporters need that), so the new series first appears in the next one.
     */
    @Test
    void aSeriesReRegisteredBeforeItsPredecessorsLastIntervalAppearsInTheNextOne() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("hits", "", "k");
        StatFamily<Gauge> gf = r.gaugeFamily("depth", "", "k");
        f.labels("a").add(5);
        gf.labels("a").report(50);
        f.remove("a");
        gf.remove("a");
        f.labels("a").add(2);
        gf.labels("a").report(7);
        gf.labels("a").report(9);
        Snapshot last = r.collect();
        assertEquals(List.of("hits{k=\"a\"}", "depth{k=\"a\"}"), keys(last), "one series per key");
        assertEquals(5, last.counter("hits", A));
        assertEquals(50, last.gauge("depth", A).max());
        Snapshot next = r.collect();
        assertEquals(2, next.counter("hits", A));
        assertEquals(2, next.counterValue("hits", A).total());
        GaugeValue g = next.gauge("depth", A);
        assertEquals(2, g.count());
        assertEquals(16, g.sum());
        assertEquals(7, g.min(), "min and max of the deferred interval carried over");
        assertEquals(9, g.max());
    }

    @Test
    void removingAnUnlabelledStatAndReRegisteringIt() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("jobs_total");
        Gauge g = r.gauge("queue");
        Histogram h = r.histogram("latency");
        c.add(3);
        g.report(7);
        h.record(1000);
        assertTrue(r.remove("jobs_total"));
        assertTrue(r.remove("queue"));
        assertTrue(r.remove("latency"));
        assertFalse(r.remove("jobs_total"));
        assertFalse(r.remove("nothing"));
        assertThrows(NullPointerException.class, () -> r.remove(null));
        assertEquals(0, r.size());
        Snapshot last = r.collect();
        assertEquals(3, last.counter("jobs_total"));
        assertEquals(7, last.gauge("queue").max());
        assertEquals(1, last.histogram("latency").count());
        c.add(1);
        g.report(1);
        h.record(1);
        assertEquals(List.of(), keys(r.collect()));
        r.counter("jobs_total").add(1);
        r.gauge("queue").report(2);
        r.histogram("latency").record(5);
        Snapshot s = r.collect();
        assertEquals(1, s.counterValue("jobs_total").total());
        GaugeValue gv = s.gauge("queue");
        assertEquals(1, gv.count());
        assertEquals(2, gv.min());
        assertEquals(1, gv.totalCount(), "a new gauge's totals count from zero");
        assertEquals(2, gv.totalSum());
        assertEquals(1, s.histogram("latency").count());
        assertEquals(3, r.size());
    }

    @Test
    void removingAFamilyRemovesEverySeriesAndTheOldFamilyRefusesNewOnes() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(1).build();
        StatFamily<Counter> f = r.counterFamily("req", "", "k");
        f.labels("a").add(1);
        f.labels("b").add(2); // the overflow series
        assertTrue(r.remove("req"));
        assertFalse(r.remove("req"));
        Snapshot last = r.collect();
        assertEquals(1, last.counter("req", A));
        assertEquals(2, last.counter("req", Labels.of("otel_metric_overflow", "true")));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.labels("c"));
        assertTrue(e.getMessage().contains("counter family 'req' was removed"), e.getMessage());
        assertEquals(List.of(), keys(r.collect()));
        r.counter("req").add(4); // the name is free again, for anything
        assertEquals(4, r.collect().counter("req"));
    }

    @Test
    void removalFreesRoomBelowTheCap() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(1).build();
        StatFamily<Counter> f = r.counterFamily("c", "", "k");
        f.labels("a");
        Counter overflow = f.labels("b");
        assertTrue(f.remove("a"));
        Counter b = f.labels("b");
        assertNotSame(overflow, b, "room again: a series of its own");
        assertSame(b, f.labels("b"));
        assertEquals(1, f.overflowCount());
    }

    @Test
    void removalFreesRoomBelowTheRegistrysMaxStats() {
        StatRegistry r = StatRegistry.builder().maxStats(1).build();
        r.counter("a");
        assertThrows(IllegalArgumentException.class, () -> r.counter("b"));
        r.remove("a");
        r.counter("b").add(1);
        assertEquals(1, r.size());
    }

    /** Every update that happens-before remove() is in the last interval, counted once. */
    @Test
    void updatesFromManyThreadsBeforeTheRemovalAreAllDelivered() throws Exception {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("n", "", "k");
        StatFamily<Gauge> gf = r.gaugeFamily("g", "", "k");
        Counter c = f.labels("a");
        Gauge g = gf.labels("a");
        int threads = 4;
        int per = 50_000;
        CountDownLatch go = new CountDownLatch(1);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            ts[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int i = 0; i < per; i++) {
                    c.add();
                    g.report(i);
                }
            });
            ts[t].start();
        }
        go.countDown();
        long seen = r.collect().counter("n", A); // a collect racing the updates
        for (Thread t : ts) {
            t.join(); // join: every update happens-before the removal
        }
        f.remove("a");
        gf.remove("a");
        Snapshot last = r.collect();
        assertEquals((long) threads * per, seen + last.counter("n", A));
        assertEquals((long) threads * per, last.gauge("g", A).totalCount());
        assertEquals(List.of(), keys(r.collect()));
    }
}
