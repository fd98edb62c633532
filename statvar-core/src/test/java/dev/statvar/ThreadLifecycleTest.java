package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Terminated threads: counts kept (folded at the next collect), storage released. */
@Tag("stress")
class ThreadLifecycleTest {

    @Test
    void deadThreadsCountsAreKeptAndStorageReleased() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            final int v = i;
            threads.add(new Thread(() -> {
                c.add(10);
                g.report(v * 100);
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(8, r.threadBlocks(), "one cell array per updating thread until collected");
        Snapshot s = r.collect();
        assertEquals(0, r.threadBlocks(), "dead threads' arrays are released by collect()");
        assertEquals(80, s.counter("c"));
        assertEquals(8, s.gauge("g").count());
        assertEquals(0, s.gauge("g").min());
        assertEquals(700, s.gauge("g").max());
        // Totals stay continuous after the arrays are gone.
        c.add(1);
        Snapshot s2 = r.collect();
        assertEquals(1, s2.counter("c"));
        assertEquals(81, s2.counterValue("c").total());
        assertEquals(8, s2.gauge("g").totalCount());
        assertEquals(0, s2.gauge("g").count());
    }

    @Test
    void slotsOfDeadThreadsAreReusedAndLiveThreadsBeyondTheTableStillCount() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        // 300 live threads at once: more than the initial table, forcing resizes and collisions.
        int n = 300;
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(n);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            threads.add(new Thread(() -> {
                c.add();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int k = 0; k < 2000; k++) {
                    c.add();
                }
                done.countDown();
            }));
        }
        threads.forEach(Thread::start);
        long collected = r.collect().counter("c");
        go.countDown();
        done.await();
        for (Thread t : threads) {
            t.join();
        }
        collected += r.collect().counter("c");
        assertEquals(n * 2001L, collected);
        assertEquals(0, r.threadBlocks());
    }

    @Test
    void twentyThousandShortLivedThreadsDoNotGrowTheHeap() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        runThreads(1_000, c, g); // warm up class loading, JIT, the table
        r.collect();
        long before = HeapProbe.retainedBytes();
        int n = 20_000;
        runThreads(n, c, g);
        assertTrue(r.threadBlocks() > 0);
        Snapshot s = r.collect();
        long after = HeapProbe.retainedBytes();
        assertEquals(n, s.counter("c"));
        assertEquals(n, s.gauge("g").count());
        assertEquals(0, r.threadBlocks());
        long perThread = (after - before) / n;
        System.out.printf("heap retained after %,d threads: %,d bytes = %d bytes per %s%n",
                n, after - before, perThread, "short-lived platform thread");
        assertTrue(perThread <= 100, "heap grew by " + (after - before) + " bytes = " + perThread + " bytes per thread");
    }

    private static void runThreads(int n, Counter c, Gauge g) throws InterruptedException {
        int batch = 64;
        for (int i = 0; i < n; i += batch) {
            List<Thread> ts = new ArrayList<>(batch);
            for (int k = 0; k < batch && i + k < n; k++) {
                final long v = i + k;
                Thread t = new Thread(() -> {
                    c.add();
                    g.report(v);
                });
                t.start();
                ts.add(t);
            }
            for (Thread t : ts) {
                t.join();
            }
        }
    }
}
