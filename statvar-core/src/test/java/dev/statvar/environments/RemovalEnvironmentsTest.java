package dev.statvar.environments;

import dev.statvar.Counter;
import dev.statvar.CounterValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Series removal where users' threads are unusual: {@code Thread} subclasses claiming one
 * {@code getId()}, the common pool (whose workers lose their ThreadLocals between tasks on JDK
 * 21+) and virtual threads. {@value #LANES} lanes of work each run {@value #TASKS} tasks of
 * {@value #CYCLES} cycles; a cycle registers a labelled counter and a labelled histogram of a
 * new label value, updates them (every third time through a local view) and removes them, and
 * records into a histogram removed (and delivered) before the lanes started, through its handle
 * and a local view of it. A collector thread collects every millisecond meanwhile. Every update
 * of every removed series must be delivered exactly once, the stale histogram's records nowhere,
 * and nothing may be left registered.
 */
@Tag("stress")
@Tag(Env.TAG)
class RemovalEnvironmentsTest {
    static final int LANES = 4;
    static final int TASKS = 50;
    static final int CYCLES = 100;
    static final Labels STALE = Labels.of("k", "stale");

    /** Runs lane {@code i}'s work and returns once it is done. */
    @FunctionalInterface
    interface Lane {
        void run(int lane, Runnable work) throws Exception;
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threadSubclassesClaimingOneIdRemoveExactly() throws Exception {
        long shared = 1_000_000_009L; // no real thread has it
        churn("Thread subclasses, all getId() = " + shared, (lane, work) -> {
            Thread t = new ThreadSubclassTest.IdThread(work, "same-id-" + lane, x -> shared);
            t.start();
            Env.join(t, 30_000);
        });
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void commonPoolTasksRemoveExactly() throws Exception {
        churn("common pool tasks (parallelism " + ForkJoinPool.getCommonPoolParallelism() + ")",
                (lane, work) -> CompletableFuture.runAsync(work).get(30, TimeUnit.SECONDS));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void virtualThreadsRemoveExactly() throws Exception {
        // compiled for JDK 17: the executor is made reflectively, and is not AutoCloseable there
        ExecutorService vt = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        try {
            churn("virtual threads", (lane, work) -> vt.submit(work).get(30, TimeUnit.SECONDS));
        } finally {
            vt.shutdown();
        }
    }

    private static void churn(String what, Lane lane) throws Exception {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> counters = r.counterFamily("churn_total", "", "k");
        StatFamily<Histogram> histograms = r.histogramFamily("churn_seconds", "", HistogramPrecision.DEFAULT, "k");
        Histogram stale = histograms.labels("stale");
        histograms.remove("stale");
        r.collect(); // its last interval: its slot is free, the handle stale
        long[] delivered = new long[3]; // counter total, histogram count, histogram sum
        List<String> problems = new ArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread collector = new Thread(() -> {
            while (!done.get()) {
                tally(r.collect(), delivered, problems);
                LockSupport.parkNanos(1_000_000L);
            }
        }, "collector");
        collector.start();
        List<Thread> lanes = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int l = 0; l < LANES; l++) {
            int id = l;
            Thread driver = new Thread(() -> {
                try {
                    for (int task = 0; task < TASKS; task++) {
                        int first = task * CYCLES;
                        lane.run(id, () -> cycles(counters, histograms, stale, id, first));
                    }
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "lane-" + l);
            driver.start();
            lanes.add(driver);
        }
        for (Thread t : lanes) {
            Env.join(t, 50_000);
        }
        done.set(true);
        Env.join(collector, 10_000);
        tally(r.collect(), delivered, problems); // the last removals' last intervals
        tally(r.collect(), delivered, problems);
        assertTrue(failures.isEmpty(), what + ": a lane failed: " + failures);
        long n = (long) LANES * TASKS * CYCLES;
        long perLane = (long) TASKS * CYCLES;
        long sum = LANES * Env.triangle(perLane);
        System.out.printf("RemovalEnvironmentsTest, %s: %,d register/update/remove cycles, delivered counter total %,d"
                + " (expected %,d), histogram count %,d (%,d), sum %,d (%,d); JDK %s%n", what, n, delivered[0], sum,
                delivered[1], n, delivered[2], sum, Runtime.version());
        assertTrue(problems.isEmpty(), what + ": " + problems);
        assertEquals(sum, delivered[0], what + ": every add of every removed counter delivered once");
        assertEquals(n, delivered[1], what + ": every record of every removed histogram delivered once");
        assertEquals(sum, delivered[2], what + ": their sums");
        assertEquals(0, r.size(), what + ": nothing left registered");
    }

    /** Lane {@code lane}'s cycles {@code first + 1 .. first + CYCLES}: the value of cycle i is i. */
    private static void cycles(StatFamily<Counter> counters, StatFamily<Histogram> histograms, Histogram stale,
                               int lane, int first) {
        for (int i = first + 1; i <= first + CYCLES; i++) {
            String k = lane + "-" + i;
            Counter c = counters.labels(k);
            Histogram h = histograms.labels(k);
            boolean local = i % 3 == 0;
            (local ? c.localView() : c).add(i);
            (local ? h.localView() : h).record(i);
            stale.record(1_000_000_000L);
            stale.localView().record(1_000_000_000L);
            counters.remove(k);
            histograms.remove(k);
        }
    }

    /** Adds a snapshot's churn values to {@code delivered}; notes any value of the stale series. */
    private static void tally(Iterable<StatValue> snapshot, long[] delivered, List<String> problems) {
        for (StatValue v : snapshot) {
            if (v.labels().equals(STALE)) {
                problems.add("the stale histogram appeared after its last interval: " + v);
            } else if (v instanceof CounterValue c) {
                delivered[0] += c.value();
            } else if (v instanceof HistogramValue h) {
                delivered[1] += h.count();
                delivered[2] += h.sum();
            }
        }
    }
}
