package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reuse of a removed stat's cells: only once no handle of it is reachable, so a stale handle
 * never counts into the slot's next owner; register/update/remove cycles leave the slots flat.
 */
@Timeout(120)
class SlotReuseTest {
    private static final Labels B = Labels.of("k", "b");

    /** Runs the GC until {@code ref} is cleared; bounded (no latch exists for a GC). */
    static void awaitCleared(WeakReference<?> ref) {
        for (int i = 0; i < 200 && ref.get() != null; i++) {
            System.gc();
            LockSupport.parkNanos(5_000_000L);
        }
        assertNull(ref.get(), "the GC did not clear the handle in 200 tries");
    }

    /**
     * Removes series "a" of {@code f}, which the caller holds no reference to, and collects until
     * its cells are reclaimed (read once more, as the baseline of the slot's next owner).
     *
     * @return the interval that delivered its last values
     */
    private static Snapshot removeAndReclaim(StatRegistry r, StatFamily<?> f) {
        WeakReference<Object> ref = new WeakReference<>(f.existing("a"));
        f.remove("a");
        Snapshot last = r.collect();
        awaitCleared(ref);
        Engine e = EngineProbe.engine(r);
        // The GC cleared the reference; the JDK's reference handler thread then enqueues it for
        // the collector: collect until one reclaimed the slot (bounded; no latch exists for it).
        for (int i = 0; i < 200 && EngineProbe.freeSlots(e) == 0; i++) {
            r.collect();
            LockSupport.parkNanos(1_000_000L);
        }
        assertEquals(1, EngineProbe.freeSlots(e), "reclaimed");
        return last;
    }

