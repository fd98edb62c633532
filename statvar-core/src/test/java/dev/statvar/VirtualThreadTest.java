package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.Tag;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Virtual threads (JDK 21+; compiled for 17, so created reflectively): exact, bounded memory. */
@Tag("stress")
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadTest {

    static ExecutorService virtualThreadPerTask() throws Exception {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }

    @Test
    void hundredThousandVirtualThreadsAreExactWhileCollectingAndHoldNoStorage() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        // warm up
        ExecutorService warm = virtualThreadPerTask();
        for (int i = 0; i < 1000; i++) {
            warm.submit(() -> {
                c.add();
                g.report(1);
            });
        }
        finish(warm);
        r.collect();
        long before = HeapProbe.retainedBytes();

        int n = 100_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong counted = new AtomicLong();
        AtomicLong reports = new AtomicLong();
        AtomicLong sum = new AtomicLong();
        long[] minMax = {Long.MAX_VALUE, Long.MIN_VALUE};
        Thread collector = new Thread(() -> {
            while (!done.get()) {
                Snapshot s = r.collect();
                counted.addAndGet(s.counter("c"));
                GaugeValue gv = s.gauge("g");
                reports.addAndGet(gv.count());
                sum.addAndGet(gv.sum());
                if (!gv.isEmpty()) {
                    minMax[0] = Math.min(minMax[0], gv.min());
                    minMax[1] = Math.max(minMax[1], gv.max());
                }
            }
        });
        collector.start();
        ExecutorService ex = virtualThreadPerTask();
        {
            for (int i = 0; i < n; i++) {
                final long v = i - 50_000;
                ex.submit(() -> {
                    assertTrue(isVirtual(Thread.currentThread()));
                    c.add(2);
                    c.localView().add(1);
                    g.report(v);
                    g.localView().report(v);
                });
            }
            finish(ex);
        }
        done.set(true);
        collector.join();
        Snapshot last = r.collect();
        counted.addAndGet(last.counter("c"));
        reports.addAndGet(last.gauge("g").count());
        sum.addAndGet(last.gauge("g").sum());
        if (!last.gauge("g").isEmpty()) {
            minMax[0] = Math.min(minMax[0], last.gauge("g").min());
            minMax[1] = Math.max(minMax[1], last.gauge("g").max());
        }
        long expectedSum = 0;
        for (int i = 0; i < n; i++) {
            expectedSum += 2L * (i - 50_000);
        }
        assertEquals(3L * n, counted.get());
        assertEquals(2L * n, reports.get());
        assertEquals(expectedSum, sum.get());
        assertEquals(-50_000, minMax[0]);
        assertEquals(n - 1 - 50_000, minMax[1]);
        assertEquals(0, r.threadBlocks(), "virtual threads must not get per-thread arrays");

        long after = HeapProbe.retainedBytes();
        long perThread = (after - before) / n;
        System.out.printf("heap retained after %,d threads: %,d bytes = %d bytes per %s%n",
                n, after - before, perThread, "virtual thread");
        assertTrue(perThread <= 40, "heap grew by " + (after - before) + " bytes = " + perThread + " bytes per virtual thread");
    }

    @Test
    void statsSpreadOverManyStripeSegmentsAreExact() throws Exception {
        StatRegistry r = StatRegistry.create();
        // 400 counters and 100 gauges, interleaved: 1,400 cells over several doubling segments,
        // some registered after virtual threads have already created the first segments.
        java.util.List<Counter> counters = new java.util.ArrayList<>();
        java.util.List<Gauge> gauges = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            counters.add(r.counter("c" + i));
        }
        ExecutorService first = virtualThreadPerTask();
        first.submit(() -> counters.get(0).add()).get();
        finish(first);
        for (int i = 0; i < 100; i++) {
            gauges.add(r.gauge("g" + i));
            for (int k = 0; k < 3; k++) {
                counters.add(r.counter("c" + i + "_" + k));
            }
        }
        int tasks = 2_000;
        ExecutorService ex = virtualThreadPerTask();
        for (int t = 0; t < tasks; t++) {
            final int v = t;
            ex.submit(() -> {
                for (Counter c : counters) {
                    c.add(2);
                }
                for (Gauge g : gauges) {
                    g.report(v);
                }
            });
        }
        finish(ex);
        Snapshot s = r.collect();
        assertEquals(1 + 2L * tasks, s.counter("c0"));
        for (Counter c : counters.subList(1, counters.size())) {
            assertEquals(2L * tasks, s.counter(c.name()), c.name());
        }
        for (Gauge g : gauges) {
            GaugeValue gv = s.gauge(g.name());
            assertEquals(tasks, gv.count(), g.name());
            assertEquals((long) tasks * (tasks - 1) / 2, gv.sum(), g.name());
            assertEquals(0, gv.min(), g.name());
            assertEquals(tasks - 1, gv.max(), g.name());
        }
    }

    @Test
    void localViewOnAVirtualThreadIsTheSharedHandle() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        ExecutorService ex = virtualThreadPerTask();
        assertSame(c, ex.submit(c::localView).get());
        finish(ex);
        assertNotSame(c, c.localView()); // a platform thread gets a bound view
    }

    static void finish(ExecutorService ex) throws InterruptedException {
        ex.shutdown();
        assertTrue(ex.awaitTermination(2, TimeUnit.MINUTES), "virtual threads did not finish");
    }

    private static boolean isVirtual(Thread t) {
        try {
            return (boolean) Thread.class.getMethod("isVirtual").invoke(t);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
