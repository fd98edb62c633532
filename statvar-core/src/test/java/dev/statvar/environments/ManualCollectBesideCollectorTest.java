package dev.statvar.environments;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exporter's collector running (every {@value #COLLECTOR_INTERVAL_MS} ms) while another part
 * of the application calls {@code collect()} itself (a debug endpoint, a test hook), and workers
 * update a counter, a gauge and a histogram. There is one interval sequence per registry: the
 * intervals delivered to the sink and those the manual collects returned must together add up
 * to everything done, for the counter, the gauge's count and sum, and the histogram's count, sum
 * and every bucket; and the {@code totals()} of the last histogram value (and the totals of the
 * last counter and gauge values) must be everything recorded.
 */
@Tag("stress")
@Tag(Env.TAG)
class ManualCollectBesideCollectorTest {
    static final long COLLECTOR_INTERVAL_MS = 1;
    static final int WORKERS = 2;
    /** How long the workers update (each counts its own iterations). */
    static final Duration DURATION = Duration.ofSeconds(3);
    /** Values recorded: i % VALUE_RANGE for iteration i, so that every bucket up to it is hit many times. */
    static final long VALUE_RANGE = 1L << 20;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void collectorAndManualCollectsTogetherDeliverEverythingExactlyOnce() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        ConcurrentLinkedQueue<Snapshot> delivered = new ConcurrentLinkedQueue<>();
        List<Snapshot> manual = new ArrayList<>(); // written by the manual thread, read after its join
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        long[] iterations = new long[WORKERS]; // each written by its worker, read after its join

