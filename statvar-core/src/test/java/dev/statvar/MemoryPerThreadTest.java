package dev.statvar;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory claims of StatRegistry's "Memory" section, as retained heap of 64 live, parked
 * platform threads after each made its updates (issue 31: memory bounded by what is really used). Bounds are the documented sizes with room for the JVM's object headers and the
 * arrays' doubling, and a lower bound that shows the probe sees what it claims to.
 */
class MemoryPerThreadTest {
    private static final int THREADS = 64;
    private static final int STATS = 1_000;

    @Test
    void aCounterCostsEightBytesPerThreadThatAddsToIt() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter[] c = new Counter[STATS];
        for (int i = 0; i < STATS; i++) {
            c[i] = r.counter("c" + i);
        }
        double perPair = bytesPerThread(() -> {
            for (int k = 0; k < 3; k++) {
                for (Counter x : c) {
                    x.add();
                }
            }
        }) / STATS;
        System.out.printf("counter: %.1f bytes per (counter, thread)%n", perPair);
        assertTrue(perPair <= 16, perPair + " bytes per (counter, thread)");
        assertTrue(perPair >= 8, "the probe sees the 8-byte cells: " + perPair);
        assertEquals(3L * 2 * THREADS, r.collect().counter("c999"));
    }

    @Test
    void aThreadColdForAGaugeHoldsNoCopyOfIt() throws Exception {
        StatRegistry r = StatRegistry.create();
        double perPair = bytesPerGaugeAndThread(r);
        System.out.printf("cold gauge: %.1f bytes per (gauge, thread)%n", perPair);
        // 2 bytes of cold count (doubling: up to 4) and the block, against 184 for a copy
        assertTrue(perPair <= 6, perPair + " bytes per (gauge, thread)");
        assertEquals(2 * THREADS, r.collect().gauge("g999").count());
    }

    @Test
    void aThreadHotForAGaugeHoldsItsCells() throws Exception {
        StatRegistry r = StatRegistry.builder().hotAfter(1).build();
        double perPair = bytesPerGaugeAndThread(r);
        System.out.printf("hot gauge: %.1f bytes per (gauge, thread)%n", perPair);
        assertTrue(perPair >= 184, "the probe sees the gauge cells: " + perPair);
        assertTrue(perPair <= 200, perPair + " bytes per (gauge, thread)"); // grown to the registered gauges, no further
        assertEquals(2 * THREADS, r.collect().gauge("g999").count());
    }

    /** STATS gauges registered in {@code r}, each reported once by every thread: retained bytes per (gauge, thread). */
    private static double bytesPerGaugeAndThread(StatRegistry r) throws Exception {
        Gauge[] g = new Gauge[STATS];
        for (int i = 0; i < STATS; i++) {
            g[i] = r.gauge("g" + i);
        }
        return bytesPerThread(() -> {
            for (Gauge x : g) {
                x.report(7);
            }
        }) / STATS;
    }

    /**
     * Retained heap per thread: THREADS live threads run {@code updates} once, then THREADS more;
     * the heap the second batch adds, per thread. What is shared registry-wide (the stripes'
     * segments, made by whichever thread first uses a stripe) is all made by the first batch, so
     * only what each thread holds of its own is counted.
     */
    private static double bytesPerThread(Runnable updates) throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        try {
            startBatch(updates, release, failure, threads);
            long before = HeapProbe.retainedBytes();
            startBatch(updates, release, failure, threads);
            long after = HeapProbe.retainedBytes();
            assertNull(failure.get());
            return (double) (after - before) / THREADS;
        } finally {
            release.countDown();
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    /** Starts THREADS threads that run {@code updates} and then wait for {@code release}; returns when all have updated. */
    private static void startBatch(Runnable updates, CountDownLatch release, AtomicReference<Throwable> failure,
                                   List<Thread> threads) throws Exception {
        CyclicBarrier done = new CyclicBarrier(THREADS + 1);
        for (int i = 0; i < THREADS; i++) {
            Thread t = new Thread(() -> {
                try {
                    updates.run();
                    done.await();
                    release.await();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            t.start();
            threads.add(t);
        }
        done.await();
    }
}
