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

import java.util.concurrent.locks.LockSupport;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static dev.statvar.internal.EngineUpdatePathTest.await;
import static dev.statvar.internal.EngineUpdatePathTest.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Virtual threads' updates (JDK 21+; compiled for 17, so threads are made reflectively): they go
 * to the engine's shared stripes, are exact after collect over several stripe segments, hold no
 * per-thread storage, release their stripe, use any free stripe or park on their home stripe,
 * and a counter add on an existing segment does not wait for the engine's lock.
 */
@EnabledForJreRange(min = JRE.JAVA_21)
class StripesTest {
    private static final long WAIT_MS = 5_000;

    @Test
    void updatesOverSeveralSegmentsAreExactAndHoldNoPerThreadStorage() throws Exception {
        StatRegistry r = StatRegistry.create();
        int nc = 100; // 100 counter cells and 10 x 23 gauge cells: several stripe segments (64, 128, 256 cells)
        int ng = 10;
        List<Counter> cs = new ArrayList<>();
        for (int i = 0; i < nc; i++) {
            cs.add(r.counter("c" + i));
        }
        List<Gauge> gs = new ArrayList<>();
        for (int j = 0; j < ng; j++) {
            gs.add(r.gauge("g" + j));
        }
        Histogram h = r.histogram("h");
        Histogram h2 = r.histogram("h2");
        int threads = 32;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int k = 0; k < threads; k++) {
            final int kk = k;
            ts.add(virtual(() -> {
                await(start);
                for (int i = 0; i < nc; i++) {
                    cs.get(i).add(i + 1);
                }
                for (int j = 0; j < ng; j++) {
                    gs.get(j).report(10L * kk + j);
                }
                h.record(1000L * kk + 1); // values spread over many octaves: the stripes' arrays grow
                h2.record(kk);
            }, failure));
        }
        ts.forEach(Thread::start);
        start.countDown();
        joinAll(ts);
        assertNull(failure.get());
        assertEquals(0, engine(r).threadBlocks(), "virtual threads hold no per-thread cells");
        Snapshot s = r.collect();
        for (int i = 0; i < nc; i++) {
            assertEquals((long) threads * (i + 1), s.counter("c" + i), "c" + i);
        }
        long sumK = (long) threads * (threads - 1) / 2;
        for (int j = 0; j < ng; j++) {
            GaugeValue g = s.gauge("g" + j);
            assertEquals(threads, g.count(), "g" + j);
            assertEquals(10 * sumK + (long) threads * j, g.sum(), "g" + j);
            assertEquals(j, g.min(), "g" + j);
            assertEquals(10L * (threads - 1) + j, g.max(), "g" + j);
        }
        HistogramValue hv = s.histogram("h");
        assertEquals(threads, hv.count());
        assertEquals(1000 * sumK + threads, hv.sum());
        assertEquals(1, hv.min());
        assertEquals(threads, s.histogram("h2").count());
        assertEquals(sumK, s.histogram("h2").sum());
    }

    @Test
    void aStripesHistogramSlotsGrowWithoutLosingCounts() throws Exception {
        StatRegistry r = StatRegistry.create();
        List<Histogram> h = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            h.add(r.histogram("h" + i));
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = virtual(() -> {
            h.get(0).record(1000);
            h.get(4).record(5); // the first index beyond the stripe's first slots
            h.get(9).record(9);
            h.get(0).record(2000);
        }, failure);
        t.start();
        t.join(WAIT_MS);
        assertFalse(t.isAlive());
        assertNull(failure.get());
        Snapshot s = r.collect();
        assertEquals(2, s.histogram("h0").count());
        assertEquals(3000, s.histogram("h0").sum());
        assertEquals(5, s.histogram("h4").sum());
        assertEquals(9, s.histogram("h9").sum());
    }

    @Test
    void everyVirtualThreadReleasesItsStripe() throws Exception {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        int n = 3 * stripes(engine(r)).length + 1;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < n; i++) {
            final long v = i;
            Thread t = virtual(() -> {
                g.report(v);
                h.record(v);
            }, failure);
            t.start();
            t.join(WAIT_MS);
            assertFalse(t.isAlive(), "virtual thread " + i + " waits for a stripe nobody holds");
        }
        assertNull(failure.get());
        Snapshot s = r.collect();
        assertEquals(n, s.gauge("g").count());
        assertEquals(n, s.histogram("h").count());
        assertEquals((long) n * (n - 1) / 2, s.histogram("h").sum());
    }

    @Test
    void aVirtualThreadUsesAnyFreeStripe() throws Exception {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Stripe[] stripes = stripes(engine(r));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Method home = Stripes.class.getDeclaredMethod("home", Thread.class);
        home.setAccessible(true);
        Object stripesOfE = stripesPart(engine(r));
        int runs = 0;
        for (int k = 0; k < 2 * stripes.length; k++) {
            // The only free stripe is the virtual thread's home (k even) or the last it probes (k odd).
            int free = k / 2;
            int wantHome = (free + k % 2) % stripes.length;
            for (int i = 0; i < stripes.length; i++) {
                if (i != free) {
                    stripes[i].lock.lock();
                }
            }
            try {
                final long v = free;
                Thread t = null;
                for (int tries = 0; tries < 10_000 && t == null; tries++) {
                    Thread c = virtual(() -> {
                        g.report(v);
                        h.record(v + 1);
                    }, failure);
                    if ((int) home.invoke(stripesOfE, c) == wantHome) {
                        t = c;
                    }
                }
                assertNotNull(t, "no virtual thread with home stripe " + wantHome);
                runs++;
                t.start();
                t.join(WAIT_MS);
                assertFalse(t.isAlive(), "with only stripe " + free + " free, a virtual thread waited");
            } finally {
                for (int i = 0; i < stripes.length; i++) {
                    if (i != free) {
                        stripes[i].lock.unlock();
                    }
                }
            }
        }
        assertNull(failure.get());
        Snapshot s = r.collect();
        int n = stripes.length;
        assertEquals(2 * n, runs);
        assertEquals(2 * n, s.gauge("g").count());
        assertEquals(0, s.gauge("g").min());
        assertEquals(n - 1, s.gauge("g").max());
        assertEquals((long) n * (n + 1), s.histogram("h").sum());
    }

    @Test
    void aVirtualThreadParksOnAStripeWhenAllAreTakenAndGoesOnWhenItIsReleased() throws Exception {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Stripe[] stripes = stripes(engine(r));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (Stripe st : stripes) {
            st.lock.lock();
        }
        Thread t = virtual(() -> g.report(42), failure);
        Stripe queued = null;
        try {
            t.start();
            long deadline = System.nanoTime() + WAIT_MS * 1_000_000;
            while (queued == null && System.nanoTime() < deadline && t.isAlive()) {
                for (Stripe st : stripes) {
                    if (st.lock.hasQueuedThread(t)) {
                        queued = st;
                    }
                }
                LockSupport.parkNanos(100_000); // poll with a park, not a spin
            }
            assertNotNull(queued, "the virtual thread should park on a stripe's lock (failure: " + failure.get() + ")");
            queued.lock.unlock();
            t.join(WAIT_MS);
            assertFalse(t.isAlive(), "the released stripe did not let the virtual thread go on");
        } finally {
            for (Stripe st : stripes) {
                if (st != queued) {
                    st.lock.unlock();
                }
            }
            t.join();
        }
        assertNull(failure.get());
        GaugeValue v = r.collect().gauge("g");
        assertEquals(1, v.count());
        assertEquals(42, v.max());
    }

    @Test
    void aVirtualThreadsUpdatesOnExistingCellsDoNotWaitForTheEngineLock() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Engine e = engine(r);
        CountDownLatch warm = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int n = 1000;
        Thread t = virtual(() -> {
            c.add(1); // creates the segment of its home stripe
            g.report(7); // nobody else holds a stripe: the same (home) stripe each time
            h.record(7);
            warm.countDown();
            await(go);
            for (int i = 0; i < n; i++) {
                c.add(1);
                g.report(7);
                h.record(7);
            }
        }, failure);
        t.start();
        await(warm);
        try (EngineUpdatePathTest.EngineLock ignored = EngineUpdatePathTest.EngineLock.hold(e)) {
            go.countDown();
            t.join(WAIT_MS);
            assertFalse(t.isAlive(), "a virtual thread's update on existing cells waited for the engine lock");
        } finally {
            t.join();
        }
        assertNull(failure.get());
        Snapshot s = r.collect();
        assertEquals(n + 1, s.counter("c"));
        assertEquals(n + 1, s.gauge("g").count());
        assertEquals(7L * (n + 1), s.histogram("h").sum());
    }

    @Test
    void twoVirtualThreadsCreatingTheSameSegmentBothCount() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Engine e = engine(r);
        Method home = Stripes.class.getDeclaredMethod("home", Thread.class);
        home.setAccessible(true);
        Object stripesOfE = stripesPart(engine(r));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread a = virtual(() -> c.add(1), failure);
        Thread b = null;
        for (int i = 0; i < 10_000 && b == null; i++) {
            Thread t = virtual(() -> c.add(1), failure);
            if (home.invoke(stripesOfE, t).equals(home.invoke(stripesOfE, a))) {
                b = t;
            }
        }
        assertNotNull(b, "no two virtual threads with the same home stripe");
        try (EngineUpdatePathTest.EngineLock ignored = EngineUpdatePathTest.EngineLock.hold(e)) {
            a.start();
            b.start();
            // Both found no segment and wait for the engine lock to create it.
            long deadline = System.nanoTime() + WAIT_MS * 1_000_000;
            while ((a.getState() != Thread.State.BLOCKED || b.getState() != Thread.State.BLOCKED)
                    && System.nanoTime() < deadline) {
                LockSupport.parkNanos(100_000); // poll with a park, not a spin
            }
        } finally {
            a.join();
            b.join();
        }
        assertNull(failure.get());
        assertEquals(2, r.collect().counter("c"));
    }

    // ------------------------------------------------------------------ helpers

    /** The engine's virtual-thread part. */
    static Stripes stripesPart(Engine e) throws ReflectiveOperationException {
        Field f = Engine.class.getDeclaredField("stripes");
        f.setAccessible(true);
        return (Stripes) f.get(e);
    }

    static Stripe[] stripes(Engine e) throws ReflectiveOperationException {
        Field f = Stripes.class.getDeclaredField("stripes");
        f.setAccessible(true);
        return (Stripe[]) f.get(stripesPart(e));
    }

    /** An unstarted virtual thread running {@code body}, keeping what it throws. */
    static Thread virtual(Runnable body, AtomicReference<Throwable> failure) throws ReflectiveOperationException {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method unstarted = Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
        Thread t = (Thread) unstarted.invoke(builder, (Runnable) () -> {
            try {
                body.run();
            } catch (Throwable x) {
                failure.set(x);
            }
        });
        assertTrue(Threads.isVirtual(t));
        return t;
    }

    private static void joinAll(List<Thread> ts) throws InterruptedException {
        for (Thread t : ts) {
            t.join(WAIT_MS);
            if (t.isAlive()) {
                fail("a virtual thread did not finish");
            }
        }
    }
}
