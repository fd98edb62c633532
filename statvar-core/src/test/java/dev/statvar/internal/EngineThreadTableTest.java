package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's lookup of a thread's block: one block per live thread whatever happens to it
 * (a collision in the table, collects, a pool erasing its ThreadLocals, the table doubling);
 * terminated threads give their slots back, so thread churn does not grow the table; their
 * blocks are released by the next collect; growing a thread's array takes the engine's lock.
 */
class EngineThreadTableTest {
    private static final int INITIAL_TABLE = 64;

    @Test
    void aThreadCollidingInTheTableKeepsItsOneBlock() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        Counter c = r.counter("c");
        Worker a = new Worker();
        a.run(c::add);
        assertEquals(INITIAL_TABLE, EngineProbe.tableLength(e));
        Worker b = new Worker(Worker.collidingWith(a.thread, INITIAL_TABLE));
        // every update of b takes the slow path (its slot is a's): 2000 of them retry the install now and then
        b.run(() -> {
            for (int i = 0; i < 2000; i++) {
                c.add();
            }
        });
        assertTrue(EngineProbe.spilled(e, b.thread), "b's slot is held by a live thread: b is found through the map");
        assertFalse(EngineProbe.spilled(e, a.thread));
        assertEquals(2001, r.collect().counter("c"));
        // a pool erasing ThreadLocals: both threads must find their one block again
        b.run(() -> {
            EngineProbe.eraseThreadLocal(e);
            c.add();
        });
        a.run(() -> {
            EngineProbe.eraseThreadLocal(e);
            c.add();
        });
        assertEquals(2, e.threadBlocks(), "one block per live thread");
        a.stop();
        b.stop();
        var s = r.collect();
        assertEquals(2, s.counter("c"));
        assertEquals(2003, s.counterValue("c").total());
        assertEquals(0, e.threadBlocks(), "dead threads' blocks are released");
        assertEquals(0, EngineProbe.spilledCount(e), "a dead thread's block leaves the map of collided threads");
    }

    @Test
    void deadThreadsGiveTheirSlotsBackAndTheTableDoublesWhenHalfFullOfLiveThreads() throws Exception {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        Counter c = r.counter("c");
        Worker a = new Worker();
        a.run(c::add);
        int length = 2 * INITIAL_TABLE; // colliding there collides in the initial table too
        // churn: threads that collided with a live thread, and threads that had a slot, all die
        for (int i = 0; i < 20; i++) {
            Thread t = Worker.collidingWith(a.thread, length).newThread(c::add);
            t.start();
            t.join();
        }
        for (int i = 0; i < 40; i++) {
            Thread t = new Thread(c::add);
            t.start();
            t.join();
        }
        assertEquals(61, r.collect().counter("c"));
        Worker l = new Worker(Worker.collidingWith(a.thread, length));
        l.run(c::add);
        assertEquals(INITIAL_TABLE, EngineProbe.tableLength(e), "dead threads' slots were given back: the table is not half full");
        assertTrue(EngineProbe.spilled(e, l.thread));
        // now more than half of the slots are taken by live threads: the next collision doubles the table
        List<Worker> workers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Worker w = new Worker();
            w.run(c::add);
            workers.add(w);
        }
        Worker m = new Worker(Worker.collidingWith(a.thread, length));
        m.run(c::add);
        assertEquals(length, EngineProbe.tableLength(e));
        workers.add(a);
        workers.add(l);
        workers.add(m);
        for (Worker w : workers) {
            w.run(() -> {
                EngineProbe.eraseThreadLocal(e);
                c.add();
            });
        }
        assertEquals(workers.size(), e.threadBlocks(), "one block per live thread after the table doubled");
        for (Worker w : workers) {
            w.stop();
        }
        var s = r.collect();
        assertEquals(2 * 43 - 1, s.counter("c"));
        assertEquals(61 + 2 * 43 - 1, s.counterValue("c").total());
        assertEquals(0, e.threadBlocks());
        assertEquals(0, EngineProbe.spilledCount(e));
    }

    @Test
    void growingAThreadsArrayForALaterStatTakesTheEngineLock() throws Exception {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        Counter c = r.counter("c");
        Worker w = new Worker();
        w.run(c::add); // w's array is sized for c
        Gauge g = r.gauge("g"); // beyond w's array
        Future<?> report;
        synchronized (EngineProbe.lock(e)) { // as collect() holds it while it reads the live arrays
            report = w.submit(() -> g.report(5));
            while (!report.isDone() && w.thread.getState() != Thread.State.BLOCKED) {
                Thread.onSpinWait();
            }
            assertFalse(report.isDone(), "the copy into a longer array must wait for the collector's lock");
        }
        report.get();
        w.stop();
        var s = r.collect();
        assertEquals(1, s.counter("c"));
        assertEquals(1, s.gauge("g").count());
        assertEquals(5, s.gauge("g").max());
    }

    @Test
    void theLongestLockHoldOfACollectIsWithinItsDuration() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        Counter c = r.counter("c");
        Worker w = new Worker();
        w.run(c::add);
        c.add();
        long t0 = System.nanoTime();
        r.collect();
        long elapsed = System.nanoTime() - t0;
        long hold = e.lastCollectLongestHoldNanos();
        assertTrue(hold > 0 && hold <= elapsed, "hold " + hold + " ns, collect took " + elapsed + " ns");
        w.stop();
        t0 = System.nanoTime();
        r.collect();
        elapsed = System.nanoTime() - t0;
        hold = e.lastCollectLongestHoldNanos();
        assertTrue(hold > 0 && hold <= elapsed, "hold " + hold + " ns, collect took " + elapsed + " ns");
    }
}
