package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;

import static dev.statvar.internal.EngineUpdatePathTest.collidingPair;
import static dev.statvar.internal.EngineUpdatePathTest.runInNewThread;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * A counter's table of per-thread cells ({@link CounterImpl}): which thread's cell a slot holds
 * after a collision, and when the table grows. (Growth on a half-full table, and a collided
 * thread taking a freed slot, are in {@link EngineUpdatePathTest}.)
 */
class CounterTableTest {

    @Test
    void aTerminatedThreadsSlotIsTakenByTheNextThreadWithoutGrowing() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Thread[] pair = collidingPair(); // equal ids modulo 64, so modulo the counter's 16 slots too
        runInNewThread(pair[0], () -> c.add(3)); // installs its cell, then terminates (no collect since)
        EngineUpdatePathTest.Parked b = EngineUpdatePathTest.Parked.start(pair[1], () -> c.add(4));
        try {
            CounterCell held = slotOf((CounterImpl) c, pair[1]);
            assertSame(pair[1], held.owner, "the slot of a terminated thread goes to the next thread");
            assertEquals(CounterImpl.INITIAL_TABLE, ((CounterImpl) c).tableLength(), "reusing a dead thread's slot is no reason to grow");
        } finally {
            b.finish();
        }
        assertEquals(7, r.collect().counter("c"));
    }

    @Test
    void aCollisionWithALiveThreadInATableAtMostHalfFullLeavesTheTableAsItIs() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Thread[] pair = collidingPair();
        EngineUpdatePathTest.Parked a = EngineUpdatePathTest.Parked.start(pair[0], () -> c.add(3));
        try {
            EngineUpdatePathTest.Parked b = EngineUpdatePathTest.Parked.start(pair[1], () -> c.add(4));
            try {
                CounterCell held = slotOf((CounterImpl) c, pair[1]);
                assertSame(pair[0], held.owner, "a live thread keeps its slot");
                assertEquals(CounterImpl.INITIAL_TABLE, ((CounterImpl) c).tableLength(), "one live cell in 16 slots: no growth");
            } finally {
                b.finish();
            }
        } finally {
            a.finish();
        }
        assertEquals(7, r.collect().counter("c"), "the collided thread counted through its own cell all the same");
    }

    /** The cell in thread {@code t}'s slot of counter {@code c}'s current table. */
    private static CounterCell slotOf(CounterImpl c, Thread t) throws ReflectiveOperationException {
        Field f = CounterImpl.class.getDeclaredField("table");
        f.setAccessible(true);
        synchronized (EngineProbe.lock(c.engine)) { // the table and its slots are written under the engine lock
            CounterCell[] tab = (CounterCell[]) f.get(c);
            return tab[(int) Threads.id(t) & (tab.length - 1)];
        }
    }
}