    @Test
    void aHeldStaleHandleKeepsItsCellsFromEveryLaterSeries() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("c", "", "k");
        CounterImpl stale = (CounterImpl) f.labels("a");
        stale.add(1);
        f.remove("a");
        r.collect(); // its last interval
        r.collect(); // would reclaim it, were the handle gone
        for (int i = 0; i < 10; i++) {
            CounterImpl next = (CounterImpl) f.labels("b" + i);
            assertNotEquals(stale.cell(), next.cell(), "the cells of a reachable removed handle are never reused");
            f.remove("b" + i);
        }
        CounterImpl b = (CounterImpl) f.labels("b");
        stale.add(1_000); // counted nowhere
        b.add(1);
        assertEquals(1, r.collect().counter("c", B));
    }

    @Test
    void anUnreachableRemovedCountersCellIsReusedAndStartsFromZero() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("c", "", "k");
        int cell = ((CounterImpl) f.labels("a")).cell();
        f.labels("a").add(7);
        assertEquals(7, removeAndReclaim(r, f).counter("c", Labels.of("k", "a")));
        long changes = r.changeCount();
        CounterImpl b = (CounterImpl) f.labels("b");
        assertEquals(changes + 1, r.changeCount(), "a registration into a reused slot is a change like any other");
        assertEquals(cell, b.cell(), "the slot is reused");
        b.add(2);
        Snapshot s = r.collect();
        assertEquals(2, s.counter("c", B));
        assertEquals(2, s.counterValue("c", B).total(), "no leftovers of the slot's earlier owner");
        assertEquals(1, s.values().size());
    }

    @Test
    void anUnreachableRemovedGaugesCellsAreReusedAndStartFromZero() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Gauge> f = r.gaugeFamily("g", "", "k");
        int offset = ((GaugeImpl) f.labels("a")).offset();
        f.labels("a").report(100);
        f.labels("a").report(50);
        assertEquals(2, removeAndReclaim(r, f).gauge("g", Labels.of("k", "a")).count());
        GaugeImpl b = (GaugeImpl) f.labels("b");
        assertEquals(offset, b.offset(), "the slot is reused");
        b.report(3);
        var v = r.collect().gauge("g", B);
        assertEquals(1, v.count());
        assertEquals(3, v.sum());
        assertEquals(3, v.min());
        assertEquals(3, v.max());
        assertEquals(1, v.totalCount());
        assertEquals(3, v.totalSum());
    }

    @Test
    void aReusedGaugeSlotBesideOthersKeepsEveryGaugeApart() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Gauge> f = r.gaugeFamily("g", "", "k");
        f.labels("first").report(1);
        f.labels("a").report(100); // the second gauge: not at the start of the gauges' cells
        f.labels("last").report(3);
        int offset = ((GaugeImpl) f.existing("a")).offset();
        removeAndReclaim(r, f);
        GaugeImpl b = (GaugeImpl) f.labels("b");
        assertEquals(offset, b.offset(), "the slot is reused");
        b.report(20);
        f.labels("first").report(10);
        f.labels("last").report(30);
        Snapshot s = r.collect();
        assertEquals(20, s.gauge("g", B).max());
        assertEquals(1, s.gauge("g", B).totalCount(), "nothing of the slot's earlier owner");
        assertEquals(10, s.gauge("g", Labels.of("k", "first")).max());
        assertEquals(30, s.gauge("g", Labels.of("k", "last")).max());
        assertEquals(3, s.values().size());
    }

    @Test
    void aReclaimedSlotIsFreedOnceHoweverManyCollectsFollow() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        StatFamily<Counter> f = r.counterFamily("c", "", "k");
        f.labels("a").add(1);
        removeAndReclaim(r, f);
        r.collect();
        r.collect();
        assertEquals(1, EngineProbe.freeSlots(e), "one removed counter: one free slot");
        CounterImpl b = (CounterImpl) f.labels("b");
        CounterImpl c = (CounterImpl) f.labels("c");
        assertNotEquals(b.cell(), c.cell(), "two live counters never share a cell");
        b.add(1);
        c.add(2);
        Snapshot s = r.collect();
        assertEquals(1, s.counter("c", B));
        assertEquals(2, s.counter("c", Labels.of("k", "c")));
    }

    /** 100,000 register/update/remove cycles, handles dropped: the slots stay few. */
    @Tag("stress")
    @Test
    void registerUpdateRemoveCyclesLeaveTheSlotsFlat() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        StatFamily<Counter> f = r.counterFamily("churn", "", "k");
        StatFamily<Gauge> g = r.gaugeFamily("churn_g", "", "k");
        long expected = 0;
        long seen = 0;
        for (int i = 0; i < 100_000; i++) {
            String k = Integer.toString(i);
            f.labels(k).add(i);
            g.labels(k).report(i);
            expected += i;
            f.remove(k);
            g.remove(k);
            if (i % 1_000 == 999) {
                System.gc(); // lets the dropped handles be cleared, so the next collect reclaims their cells
                for (var v : r.collect()) {
                    if (v instanceof dev.statvar.CounterValue c) {
                        seen += c.value();
                    }
                }
            }
        }
        assertEquals(expected, seen, "every add of every removed series delivered once");
        int slots = EngineProbe.slots(e);
        System.out.println("SlotReuseTest: stat slots after 100,000 register/update/remove cycles of a counter and a gauge: " + slots);
        // The GC clears the handles, the reference handler thread enqueues them and a later collect
        // reclaims: a few batches of 2,000 wait at a time (7,529 seen on a loaded 2-core machine),
        // against 200,000 slots if none were reused.
        assertTrue(slots <= 20_000, "slots after 100,000 cycles of 2 stats: " + slots);
        assertEquals(0, r.size());
    }

    // ------------------------------------------------------------------ histograms

    /** Records {@code values} into {@code h} on a new thread, hot (its own array) or cold (the stripes), and waits for it. */
    private static void recordOnThread(Histogram h, boolean hot, long... values) throws InterruptedException {
        Thread t = new Thread(() -> {
            Histogram target = hot ? h.localView() : h;
            for (long v : values) {
                target.record(v);
            }
        });
        t.start();
        t.join();
    }

    @Test
    void aRemovedHistogramsSlotIsReusedAtTheNextCollectAndStartsFromNothing() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        HistogramImpl a = (HistogramImpl) f.labels("a");
        a.localView().record(1_000); // this thread's own array
        a.record(5);
        recordOnThread(a, true, 7, 9_999_999); // a thread's own array (it then terminates)
        recordOnThread(a, false, 3); // cold: the stripes
        f.remove("a");
        var last = r.collect().histogram("h", Labels.of("k", "a"));
        assertEquals(5, last.count(), "the removed histogram's last interval holds every record");
        assertEquals(1_000 + 5 + 7 + 9_999_999 + 3, last.sum());
        HistogramImpl b = (HistogramImpl) f.labels("b"); // no GC needed, a is still held
        assertEquals(a.hindex(), b.hindex(), "the slot is reused at once");
        assertEquals(a.gen() + 1, b.gen(), "one generation on");
        b.record(42);
        var v = r.collect().histogram("h", B);
        assertEquals(1, v.count());
        assertEquals(42, v.sum());
        assertEquals(42, v.min());
        assertEquals(42, v.max());
        assertEquals(1, v.totals().count(), "no leftovers of the slot's earlier owner in the totals");
        assertEquals(42, v.totals().max());
        assertEquals(1, EngineProbe.histogramSlots(e));
    }

    @Test
    void aStaleHistogramHandleRecordsNowhere() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        Histogram stale = f.labels("a");
        Histogram staleView = stale.localView();
        stale.record(1);
        f.remove("a");
        r.collect(); // its last interval; the slot is free
        Histogram b = f.labels("b");
        stale.record(100);
        staleView.record(200);
        staleView.record(Long.MAX_VALUE >> 2); // beyond its array: the slow path
        recordOnThread(stale, true, 300, 1L << 40);
        recordOnThread(stale, false, 400);
        recordOnThread(staleView, false, 500); // another thread's use of the view: the shared path
        b.record(1);
        recordOnThread(b, false, 2);
        recordOnThread(b, true, 3);
        var s = r.collect();
        var v = s.histogram("h", B);
        assertEquals(3, v.count(), "b counts its own three records and none of the stale handle's");
        assertEquals(6, v.sum());
        assertEquals(3, v.max());
        assertEquals(1, s.values().size());
    }

    /** The slot's new owner records first, on the same threads the stale handle then records on: its arrays stay its own. */
    @Test
    void aStaleHistogramHandleRecordsNowhereOnThreadsThatRecordIntoTheSlotsNewOwner() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        HistogramImpl stale = (HistogramImpl) f.labels("a");
        Histogram staleView = stale.localView(); // this thread's view, hot, made while the histogram was registered
        staleView.record(1);
        f.remove("a");
        r.collect(); // its last interval; the slot is free
        HistogramImpl b = (HistogramImpl) f.labels("b");
        assertEquals(stale.hindex(), b.hindex(), "b took the stale handle's slot");
        b.record(10); // cold: the stripe of this thread holds b's array at the slot
        stale.record(100);
        b.record(20);
        Histogram mine = b.localView(); // this thread's own array at the slot is b's
        mine.record(50);
        staleView.record(1L << 40); // beyond the stale view's array: the slow path, into this thread's arrays
        mine.record(60);
        Thread hot = new Thread(() -> {
            Histogram view = b.localView(); // this thread's own array at the slot is b's
            view.record(30);
            stale.record(300);
            stale.record(1L << 40); // beyond the array b's records made: the slow path
            view.record(40);
        });
        hot.start();
        hot.join();
        var s = r.collect();
        var v = s.histogram("h", B);
        assertEquals(6, v.count(), "b counts its own six records and none of the stale handle's: " + v);
        assertEquals(210, v.sum());
        assertEquals(10, v.min());
        assertEquals(60, v.max());
        assertEquals(1, s.values().size());
    }

    /**
     * The GC cleared the removed histogram's handle, and the JDK queued its reference, before the
     * collect that delivers it: that collect frees its slot once (a histogram's slot is freed with
     * its delivery, not by the GC), so the next two histograms get two slots.
     */
    @Test
    void aRemovedHistogramWhoseHandleTheGcClearedBeforeItsLastIntervalIsFreedOnce() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        f.labels("a"); // no record: a thread's view would keep the handle reachable until the sweep
        WeakReference<Object> ref = new WeakReference<>(f.existing("a"));
        f.remove("a");
        awaitCleared(ref);
        Stat tombstone = EngineProbe.stat(e, 0);
        // The reference handler thread queues the cleared reference for the collector (bounded; no latch exists for it).
        for (int i = 0; i < 2_000 && !tombstone.removedHandle.isEnqueued(); i++) {
            LockSupport.parkNanos(1_000_000L);
        }
        assertTrue(tombstone.removedHandle.isEnqueued(), "queued for the collector");
        assertEquals(0, r.collect().histogram("h", Labels.of("k", "a")).count(), "its last interval");
        HistogramImpl[] next = {(HistogramImpl) f.labels("b"), (HistogramImpl) f.labels("c")};
        assertNotEquals(next[0].hindex(), next[1].hindex(), "two histograms, two slots");
        for (int i = 0; i < next.length; i++) {
            next[i].record(i + 1);
        }
        Snapshot s = r.collect();
        assertEquals(1, s.histogram("h", B).sum(), "b's record only");
        assertEquals(2, s.histogram("h", Labels.of("k", "c")).sum(), "c's record only");
        assertEquals(2, EngineProbe.histogramSlots(e));
    }

    @Test
    void aHistogramOfAnotherPrecisionDoesNotTakeTheSlot() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        StatFamily<Histogram> g = r.histogramFamily("g", "", HistogramPrecision.ofSubBucketBits(4), "k");
        HistogramImpl a = (HistogramImpl) f.labels("a");
        f.remove("a");
        r.collect();
        HistogramImpl other = (HistogramImpl) g.labels("x");
        assertNotEquals(a.hindex(), other.hindex());
        HistogramImpl same = (HistogramImpl) f.labels("b");
        assertEquals(a.hindex(), same.hindex());
    }

    @Test
    void aRemovedHistogramsSlotIsFreedOnceHoweverManyCollectsFollow() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        StatFamily<Counter> other = r.counterFamily("c", "", "k");
        HistogramImpl a = (HistogramImpl) f.labels("a");
        a.record(1);
        f.remove("a");
        r.collect(); // a's last interval: its slot is freed
        other.labels("x").add(1);
        other.remove("x");
        r.collect(); // another removed stat's last interval
        r.collect();
        HistogramImpl b = (HistogramImpl) f.labels("b");
        HistogramImpl c = (HistogramImpl) f.labels("c");
        assertEquals(a.hindex(), b.hindex(), "the slot is reused");
        assertNotEquals(b.hindex(), c.hindex(), "two live histograms never share a slot");
        b.record(10);
        c.record(20);
        Snapshot s = r.collect();
        assertEquals(10, s.histogram("h", B).sum());
        assertEquals(20, s.histogram("h", Labels.of("k", "c")).sum());
    }

    @Test
    void moreSlotsReusedInOneIntervalThanEverBeforeAreEachReadFromNothing() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Histogram> f = r.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        int n = 100;
        for (int i = 0; i < n; i++) {
            f.labels("old" + i).record(1_000 + i);
            f.remove("old" + i);
        }
        r.collect(); // their last interval: n slots freed
        for (int i = 0; i < n; i++) {
            f.labels("new" + i).record(i + 1); // n slots reused before the next collect
        }
        Snapshot s = r.collect();
        assertEquals(n, s.values().size());
        for (int i = 0; i < n; i++) {
            var v = s.histogram("h", Labels.of("k", "new" + i));
            assertEquals(1, v.totals().count(), "new" + i + " holds only its own record");
            assertEquals(i + 1, v.sum());
        }
    }

    /** 100,000 register/record/remove cycles of a histogram on two threads, handles held or not: the slots stay one collect's worth. */
    @Tag("stress")
    @Test
    void histogramRegisterRecordRemoveCyclesLeaveTheSlotsFlatWithoutAGc() throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        StatFamily<Histogram> f = r.histogramFamily("timer", "", HistogramPrecision.DEFAULT, "k");
        java.util.List<Histogram> held = new java.util.ArrayList<>(); // a caller that keeps removed handles
        long[] seen = {0, 0};
        long expectedCount = 0;
        long expectedSum = 0;
        for (int batch = 0; batch < 100; batch++) {
            Histogram[] hs = new Histogram[1_000];
            for (int i = 0; i < hs.length; i++) {
                hs[i] = f.labels(Integer.toString(batch * 1_000 + i));
                hs[i].record(i);
                expectedCount++;
                expectedSum += i;
            }
            Thread other = new Thread(() -> {
                for (Histogram h : hs) {
                    h.localView().record(1);
                }
            });
            other.start();
            other.join();
            expectedCount += hs.length;
            expectedSum += hs.length;
            for (int i = 0; i < hs.length; i++) {
                f.remove(Integer.toString(batch * 1_000 + i));
            }
            if (batch % 10 == 0) {
                held.add(hs[0]);
            }
            for (var v : r.collect()) {
                var h = (dev.statvar.HistogramValue) v;
                seen[0] += h.count();
                seen[1] += h.sum();
            }
        }
        for (Histogram h : held) {
            h.record(1_000_000); // counted nowhere
        }
        for (var v : r.collect()) {
            seen[0] += ((dev.statvar.HistogramValue) v).count();
        }
        assertEquals(expectedCount, seen[0], "every record of every removed series delivered once");
        assertEquals(expectedSum, seen[1]);
        int slots = EngineProbe.slots(e);
        int hslots = EngineProbe.histogramSlots(e);
        System.out.println("SlotReuseTest: after 100,000 register/record/remove cycles of a histogram on 2 threads: stat slots "
                + slots + ", histogram slots " + hslots);
        assertEquals(1_000, hslots, "one collect's worth of removed histograms; each collect frees them for the next");
        assertEquals(1_000, slots);
    }
}
