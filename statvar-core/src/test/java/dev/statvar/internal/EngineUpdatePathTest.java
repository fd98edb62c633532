package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The update path of platform threads (Engine.add/report/record and their slow paths): a
 * thread's histogram arrays and slots grow without losing counts; a thread that has used the
 * registry and is in the lookup table never waits for the engine's lock (which collect() holds);
 * a thread that collided in the table gets its own cells, finds them without that lock, and
 * reaches the table once its slot is free or the table has grown.
 */
class EngineUpdatePathTest {
    /** Bounded wait for an update batch that must not block; a blocked batch fails the test, never hangs it. */
    private static final long WAIT_MS = 5_000;
    /** Updates per batch: more than the slow path's retry interval (1,024 calls), where it takes the lock. */
    private static final int BATCH = 3_000;
    private static final int INITIAL_TABLE = 64;

    /**
     * A registry whose threads are hot for a stat from their first update ({@code hotAfter(1)}):
     * these tests are about the hot path. The cold path (the stripes) is in ColdThreadTest.
     */
    private static StatRegistry hot() {
        return StatRegistry.builder().hotAfter(1).build();
    }

    @Test
    void maxStatsMustBeWithinItsRange() {
        assertThrows(IllegalArgumentException.class, () -> new Engine(0));
        assertThrows(IllegalArgumentException.class, () -> new Engine(Engine.MAX_STATS_LIMIT + 1));
        assertEquals(1, new Engine(1).maxStats());
        assertEquals(Engine.MAX_STATS_LIMIT, new Engine(Engine.MAX_STATS_LIMIT).maxStats());
    }

