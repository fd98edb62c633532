package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.Field;

import static dev.statvar.internal.EngineUpdatePathTest.collidingPair;
import static dev.statvar.internal.EngineUpdatePathTest.runInNewThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A handle's table of per-thread objects ({@link PerThreadTable}), for both handles that have
 * one: a counter's cells ({@link CounterImpl}) and a histogram's views ({@link HistogramImpl}).
 * Which thread's object a slot holds after a collision, when the table grows, and that a dead
 * thread's slot is freed. (Growth on a half-full table is in {@link EngineUpdatePathTest}.)
 */
class PerThreadTableTest {

    /** A stat with a per-thread table, and how to update it, read its total and look into its table. */
    enum Kind {
        COUNTER {
            @Override
            Object register(StatRegistry r) {
                return r.counter("s");
            }

            @Override
            void update(Object stat, long n) {
                ((Counter) stat).add(n);
            }

            @Override
            long total(Snapshot s) {
                return s.counter("s");
            }
        },
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

    /** The handle's current table. */
    private static PerThread[] tableOf(Object stat) throws ReflectiveOperationException {
        Field f = stat.getClass().getDeclaredField("table");
        f.setAccessible(true);
        synchronized (EngineProbe.lock(engineOf(stat))) { // the table and its slots are written under the engine lock
            return (PerThread[]) f.get(stat);
        }
    }

    /** The object in thread {@code t}'s slot of the handle's current table. */
    private static PerThread slotOf(Object stat, Thread t) throws ReflectiveOperationException {
        synchronized (EngineProbe.lock(engineOf(stat))) {
            PerThread[] tab = tableOf(stat);
            return tab[PerThreadTable.slot(t, tab.length)];
        }
    }

    private static Engine engineOf(Object stat) {
        return stat instanceof CounterImpl c ? c.engine : ((HistogramImpl) stat).engine();
    }
}