        long t0 = System.nanoTime();
        StatCollector collector = r.startCollector(Duration.ofMillis(COLLECTOR_INTERVAL_MS), delivered::add);
        Thread manualThread = new Thread(() -> {
            long k = 0;
            while (!stop.get()) {
                manual.add(r.collect());
                if (++k % 4 == 0) {
                    sleep(1); // now back to back, now spaced: both race the collector's ticks
                }
            }
        }, "manual-collects");
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            final int id = w;
            final boolean viaViews = w % 2 == 1; // one worker through local views, one through the handles
            workers.add(new Thread(() -> {
                await(go);
                Counter cc = viaViews ? c.localView() : c;
                Gauge gg = viaViews ? g.localView() : g;
                Histogram hh = viaViews ? h.localView() : h;
                long deadline = System.nanoTime() + DURATION.toNanos();
                long i = 0;
                while (true) {
                    for (int k = 0; k < 1024; k++, i++) {
                        long v = i % VALUE_RANGE;
                        cc.add();
                        gg.report(v);
                        hh.record(v);
                    }
                    if (System.nanoTime() - deadline >= 0) {
                        break;
                    }
                }
                iterations[id] = i;
            }, "worker-" + w));
        }
        workers.forEach(Thread::start);
        manualThread.start();
        go.countDown();
        for (Thread w : workers) {
            Env.join(w, DURATION.toMillis() + 30_000);
        }
        stop.set(true);
        Env.join(manualThread, 10_000);
        collector.close(); // delivers the last, partial interval
        Snapshot after = r.collect(); // nothing left: an empty interval, whose totals are everything
        long elapsed = System.nanoTime() - t0;

        List<Snapshot> all = new ArrayList<>(delivered);
        all.addAll(manual);
        all.add(after);
        long counter = 0;
        long gaugeCount = 0;
        long gaugeSum = 0;
        long gaugeMin = Long.MAX_VALUE;
        long gaugeMax = Long.MIN_VALUE;
        long histCount = 0;
        long histSum = 0;
        List<HistogramValue> hvs = new ArrayList<>();
        for (Snapshot s : all) {
            counter += s.counter("c");
            GaugeValue gv = s.gauge("g");
            gaugeCount += gv.count();
            gaugeSum += gv.sum();
            if (!gv.isEmpty()) {
                gaugeMin = Math.min(gaugeMin, gv.min());
                gaugeMax = Math.max(gaugeMax, gv.max());
            }
            HistogramValue hv = s.histogram("h");
            histCount += hv.count();
            histSum += hv.sum();
            hvs.add(hv);
        }
        HistogramValue merged = HistogramValue.mergeAll("h", "", hvs);

        long n = 0;
        long sum = 0;
        long maxValue = 0;
        for (long it : iterations) {
            n += it;
            for (long start = 0; start < it; start += VALUE_RANGE) {
                sum += Env.triangle(Math.min(VALUE_RANGE, it - start) - 1);
            }
            maxValue = Math.max(maxValue, Math.min(VALUE_RANGE, it) - 1);
        }

        List<String> failures = new ArrayList<>();
        Env.expect(failures, "counter over all intervals", counter, n);
        Env.expect(failures, "gauge count over all intervals", gaugeCount, n);
        Env.expect(failures, "gauge sum over all intervals", gaugeSum, sum);
        Env.expect(failures, "gauge min over all intervals", gaugeMin, 0);
        Env.expect(failures, "gauge max over all intervals", gaugeMax, maxValue);
        Env.expect(failures, "histogram count over all intervals", histCount, n);
        Env.expect(failures, "histogram sum over all intervals", histSum, sum);
        String bucketDiff = bucketDiff(merged, iterations, maxValue);
        if (bucketDiff != null) {
            failures.add("histogram buckets over all intervals: " + bucketDiff);
        }
        Env.expect(failures, "counter total() of the last value", after.counterValue("c").total(), n);
        Env.expect(failures, "gauge totalCount() of the last value", after.gauge("g").totalCount(), n);
        Env.expect(failures, "gauge totalSum() of the last value", after.gauge("g").totalSum(), sum);
        HistogramValue totals = after.histogram("h").totals();
        Env.expect(failures, "histogram totals().count() of the last value", totals.count(), n);
        Env.expect(failures, "histogram totals().sum() of the last value", totals.sum(), sum);
        Env.expect(failures, "histogram totals().min() of the last value", totals.min(), 0);
        Env.expect(failures, "histogram totals().max() of the last value", totals.max(), maxValue);
        String totalsDiff = bucketDiff(totals, iterations, maxValue);
        if (totalsDiff != null) {
            failures.add("histogram totals() buckets of the last value: " + totalsDiff);
        }
        // The collector's own last value (delivered by close()) must carry the same totals.
        Snapshot lastDelivered = null;
        for (Snapshot s : delivered) {
            lastDelivered = s;
        }
        HistogramValue closeTotals = lastDelivered == null ? null : lastDelivered.histogram("h").totals();
        if (closeTotals == null || closeTotals.count() != n || closeTotals.sum() != sum
                || bucketDiff(closeTotals, iterations, maxValue) != null) {
            failures.add("histogram totals() of the value close() delivered: "
                    + (closeTotals == null ? "none delivered" : "count " + closeTotals.count() + " sum " + closeTotals.sum()
                    + ", " + bucketDiff(closeTotals, iterations, maxValue)));
        }
        System.out.printf("ManualCollectBesideCollectorTest (JDK %s, %.1f s): %,d intervals delivered to the sink,"
                        + " %,d returned by manual collects;%n"
                        + "  counter %,d, gauge count %,d sum %d min %d max %d, histogram count %,d sum %d (expected %,d and %d);%n"
                        + "  last totals(): count %,d sum %d min %d max %d; buckets %s; totals' buckets %s%n",
                Runtime.version(), elapsed / 1e9, delivered.size(), manual.size(), counter, gaugeCount, gaugeSum,
                gaugeMin, gaugeMax, histCount, histSum, n, sum, totals.count(), totals.sum(), totals.min(), totals.max(),
                bucketDiff == null ? "exact" : bucketDiff, totalsDiff == null ? "exact" : totalsDiff);
        assertTrue(failures.isEmpty(), String.join("; ", failures));
    }

    /**
     * Null if {@code v}'s buckets are exactly those of every worker w recording {@code i % VALUE_RANGE}
     * for i below {@code iterations[w]} (values 0..maxValue), else the first difference.
     */
    private static String bucketDiff(HistogramValue v, long[] iterations, long maxValue) {
        long seen = 0;
        for (HistogramValue.Bucket b : v.buckets()) {
            long expected = 0;
            for (long it : iterations) {
                expected += occurrences(it, b.lowerBound(), Math.min(b.upperBound(), maxValue));
            }
            if (b.count() != expected) {
                return "bucket " + b.lowerBound() + ".." + b.upperBound() + " counts " + b.count() + ", expected " + expected;
            }
            seen += b.count();
        }
        long n = 0;
        for (long it : iterations) {
            n += it;
        }
        return seen == n ? null : "the buckets count " + seen + " values, expected " + n;
    }

    /** How often a worker of {@code iterations} records a value in {@code lo .. hi} (values i % VALUE_RANGE). */
    private static long occurrences(long iterations, long lo, long hi) {
        if (hi < lo) {
            return 0;
        }
        long full = iterations / VALUE_RANGE;
        long rest = iterations % VALUE_RANGE; // values 0 .. rest-1 occur once more
        long width = hi - lo + 1;
        long inRest = Math.max(0, Math.min(hi, rest - 1) - lo + 1);
        return full * width + inRest;
    }

    private static void await(CountDownLatch l) {
        try {
            if (!l.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("not started");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