    @Test
    void hotAfterMustBeWithinItsRange() {
        assertThrows(IllegalArgumentException.class, () -> new Engine(1, 0));
        assertThrows(IllegalArgumentException.class, () -> new Engine(1, Engine.MAX_HOT_AFTER + 1));
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().hotAfter(0));
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().hotAfter(65_536));
        StatRegistry.builder().hotAfter(1).hotAfter(65_535).build();
    }

    @Test
    void histogramsRecordedInAnyOrderKeepEveryCount() throws Exception {
        StatRegistry r = hot();
        List<Histogram> h = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            h.add(r.histogram("h" + i));
        }
        // A thread whose first record is in a high histogram index, then lower and higher ones.
        runInNewThread(() -> {
            h.get(11).record(7);
            h.get(0).record(1000);
        });
        // A thread that records the first histograms, then ones beyond its slots, then goes back.
        runInNewThread(() -> {
            h.get(0).record(1000);
            h.get(4).record(5);
            h.get(1).record(3);
            h.get(0).record(2000); // the next octave up from 1000's
            h.get(0).record(500); // the next octave down
            h.get(8).record(9);
            h.get(0).record(1000);
        });
        Snapshot s = r.collect();
        HistogramValue h0 = s.histogram("h0");
        assertEquals(5, h0.count());
        assertEquals(5500, h0.sum());
        assertEquals(500, h0.min());
        assertTrue(h0.max() >= 2000 && h0.max() < 2100, "max " + h0.max());
        assertEquals(1, s.histogram("h1").count());
        assertEquals(3, s.histogram("h1").sum());
        assertEquals(5, s.histogram("h4").sum());
        assertEquals(9, s.histogram("h8").sum());
        assertEquals(7, s.histogram("h11").sum());
        assertEquals(1, s.histogram("h11").count());
    }

    @Test
    void aThreadInTheTableNeverWaitsForTheEngineLock() throws Exception {
        StatRegistry r = hot();
        Gauge g0 = r.gauge("g0");
        Gauge g1 = r.gauge("g1");
        List<Counter> counters = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            counters.add(r.counter("c" + i));
        }
        Histogram h = r.histogram("h");
        Counter first = counters.get(0);
        Counter last = counters.get(counters.size() - 1);
        // Each warm-up uses every stat of its batch; its first update sizes the thread's array to end exactly where that stat's cells end.
        assertNoWaitForTheEngineLock(r, () -> {
            last.add(1);
            g0.report(0);
            h.record(100);
            first.add(1);
        }, i -> {
            last.add(1);
            first.add(1);
            g0.report(i);
            h.record(100 + (i & 7));
        });
        assertNoWaitForTheEngineLock(r, () -> {
            g1.report(-1);
            g0.report(-1); // c0's cells lie beyond g1's: only the gauges here
        }, i -> {
            g1.report(i);
            g0.report(i);
        });
        Snapshot s = r.collect();
        assertEquals(BATCH + 1, s.counter("c29"));
        assertEquals(BATCH + 3, s.counter("c0")); // and a warm-up and each other thread
        GaugeValue g = s.gauge("g1");
        assertEquals(BATCH + 1, g.count());
        assertEquals(-1, g.min());
        assertEquals(BATCH - 1, g.max());
        assertEquals(2 * BATCH + 2, s.gauge("g0").count());
        assertEquals(-1, s.gauge("g0").min());
        assertEquals(BATCH + 1, s.histogram("h").count());
    }

    /**
     * Runs {@code warm} on a new thread (another live thread used the registry first), then, while
     * the engine's lock is held, {@code batch} for 0 .. BATCH-1 on that thread: it must complete.
     */
    private static void assertNoWaitForTheEngineLock(StatRegistry r, Runnable warm, IntConsumer batch) throws Exception {
        Counter c0 = r.counter("c0");
        Parked other = Parked.start(() -> c0.add(1)); // holds its own table slot
        Thread t = newThreadNotColliding(other.thread);
        CountDownLatch warmed = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread worker = named(t, () -> {
            warm.run();
            warmed.countDown();
            await(go);
            for (int i = 0; i < BATCH; i++) {
                batch.accept(i);
            }
        }, failure);
        worker.start();
        await(warmed);
        try (EngineLock ignored = EngineLock.hold(engine(r))) {
            go.countDown();
            worker.join(WAIT_MS);
            assertFalse(worker.isAlive(), "a warmed-up thread in the table waited for the engine lock");
        } finally {
            worker.join();
            other.finish();
        }
        assertNull(failure.get());
    }

    @Test
    void aPlatformThreadNeverWaitsForTheVirtualThreadsStripes() throws Exception {
        StatRegistry r = hot();
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Stripe[] stripes = StripesTest.stripes(engine(r));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (Stripe st : stripes) {
            st.lock.lock();
        }
        Thread t = newThread();
        try {
            named(t, () -> {
                for (int i = 0; i < 100; i++) {
                    g.report(i);
                    h.record(i);
                }
            }, failure).start();
            t.join(WAIT_MS);
            assertFalse(t.isAlive(), "a platform thread waited for a stripe");
        } finally {
            for (Stripe st : stripes) {
                st.lock.unlock();
            }
            t.join();
        }
        assertNull(failure.get());
        Snapshot s = r.collect();
        assertEquals(100, s.gauge("g").count());
        assertEquals(99, s.gauge("g").max());
        assertEquals(100, s.histogram("h").count());
    }

    @Test
    void aThreadThatCollidedInTheTableGetsItsOwnCellsAndFindsThemWithoutTheLock() throws Exception {
        StatRegistry r = hot();
        Engine e = engine(r);
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Thread[] pair = collidingPair();
        Parked a = Parked.start(pair[0], () -> c.add(10));
        CountDownLatch warm = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int n = 200; // 3 x 200 slow-path calls: fewer than the retry interval, so no lock is due
        Thread b = named(pair[1], () -> {
            c.add(1);
            g.report(5);
            h.record(1000);
            warm.countDown();
            await(go);
            for (int i = 0; i < n; i++) {
                c.add(1);
                g.report(5);
                h.record(1000);
            }
        }, failure);
        b.start();
        await(warm);
        assertEquals(2, e.threadBlocks(), "each of the two colliding threads has its own cells");
        try (EngineLock ignored = EngineLock.hold(e)) {
            go.countDown();
            b.join(WAIT_MS);
            assertFalse(b.isAlive(), "a thread that collided in the table waited for the engine lock");
        } finally {
            b.join();
            a.finish();
        }
        assertEquals(null, failure.get());
        Snapshot s = r.collect();
        assertEquals(10 + n + 1, s.counter("c"));
        assertEquals(n + 1, s.gauge("g").count());
        assertEquals(5L * (n + 1), s.gauge("g").sum());
        assertEquals(n + 1, s.histogram("h").count());
    }

    @Test
    void aThreadThatCollidedTakesItsSlotOnceTheOtherThreadIsGone() throws Exception {
        // The thread table: a gauge report needs the thread's block in it (the slow path retries).
        StatRegistry r = hot();
        Gauge g = r.gauge("g");
        List<Snapshot> s = collidedThreadTakesFreedSlot(r, () -> g.report(10), () -> g.report(5), () -> g.report(1));
        assertEquals(1 + 1 + RETRIES + BATCH, s.get(0).gauge("g").count() + s.get(1).gauge("g").count());
        assertEquals(10 + 5 + RETRIES + BATCH, s.get(0).gauge("g").sum() + s.get(1).gauge("g").sum());
    }

    @Test
    void aThreadThatCollidedInACountersTableTakesItsSlotOnceTheOtherThreadIsGone() throws Exception {
        // The counter's own table of cells (its slow path retries installing the cell).
        StatRegistry r = hot();
        Counter c = r.counter("c");
        List<Snapshot> s = collidedThreadTakesFreedSlot(r, () -> c.add(10), () -> c.add(5), () -> c.add(1));
        assertEquals(10 + 5 + RETRIES + BATCH, s.get(0).counter("c") + s.get(1).counter("c"));
    }

    /** Slow-path updates after which a thread has retried installing itself at least once. */
    private static final int RETRIES = 1_100;

    /**
     * Thread a holds a slot (its {@code hold} update); b, whose id collides, makes its own storage
     * ({@code first}: spilled), then a terminates and a collect frees a's slot; b retries through
     * RETRIES {@code update}s, then must do BATCH more while the test holds the engine lock: only
     * possible if b took the freed slot. Returns the collect after a's death and the last one.
     */
    private static List<Snapshot> collidedThreadTakesFreedSlot(StatRegistry r, Runnable hold, Runnable first,
                                                               Runnable update) throws Exception {
        Engine e = engine(r);
        Thread[] pair = collidingPair();
        Parked a = Parked.start(pair[0], hold); // holds the slot while b starts
        CountDownLatch warm = new CountDownLatch(1);
        CountDownLatch collected = new CountDownLatch(1);
        CountDownLatch retried = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread b = named(pair[1], () -> {
            first.run(); // a live thread holds the slot: b is spilled
            warm.countDown();
            await(collected);
            for (int i = 0; i < RETRIES; i++) { // the slow path retries the table now and then
                update.run();
            }
            retried.countDown();
            await(go);
            for (int i = 0; i < BATCH; i++) {
                update.run();
            }
        }, failure);
        b.start();
        await(warm);
        a.finish(); // a terminates: the next collect frees its slot
        Snapshot s1 = r.collect();
        collected.countDown();
        await(retried);
        try (EngineLock ignored = EngineLock.hold(e)) {
            go.countDown();
            b.join(WAIT_MS);
            assertFalse(b.isAlive(), "the thread did not take its freed table slot");
        } finally {
            b.join();
        }
        assertEquals(null, failure.get());
        return List.of(s1, r.collect());
    }

    @Test
    void theTableGrowsWhenACollisionFindsItHalfFull() throws Exception {
        // The thread table, probed by gauge reports (they need the thread's block in it).
        StatRegistry r = hot();
        Gauge g = r.gauge("g");
        int holders = collisionInAHalfFullTable(r, INITIAL_TABLE, () -> g.report(1));
        assertEquals(holders + 1 + BATCH, r.collect().gauge("g").count());
        assertEquals(2 * INITIAL_TABLE, EngineProbe.tableLength(engine(r)));
    }

    @Test
    void aCounterCollidingInTheThreadTableGrowsIt() throws Exception {
        StatRegistry r = hot();
        Counter c = r.counter("c");
        int holders = collisionInAHalfFullTable(r, INITIAL_TABLE, () -> c.add(1));
        assertEquals(holders + 1 + BATCH, r.collect().counter("c"));
        assertEquals(2 * INITIAL_TABLE, EngineProbe.tableLength(engine(r)));
    }

    @Test
    void aHistogramsTableGrowsWhenACollisionFindsItHalfFull() throws Exception {
        StatRegistry r = hot();
        Histogram h = r.histogram("h");
        int holders = collisionInAHalfFullTable(r, PerThreadTable.INITIAL, () -> h.record(1));
        assertEquals(holders + 1 + BATCH, r.collect().histogram("h").count());
        assertEquals(2 * PerThreadTable.INITIAL, ((HistogramImpl) h).tableLength());
    }

    /**
     * More than half of a table of {@code size} slots held by live threads (each did one
     * {@code update}), then a thread whose id collides with one of them: its first update grows the
     * table, after which it must do BATCH more while the test holds the engine lock. Returns the
     * number of holders.
     */
    private static int collisionInAHalfFullTable(StatRegistry r, int size, Runnable update) throws Exception {
        List<Thread> created = new ArrayList<>();
        List<Thread> holders = new ArrayList<>();
        boolean[] used = new boolean[size];
        Thread collider = null;
        while (collider == null) {
            Thread t = newThread();
            created.add(t);
            int slot = (int) (Threads.id(t) & (size - 1));
            if (holders.size() < size / 2 + 1) {
                if (!used[slot]) {
                    used[slot] = true;
                    holders.add(t);
                }
            } else if (used[slot] && distinctIn(2 * size, holders, t)) {
                collider = t;
            }
            assertTrue(created.size() < 10_000, "no colliding thread id found");
        }
        List<Parked> parked = new ArrayList<>();
        try {
            for (Thread t : holders) {
                parked.add(Parked.start(t, update));
            }
            CountDownLatch warm = new CountDownLatch(1);
            CountDownLatch go = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread b = named(collider, () -> {
                update.run(); // collides: the table grows and every live thread gets its own slot
                warm.countDown();
                await(go);
                for (int i = 0; i < BATCH; i++) {
                    update.run();
                }
            }, failure);
            b.start();
            await(warm);
            try (EngineLock ignored = EngineLock.hold(engine(r))) {
                go.countDown();
                b.join(WAIT_MS);
                assertFalse(b.isAlive(), "after the table grew, the colliding thread still waited for the engine lock");
            } finally {
                b.join();
            }
            assertEquals(null, failure.get());
        } finally {
            for (Parked p : parked) {
                p.finish();
            }
        }
        return holders.size();
    }

    // ------------------------------------------------------------------ helpers

    /** True if {@code t}'s id differs modulo {@code size} from every id in {@code others}. */
    private static boolean distinctIn(int size, List<Thread> others, Thread t) {
        for (Thread o : others) {
            if (((Threads.id(o) ^ Threads.id(t)) & (size - 1)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Two unstarted threads whose ids are equal modulo the initial table size. */
    static Thread[] collidingPair() {
        Thread a = newThread();
        for (int i = 0; i < 10_000; i++) {
            Thread b = newThread();
            if (((Threads.id(a) ^ Threads.id(b)) & (INITIAL_TABLE - 1)) == 0) {
                return new Thread[] {a, b};
            }
        }
        throw new AssertionError("no colliding thread id found");
    }

    /** A new unstarted thread whose id differs from {@code other}'s modulo the initial table size. */
    private static Thread newThreadNotColliding(Thread other) {
        for (int i = 0; i < 10; i++) {
            Thread t = newThread();
            if (((Threads.id(t) ^ Threads.id(other)) & (INITIAL_TABLE - 1)) != 0) {
                return t;
            }
        }
        throw new AssertionError("unreachable: consecutive thread ids collide");
    }

    static Engine engine(StatRegistry r) throws ReflectiveOperationException {
        Field f = StatRegistry.class.getDeclaredField("engine");
        f.setAccessible(true);
        return (Engine) f.get(r);
    }

    static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs a body set after construction: a Thread's id is fixed when it is constructed, its work later. */
    private static final class Delegate implements Runnable {
        volatile Runnable body = () -> { };

        @Override
        public void run() {
            body.run();
        }
    }

    private static final Map<Thread, Delegate> DELEGATES = Collections.synchronizedMap(new WeakHashMap<>());

    /** An unstarted thread (its id already assigned) whose work {@link #named} sets. */
    static Thread newThread() {
        Delegate d = new Delegate();
        Thread t = new Thread(d);
        DELEGATES.put(t, d);
        return t;
    }

    /** Makes unstarted thread {@code t} (from {@link #newThread()}) run {@code body}, keeping what it throws. */
    static Thread named(Thread t, Runnable body, AtomicReference<Throwable> failure) {
        DELEGATES.get(t).body = () -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        };
        return t;
    }

    static void runInNewThread(Runnable body) throws InterruptedException {
        runInNewThread(newThread(), body);
    }

    static void runInNewThread(Thread t, Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        named(t, body, failure).start();
        t.join();
        if (failure.get() != null) {
            fail(failure.get());
        }
    }

    /** A live thread that has run {@code body} and waits until {@link #finish()}. */
    static final class Parked {
        final Thread thread;
        private final CountDownLatch done = new CountDownLatch(1);
        private final AtomicReference<Throwable> failure = new AtomicReference<>();

        private Parked(Thread t) {
            this.thread = t;
        }

        static Parked start(Runnable body) throws InterruptedException {
            return start(newThread(), body);
        }

        static Parked start(Thread idSource, Runnable body) throws InterruptedException {
            Parked p = new Parked(idSource);
            CountDownLatch ran = new CountDownLatch(1);
            named(idSource, () -> {
                body.run();
                ran.countDown();
                await(p.done);
            }, p.failure);
            p.thread.start();
            ran.await();
            return p;
        }

        void finish() throws InterruptedException {
            done.countDown();
            thread.join();
            if (failure.get() != null) {
                fail(failure.get());
            }
        }
    }

    /** Holds the engine's lock (as collect() does) on another thread until closed. */
    static final class EngineLock implements AutoCloseable {
        private final CountDownLatch release = new CountDownLatch(1);
        private final Thread holder;

        private EngineLock(Object lock) throws InterruptedException {
            CountDownLatch held = new CountDownLatch(1);
            holder = new Thread(() -> {
                synchronized (lock) {
                    held.countDown();
                    await(release);
                }
            }, "engine-lock-holder");
            holder.start();
            held.await();
        }

        static EngineLock hold(Engine e) throws ReflectiveOperationException, InterruptedException {
            Field l = Engine.class.getDeclaredField("lock");
            l.setAccessible(true);
            return new EngineLock(l.get(e));
        }

        @Override
        public void close() throws InterruptedException {
            release.countDown();
            holder.join();
        }
    }
}
