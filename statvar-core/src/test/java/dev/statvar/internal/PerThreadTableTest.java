package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static dev.statvar.internal.EngineUpdatePathTest.collidingPair;
import static dev.statvar.internal.EngineUpdatePathTest.runInNewThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handle's table of per-thread objects ({@link PerThreadTable}), for the handle that has one:
 * a histogram's views ({@link HistogramImpl}). (Counters and gauges find a thread's cells through
 * the engine's thread table: {@link EngineThreadTableTest}.)
 * Which thread's object a slot holds after a collision, when the table grows, and that a dead
 * thread's slot is freed. (Growth on a half-full table is in {@link EngineUpdatePathTest}.)
 */
class PerThreadTableTest {

    /** A stat with a per-thread table, and how to update it, read its total and look into its table. */
    enum Kind {
        HISTOGRAM {
            @Override
            Object register(StatRegistry r) {
                return r.histogram("s");
            }

            @Override
            void update(Object stat, long n) {
                ((Histogram) stat).record(n);
            }

            @Override
            long total(Snapshot s) {
                return s.histogram("s").sum();
            }
        };

        abstract Object register(StatRegistry r);

        abstract void update(Object stat, long n);

        abstract long total(Snapshot s);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aTerminatedThreadsSlotIsTakenByTheNextThreadWithoutGrowing(Kind kind) throws Exception {
        StatRegistry r = StatRegistry.create();
        Object stat = kind.register(r);
        Thread[] pair = collidingPair(); // equal ids modulo 64, so modulo the table's 16 slots too
        runInNewThread(pair[0], () -> kind.update(stat, 3)); // installs its object, then terminates (no collect since)
        EngineUpdatePathTest.Parked b = EngineUpdatePathTest.Parked.start(pair[1], () -> kind.update(stat, 4));
        try {
            assertSame(pair[1], slotOf(stat, pair[1]).owner, "the slot of a terminated thread goes to the next thread");
            assertEquals(PerThreadTable.INITIAL, tableOf(stat).length, "reusing a dead thread's slot is no reason to grow");
        } finally {
            b.finish();
        }
        assertEquals(7, kind.total(r.collect()));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aCollisionWithALiveThreadInATableAtMostHalfFullLeavesTheTableAsItIs(Kind kind) throws Exception {
        StatRegistry r = StatRegistry.create();
        Object stat = kind.register(r);
        Thread[] pair = collidingPair();
        EngineUpdatePathTest.Parked a = EngineUpdatePathTest.Parked.start(pair[0], () -> kind.update(stat, 3));
        try {
            EngineUpdatePathTest.Parked b = EngineUpdatePathTest.Parked.start(pair[1], () -> {
                kind.update(stat, 4);
                kind.update(stat, 5); // again through the slow path: the slot is still the other thread's
            });
            try {
                assertSame(pair[0], slotOf(stat, pair[1]).owner, "a live thread keeps its slot");
                assertEquals(PerThreadTable.INITIAL, tableOf(stat).length, "one live object in 16 slots: no growth");
            } finally {
                b.finish();
            }
        } finally {
            a.finish();
        }
        assertEquals(12, kind.total(r.collect()), "the collided thread counted through its own object all the same");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aCollectFreesATerminatedThreadsSlot(Kind kind) throws Exception {
        StatRegistry r = StatRegistry.create();
        Object stat = kind.register(r);
        Thread t = EngineUpdatePathTest.newThread();
        runInNewThread(t, () -> kind.update(stat, 3));
        assertSame(t, slotOf(stat, t).owner, "until a collect, the dead thread's object stays in its slot");
        assertEquals(3, kind.total(r.collect()));
        assertNull(slotOf(stat, t), "the collect that folded the dead thread freed its slot (it would pin the Thread)");
    }

    // ------------------------------------------------------------------ PerThreadTable's rules on small tables

    /** An object in a table: just its owner. */
    static final class Owned extends PerThread {
        Owned(Thread owner) {
            super(owner);
        }
    }

    private final CountDownLatch release = new CountDownLatch(1);
    private final List<Thread> started = new ArrayList<>();

    @AfterEach
    void finishThreads() throws InterruptedException {
        release.countDown();
        for (Thread t : started) {
            t.join();
        }
    }

    /** A live thread (parked until the test ends) whose slot in a table of {@code length} is {@code slot}. */
    private Thread liveAt(int slot, int length) {
        for (int i = 0; i < 1_000; i++) {
            Thread t = new Thread(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            if (PerThreadTable.slot(t, length) == slot) {
                t.start();
                started.add(t);
                return t;
            }
        }
        throw new AssertionError("no thread id for slot " + slot);
    }

    /** A terminated thread whose slot in a table of {@code length} is {@code slot}. */
    private static Thread deadAt(int slot, int length) throws InterruptedException {
        for (int i = 0; i < 1_000; i++) {
            Thread t = new Thread(() -> { });
            if (PerThreadTable.slot(t, length) == slot) {
                t.start();
                t.join();
                return t;
            }
        }
        throw new AssertionError("no thread id for slot " + slot);
    }

    @Test
    void placeTakesAFreeSlotOrADeadThreadsAndNeverALiveThreads() throws Exception {
        Owned[] tab = new Owned[4];
        Owned a = new Owned(liveAt(1, 4));
        assertTrue(PerThreadTable.place(tab, a));
        assertSame(a, tab[1]);
        assertTrue(PerThreadTable.place(tab, a), "already there");
        Owned b = new Owned(liveAt(1, 4));
        assertFalse(PerThreadTable.place(tab, b), "the slot is a live thread's");
        assertSame(a, tab[1]);
        Owned dead = new Owned(deadAt(2, 4));
        tab[2] = dead;
        Owned c = new Owned(liveAt(2, 4));
        assertTrue(PerThreadTable.place(tab, c), "a terminated thread's slot is free");
        assertSame(c, tab[2]);
    }

    @Test
    void makeRoomGrowsOnlyWhenALiveThreadHoldsTheSlotAndMoreThanHalfTheSlotsAreLive() throws Exception {
        Owned[] tab = new Owned[4];
        Owned x = new Owned(liveAt(0, 4));
        assertSame(tab, PerThreadTable.makeRoom(tab, x), "free slot");
        tab[0] = x;
        assertSame(tab, PerThreadTable.makeRoom(tab, x), "its own slot");
        tab[0] = new Owned(deadAt(0, 4));
        assertSame(tab, PerThreadTable.makeRoom(tab, x), "a dead thread's slot");
        tab[0] = new Owned(liveAt(0, 4));
        tab[1] = new Owned(liveAt(1, 4));
        assertSame(tab, PerThreadTable.makeRoom(tab, x), "2 live of 4: not more than half");
        tab[2] = new Owned(deadAt(2, 4));
        assertSame(tab, PerThreadTable.makeRoom(tab, x), "dead threads do not count");
        tab[3] = new Owned(liveAt(3, 4));
        // 3 live of 4 now; still no growth where the slot is free to take:
        assertSame(tab, PerThreadTable.makeRoom(tab, new Owned(liveAt(2, 4))), "3 live of 4, but a dead thread's slot");
        assertSame(tab, PerThreadTable.makeRoom(tab, tab[1]), "3 live of 4, but its own slot");
        Owned[] grown = PerThreadTable.makeRoom(tab, x);
        assertNotSame(tab, grown, "3 live of 4, and x's slot is taken: grow");
        assertEquals(8, grown.length);
        int live = 0;
        for (Owned o : tab) {
            if (o.owner.isAlive()) {
                assertSame(o, grown[PerThreadTable.slot(o.owner, 8)], "a live thread's object at its slot in the new table");
                live++;
            }
        }
        int held = 0;
        for (Owned o : grown) {
            held += o == null ? 0 : 1;
        }
        assertEquals(live, held, "the dead thread's object is not copied");
    }

    @Test
    void makeRoomStopsGrowingAtTheLargestTable() throws Exception {
        Owned[] tab = new Owned[PerThreadTable.MAX];
        Thread live = liveAt(0, 1); // any live thread
        for (int i = 0; i < tab.length; i++) {
            tab[i] = new Owned(live); // every slot a live thread's (the same one: only isAlive() is asked)
        }
        assertSame(tab, PerThreadTable.makeRoom(tab, new Owned(Thread.currentThread())));
        Owned[] below = new Owned[PerThreadTable.MAX / 2];
        Arrays.fill(below, tab[0]);
        assertEquals(PerThreadTable.MAX, PerThreadTable.makeRoom(below, new Owned(Thread.currentThread())).length);
    }

    @Test
    void releaseClearsOnlyTheSlotStillHoldingTheObject() throws Exception {
        Owned[] tab = new Owned[4];
        Owned gone = new Owned(deadAt(3, 4));
        tab[3] = gone;
        PerThreadTable.release(tab, gone);
        assertNull(tab[3]);
        Owned next = new Owned(liveAt(3, 4));
        tab[3] = next;
        PerThreadTable.release(tab, gone); // the slot went to another thread meanwhile
        assertSame(next, tab[3]);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aThreadsFirstStatMayHaveAnyIndexAndItsNextOneAFarHigherOne(Kind kind) throws Exception {
        // The thread's Block keeps its objects by the stats' registration index: made on first
        // use at that index, grown when a later stat's index is beyond it.
        StatRegistry r = StatRegistry.create();
        Object[] stats = new Object[120];
        for (int i = 0; i < stats.length; i++) {
            stats[i] = r.histogram("s" + i);
        }
        runInNewThread(() -> {
            kind.update(stats[10], 1);
            kind.update(stats[100], 2);
            kind.update(stats[10], 3);
            kind.update(stats[119], 4);
        });
        Snapshot s = r.collect();
        long[] expected = new long[stats.length];
        expected[10] = 4;
        expected[100] = 2;
        expected[119] = 4;
        for (int i = 0; i < stats.length; i++) {
            long total = s.histogram("s" + i).sum();
            assertEquals(expected[i], total, "stat " + i);
        }
    }

    /** The handle's current table. */
    private static PerThread[] tableOf(Object stat) throws ReflectiveOperationException {
        Field f = stat.getClass().getDeclaredField("table");
        f.setAccessible(true);
        synchronized (EngineProbe.lock((HistogramImpl) stat)) { // the table and its slots are written under the engine lock
            return (PerThread[]) f.get(stat);
        }
    }

    /** The object in thread {@code t}'s slot of the handle's current table. */
    private static PerThread slotOf(Object stat, Thread t) throws ReflectiveOperationException {
        synchronized (EngineProbe.lock((HistogramImpl) stat)) {
            PerThread[] tab = tableOf(stat);
            return tab[PerThreadTable.slot(t, tab.length)];
        }
    }
}
