package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.testsupport.OnThread;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Local views of counters, gauges and histograms on platform threads: used by their owner they
 * count into the owner's own cells; used by any other thread (also after the owner terminated and
 * its cells were folded and released) they count through the shared handle, so nothing is lost.
 * Also the handles' identity contract (equal only to themselves) and the names a user sees.
 */
class LocalViewTest {

    @Test
    void counterViewCountsForItsOwnerAndForOtherThreads() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Counter[] view = new Counter[1];
        OnThread.run("owner", () -> {
            view[0] = c.localView();
            assertInstanceOf(LocalCounter.class, view[0]);
            assertSame(view[0], view[0].localView(), "the owner's view of its view is the view");
            assertEquals("c", view[0].name());
            assertEquals("Counter[c, local to owner]", view[0].toString());
            view[0].add();
            view[0].add(10);
            view[0].add(0);
            assertThrows(IllegalArgumentException.class, () -> view[0].add(-1));
        });
        assertEquals(11, r.collect().counter("c"));
        // The owner has terminated and collect() folded its cells: a foreign thread's
        // adds through the view go to the shared counter.
        assertEquals(0, r.collect().counter("c"));
        view[0].add();
        view[0].add(100);
        view[0].add(0);
        assertEquals(101, r.collect().counter("c"));
        Counter mine = view[0].localView();
        assertNotSame(view[0], mine);
        assertEquals("Counter[c, local to " + Thread.currentThread().getName() + "]", mine.toString());
        mine.add(5);
        assertEquals(5, r.collect().counter("c"));
    }

    @Test
    void counterViewUsedByAnotherThreadWhileItsOwnerLives() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Counter view = c.localView(); // owned by this thread, which stays alive
        view.add(3);
        OnThread.run("other", () -> {
            view.add();
            view.add(20);
            assertInstanceOf(LocalCounter.class, view.localView());
            assertNotSame(view, view.localView());
        });
        Block mine = EngineProbe.threads(EngineProbe.engine(r)).lookup(Thread.currentThread());
        assertEquals(3, mine.counters[((CounterImpl) c).cell()],
                "the other thread's adds went to a cell of its own, not the owner's (single writer)");
        assertEquals(24, r.collect().counter("c"));
    }

    @Test
    void gaugeViewReportsForItsOwnerAndForOtherThreads() throws Exception {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Gauge[] view = new Gauge[1];
        OnThread.run("owner", () -> {
            view[0] = g.localView();
            assertInstanceOf(LocalGauge.class, view[0]);
            assertSame(view[0], view[0].localView());
            assertEquals("g", view[0].name());
            assertEquals("Gauge[g, local to owner]", view[0].toString());
            view[0].report(7);
            view[0].report(-2);
        });
        GaugeValue v = r.collect().gauge("g");
        assertEquals(2, v.count());
        assertEquals(5, v.sum());
        assertEquals(-2, v.min());
        assertEquals(7, v.max());
        r.collect();
        view[0].report(40); // the owner is gone and its cells released
        view[0].report(2);
        v = r.collect().gauge("g");
        assertEquals(2, v.count());
        assertEquals(42, v.sum());
        assertEquals(2, v.min());
        assertEquals(40, v.max());
        Gauge mine = view[0].localView();
        assertInstanceOf(LocalGauge.class, mine);
        assertNotSame(view[0], mine);
        mine.report(1);
        assertEquals(1, r.collect().gauge("g").count());
    }

    @Test
    void histogramViewRecordsForItsOwnerAndForOtherThreads() throws Exception {
        StatRegistry r = StatRegistry.create();
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(3);
        Histogram h = r.histogram("h", "", p);
        Histogram[] view = new Histogram[1];
        OnThread.run("owner", () -> {
            view[0] = h.localView();
            assertInstanceOf(LocalHistogram.class, view[0]);
            assertSame(view[0], view[0].localView());
            assertSame(view[0], h.localView(), "one view per (thread, histogram): the one its any-thread records use");
            assertEquals("h", view[0].name());
            assertSame(p, view[0].precision());
            assertEquals("Histogram[h, local to owner]", view[0].toString());
            view[0].record(0);
            view[0].record(5);
            view[0].record(5);
            view[0].record(1_000_000); // beyond the array the first records made: it grows
            assertThrows(IllegalArgumentException.class, () -> view[0].record(-1));
        });
        HistogramValue v = r.collect().histogram("h");
        assertEquals(4, v.count());
        assertEquals(1_000_010, v.sum());
        assertEquals(2, v.bucketCount(LogLinear.index(5, 3)));
        assertEquals(0, v.min());
        assertEquals(1_000_000, v.max());
        r.collect();
        view[0].record(9); // the owner is gone and its array released
        view[0].record(0);
        v = r.collect().histogram("h");
        assertEquals(2, v.count());
        assertEquals(9, v.sum());
        assertEquals(9, v.max());
        Histogram mine = view[0].localView();
        assertInstanceOf(LocalHistogram.class, mine);
        assertNotSame(view[0], mine);
        assertEquals("Histogram[h, local to " + Thread.currentThread().getName() + "]", mine.toString());
    }

    @Test
    void histogramViewUsedByAnotherThreadWhileItsOwnerLives() throws Exception {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h");
        Histogram view = h.localView();
        view.record(1);
        view.record(1);
        long[] ownersArray = ((LocalHistogram) view).cells;
        OnThread.run("other", () -> {
            view.record(3);
            view.record(0);
        });
        assertEquals(2, ownersArray[Layout.H_STAT + Layout.G_SUM], "the other thread's records went to an array of its own, not the owner's (single writer)");
        HistogramValue v = r.collect().histogram("h");
        assertEquals(4, v.count());
        assertEquals(5, v.sum());
        assertEquals(2, v.bucketCount(LogLinear.index(1, HistogramPrecision.DEFAULT.subBucketBits())));
    }

    @Test
    void handlesAreEqualOnlyToThemselvesAndNamedByTheirStat() {
        StatRegistry r = StatRegistry.create();
        StatRegistry other = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Object[] same = {c, g, h};
        Object[] twins = {other.counter("c"), other.gauge("g"), other.histogram("h")};
        for (int i = 0; i < same.length; i++) {
            Object x = same[i];
            assertTrue(x.equals(x));
            assertNotEquals(x, twins[i], "the same name in another registry is another stat");
            assertNotEquals(x, null);
            assertEquals(System.identityHashCode(x), x.hashCode());
        }
        // A handle with the same fields (a record's components) is still another handle.
        CounterImpl ci = (CounterImpl) c;
        assertNotEquals(ci, new CounterImpl(ci.threads(), ci.writers(), ci.name(), ci.index(), ci.cell(), ci.vloc()));
        GaugeImpl gi = (GaugeImpl) g;
        assertNotEquals(gi, new GaugeImpl(gi.threads(), gi.writers(), gi.name(), gi.index(), gi.offset(), gi.limit(), gi.vloc()));
        HistogramImpl hi = (HistogramImpl) h;
        assertNotEquals(hi, new HistogramImpl(hi.writers(), hi.name(), hi.hindex(), hi.gen(), hi.bits(), hi.precision()));
        assertEquals("Counter[c]", c.toString());
        assertEquals("Gauge[g]", g.toString());
        assertEquals("Histogram[h]", h.toString());
    }

    @Test
    void aCounterViewKeepsCountingAfterItsOwnersArrayGrew() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Counter view = c.localView();
        assertSame(view, c.localView(), "one view per (thread, counter)");
        view.add(1);
        Counter last = null;
        for (int i = 0; i < 1_000; i++) {
            last = r.counter("later" + i); // registered after the view: this thread's array does not cover them
        }
        last.add(); // grows this thread's counter array: a copy
        view.add(10); // must land in the copy, which collect() reads
        c.add(100);
        dev.statvar.Snapshot s = r.collect();
        assertEquals(111, s.counter("c"));
        assertEquals(1, s.counter("later999"));
    }

    @Test
    @Timeout(60)
    void aThreadKeepsOneViewPerCounterHoweverManyAndInWhateverOrderItAsks() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter[] cs = ThreadArraysTest.counters(r, 30);
        OnThread.run(() -> {
            Counter[] views = new Counter[cs.length];
            // The first view beyond the table's first four slots, then one beyond twice its length, then all.
            for (int i : new int[] {9, 0, 25}) {
                views[i] = cs[i].localView();
            }
            for (int i = 0; i < cs.length; i++) {
                Counter v = cs[i].localView();
                if (views[i] != null) {
                    assertSame(views[i], v, "c" + i + ": the view the thread was given first");
                }
                views[i] = v;
            }
            for (int i = 0; i < cs.length; i++) {
                assertSame(views[i], cs[i].localView(), "c" + i + ": one view per (thread, counter)");
                views[i].add(i + 1);
            }
        });
        Snapshot s = r.collect();
        for (int i = 0; i < cs.length; i++) {
            assertEquals(i + 1, s.counter("c" + i), "c" + i);
        }
    }

    @Test
    @Timeout(60)
    void aViewOfTheCounterJustPastTheThreadsArrayCountsIntoACoveringArray() {
        StatRegistry r = StatRegistry.create();
        Counter next = ThreadArraysTest.counterJustPastMyArray(r);
        next.localView().add(5);
        assertEquals(5, r.collect().counter("next"), "the view's add went to a cell collect() reads");
    }

    @Test
    void aViewOnAPlatformThreadIsNotTheSharedHandle() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        assertInstanceOf(LocalCounter.class, c.localView());
        assertInstanceOf(LocalGauge.class, g.localView());
    }

    /** JDK 21+: a virtual thread has no cells of its own, so its view is the shared handle; a platform view works there too. */
    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void onAVirtualThreadTheViewIsTheSharedHandle() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Counter platformView = c.localView();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable task = () -> {
            try {
                assertSame(c, c.localView());
                assertSame(g, g.localView());
                assertSame(h, h.localView());
                assertSame(c, platformView.localView());
                c.localView().add(2);
                platformView.add(3);
                g.localView().report(4);
                h.localView().record(5);
            } catch (Throwable e) {
                failure.set(e);
            }
        };
        Thread t = (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
        t.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        Snapshot s = r.collect();
        assertEquals(5, s.counter("c"));
        assertEquals(4, s.gauge("g").sum());
        assertEquals(5, s.histogram("h").sum());
    }
}
