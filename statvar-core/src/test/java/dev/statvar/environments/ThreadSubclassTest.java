package dev.statvar.environments;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Thread subclasses that override {@link Thread#getId()} (not final on JDK 17 to 25; frameworks
 * and pools do it): updates from every thread must still all be counted, whatever id a thread
 * claims. Each case runs its threads together for {@link #ADDS} counter adds each, and every
 * {@link #REPORT_EVERY}th iteration a gauge report and a histogram record, while a collector
 * thread collects every {@link #COLLECT_EVERY_MS} ms; the intervals must add up to everything done.
 * Every thread reports and records the same values, 0, 1, 2, ...: threads writing each other's
 * cells then collide on the same histogram buckets too.
 */
@Tag("stress")
@Tag(Env.TAG)
class ThreadSubclassTest {
    /** Counter adds per thread. */
    static final int ADDS = 20_000_000;
    /** A gauge report and a histogram record every this many adds (2,000,000 each per thread). */
    static final int REPORT_EVERY = 10;
    static final long COLLECT_EVERY_MS = 2;

    /** A thread that claims the id its {@code idFunction} gives (asked on every call). */
    static final class IdThread extends Thread {
        private final Function<IdThread, Long> idFunction;

        IdThread(Runnable r, String name, Function<IdThread, Long> idFunction) {
            super(r, name);
            this.idFunction = idFunction;
        }

        @Override
        public long getId() {
            return idFunction.apply(this);
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoThreadsClaimingTheSameIdAreBothCounted() throws Exception {
        long shared = 1_000_000_007L; // no real thread has it
        run("two threads, both getId() = " + shared, (w, i) -> new IdThread(w, "same-id-" + i, t -> shared), 2);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoThreadsWhoseIdChangesOnEveryCallAreBothCounted() throws Exception {
        // The ids change on every call and are drawn from a small range both threads share (as a
        // getId() returning a reassigned worker or task number would): any call may claim an id
        // another thread claimed before.
        long base = 1_000_000_011L;
        run("two threads, getId() cycles over " + base + ".." + (base + 3) + " on every call",
                (w, i) -> {
                    AtomicLong calls = new AtomicLong(i);
                    return new IdThread(w, "changing-id-" + i, t -> base + (calls.getAndIncrement() & 3));
                }, 2);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoThreadsWhoseIdChangesNowAndThenAreBothCounted() throws Exception {
        // As above, but an id holds for 65,536 calls before it changes (a worker number reassigned
        // now and then): the threads claim the same id for long stretches, then different ones.
        long base = 1_000_000_017L;
        run("two threads, getId() alternates over " + base + ".." + (base + 1) + " every 65,536 calls",
                (w, i) -> {
                    AtomicLong calls = new AtomicLong(i * 40_000L);
                    return new IdThread(w, "drifting-id-" + i, t -> base + ((calls.getAndIncrement() >>> 16) & 1));
                }, 2);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aThreadClaimingTheIdOfAnotherLiveUpdatingThreadIsCounted() throws Exception {
        // Thread 0 is an ordinary thread; thread 1 claims thread 0's real id.
        Thread[] ordinary = new Thread[1];
        run("an ordinary thread and a subclass whose getId() returns the ordinary thread's id",
                (w, i) -> {
                    if (i == 0) {
                        ordinary[0] = new Thread(w, "ordinary");
                        return ordinary[0];
                    }
                    long victim = ordinary[0].getId();
                    return new IdThread(w, "claims-" + victim, t -> victim);
                }, 2);
    }

    /** Makes thread {@code i} running {@code work}. */
    interface Maker {
        Thread make(Runnable work, int i);
    }

    private static void run(String what, Maker maker, int threads) throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Runnable work = () -> {
                try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new AssertionError("not started");
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                for (int k = 0; k < ADDS; k++) {
                    c.add();
                    if (k % REPORT_EVERY == 0) {
                        long v = k / REPORT_EVERY;
                        g.report(v);
                        h.record(v);
                    }
                }
            };
            workers.add(maker.make(work, i));
        }
        AtomicBoolean stop = new AtomicBoolean();
        Totals got = new Totals();
        Thread collector = new Thread(() -> {
            while (!stop.get()) {
                got.add(r.collect());
                try {
                    Thread.sleep(COLLECT_EVERY_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "collector");
        long t0 = System.nanoTime();
        workers.forEach(Thread::start);
        collector.start();
        go.countDown();
        for (Thread w : workers) {
            Env.join(w, 45_000);
        }
        stop.set(true);
        Env.join(collector, 10_000);
        got.add(r.collect());
        long elapsed = System.nanoTime() - t0;

        long reportsPerThread = (ADDS + REPORT_EVERY - 1) / REPORT_EVERY;
        long adds = (long) threads * ADDS;
        long reports = threads * reportsPerThread;
        long sum = threads * Env.triangle(reportsPerThread - 1);
        long max = reportsPerThread - 1;
        System.out.printf("ThreadSubclassTest, %s (JDK %s, %.1f s, %,d intervals):%n"
                        + "  counter %,d of %,d; gauge count %,d of %,d, sum %d of %d, min %d max %d of 0 %d;%n"
                        + "  histogram count %,d of %,d, sum %d of %d, min %d max %d (%d intervals inexact); last totals(): count %,d sum %d%n",
                what, Runtime.version(), elapsed / 1e9, got.intervals,
                got.counter, adds, got.gaugeCount, reports, got.gaugeSum, sum, got.gaugeMin, got.gaugeMax, max,
                got.histCount, reports, got.histSum, sum, got.histMin, got.histMax, got.histInexact,
                got.lastHistTotals.count(), got.lastHistTotals.sum());
        List<String> failures = new ArrayList<>();
        Env.expect(failures, "counter adds", got.counter, adds);
        Env.expect(failures, "counter total of the last value", got.lastCounterTotal, adds);
        Env.expect(failures, "gauge count", got.gaugeCount, reports);
        Env.expect(failures, "gauge sum", got.gaugeSum, sum);
        Env.expect(failures, "gauge min over all intervals", got.gaugeMin, 0);
        Env.expect(failures, "gauge max over all intervals", got.gaugeMax, max);
        Env.expect(failures, "histogram count", got.histCount, reports);
        Env.expect(failures, "histogram sum", got.histSum, sum);
        Env.expect(failures, "histogram min over all intervals", got.histMin, 0);
        Env.expect(failures, "histogram max over all intervals", got.histMax, max);
        Env.expect(failures, "histogram totals().count() of the last value", got.lastHistTotals.count(), reports);
        Env.expect(failures, "histogram totals().sum() of the last value", got.lastHistTotals.sum(), sum);
        assertTrue(failures.isEmpty(), what + ": " + String.join("; ", failures));
    }

    /** Sums of the intervals; written by one thread at a time (the collector, then after its join the test). */
    static final class Totals {
        long intervals;
        long counter;
        long lastCounterTotal;
        long gaugeCount;
        long gaugeSum;
        long gaugeMin = Long.MAX_VALUE;
        long gaugeMax = Long.MIN_VALUE;
        long histCount;
        long histSum;
        long histMin = Long.MAX_VALUE;
        long histMax = Long.MIN_VALUE;
        /** Intervals whose histogram min/max were flagged inexact. */
        long histInexact;
        HistogramValue lastHistTotals;

        void add(Snapshot s) {
            intervals++;
            counter += s.counter("c");
            lastCounterTotal = s.counterValue("c").total();
            GaugeValue g = s.gauge("g");
            gaugeCount += g.count();
            gaugeSum += g.sum();
            if (!g.isEmpty()) {
                gaugeMin = Math.min(gaugeMin, g.min());
                gaugeMax = Math.max(gaugeMax, g.max());
            }
            HistogramValue h = s.histogram("h");
            histCount += h.count();
            histSum += h.sum();
            if (h.count() > 0) {
                // An inexact interval's min/max still cover its values (they may also cover values
                // reported earlier, all >= 0): the min and max over all intervals stay exact.
                histMin = Math.min(histMin, h.min());
                histMax = Math.max(histMax, h.max());
                if (!h.isMinMaxExact()) {
                    histInexact++;
                }
            }
            lastHistTotals = h.totals();
        }
    }
}
