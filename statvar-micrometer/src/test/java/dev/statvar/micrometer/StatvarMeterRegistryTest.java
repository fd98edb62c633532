package dev.statvar.micrometer;

import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatvarMeterRegistryTest {
    @Test
    void concurrentUpdatesAreAllCountedInStatvarAndInTheMeters() throws Exception {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        Counter c = r.counter("http.requests", "method", "GET");
        Timer t = r.timer("http.latency", "method", "GET");
        DistributionSummary s = DistributionSummary.builder("response.size").baseUnit("bytes").register(r);
        int threads = 4;
        int n = 50_000;
        List<Snapshot> collected = new CopyOnWriteArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> ts = new ArrayList<>();
        try (StatCollector col = stats.startCollector(Duration.ofMillis(2), collected::add)) {
            for (int i = 0; i < threads; i++) {
                Thread th = new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    for (int k = 1; k <= n; k++) {
                        c.increment();
                        t.record(k, TimeUnit.MICROSECONDS);
                        s.record(k);
                        if (k % 10_000 == 0) {
                            c.count(); // reads collect, beside the collector
                        }
                    }
                });
                th.start();
                ts.add(th);
            }
            go.countDown();
            for (Thread th : ts) {
                th.join();
            }
        }
        long total = (long) threads * n;
        long sumK = (long) n * (n + 1) / 2 * threads;
        assertEquals(total, c.count(), 0.0);
        assertEquals(total, t.count());
        assertEquals(sumK * 1_000, t.totalTime(TimeUnit.NANOSECONDS), 0.0);
        assertEquals(total, s.count());
        assertEquals(sumK, s.totalAmount(), 0.0);
        Snapshot last = collected.get(collected.size() - 1);
        Labels get = Labels.of("method", "GET");
        assertEquals(total, last.counterValue("http_requests_total", get).total(), "the collector's totals are exact too");
        assertEquals(total, last.histogram("http_latency_nanoseconds", get).totals().count());
        assertEquals(sumK, last.histogram("response_size_bytes").totals().sum());
        long intervals = collected.stream().mapToLong(x -> x.counterValue("http_requests_total", get).value()).sum();
        assertTrue(intervals <= total, "intervals the collector received, the reads' intervals excluded");
    }

    @Test
    void fractionalIncrementsAreCarriedIntoTheStatvarCounterAndNeverLost() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        Counter c = r.counter("work.done");
        c.increment(0.5);
        c.increment(0.25);
        assertEquals(0.75, c.count(), 1e-12);
        c.increment(2.5);
        assertEquals(3.25, c.count(), 1e-12);
        assertEquals(3, stats.collect().counterValue("work_done_total").total(), "whole units reach the statvar counter");
        c.increment(0.75);
        assertEquals(4.0, c.count(), 1e-12);
        assertEquals(4, stats.collect().counterValue("work_done_total").total());
    }

    @Test
    void negativeNanAndInfiniteAmountsAreIgnoredWithoutAnException() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        Counter c = r.counter("c");
        Timer t = r.timer("t");
        DistributionSummary s = r.summary("s");
        for (double bad : new double[]{-1, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.5}) {
            assertDoesNotThrow(() -> c.increment(bad));
            if (bad != Double.POSITIVE_INFINITY) {
                assertDoesNotThrow(() -> s.record(bad));
            }
        }
        assertDoesNotThrow(() -> t.record(-5, TimeUnit.SECONDS));
        assertDoesNotThrow(() -> t.record(Duration.ofMillis(-1)));
        assertEquals(0, c.count(), 0.0);
        assertEquals(0, t.count());
        assertEquals(0, s.count());
        s.record(Double.POSITIVE_INFINITY);
        assertEquals(1, s.count(), "an infinite amount is recorded as Long.MAX_VALUE");
        assertEquals(Long.MAX_VALUE, stats.collect().histogram("s").totals().max());
    }

    @Test
    void theSameNameWithOtherTagKeysCountsInItsOwnStatvarFamily() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        List<String> failures = new ArrayList<>();
        r.config().onMeterRegistrationFailed((id, reason) -> failures.add(id.getName() + ": " + reason));
        Counter a = r.counter("jobs", "queue", "q1");
        Counter b = assertDoesNotThrow(() -> r.counter("jobs", "queue", "q1", "worker", "w1")); // other tag keys
        a.increment();
        b.increment(5);
        assertEquals(List.of(), failures, "PrometheusMeterRegistry 1.17.2 takes both too");
        assertEquals(1, a.count(), 0.0);
        assertEquals(5, b.count(), 0.0, "not a no-op");
        Snapshot s = stats.collect();
        assertEquals(1, s.counterValue("jobs_total", Labels.of("queue", "q1")).total());
        assertEquals(5, s.counterValue("jobs__by_queue_worker_total", Labels.of("queue", "q1", "worker", "w1")).total(),
                "statvar-natively the second key set has a family of its own");
        String scrape = r.scrape();
        assertTrue(scrape.contains("jobs_total{queue=\"q1\"} 1.0\njobs_total{queue=\"q1\",worker=\"w1\"} 5.0"), scrape);
    }

    @Test
    void pullMetersAreSampledIntoEveryIntervalWhoeverCollects() {
        StatRegistry stats = StatRegistry.create();
        MockClock clock = new MockClock();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats, clock);
        AtomicLong queue = new AtomicLong(3);
        Gauge.builder("queue.depth", queue, AtomicLong::doubleValue).register(r);
        Gauge.builder("cpu.usage", () -> 0.375).register(r);
        AtomicLong gcs = new AtomicLong(5);
        FunctionCounter.builder("gc.count", gcs, AtomicLong::doubleValue).register(r);
        LongTaskTimer ltt = LongTaskTimer.builder("batch").register(r);
        LongTaskTimer.Sample running = ltt.start();
        clock.add(2, TimeUnit.SECONDS);

        Snapshot s1 = stats.collect();
        assertEquals(3_000_000, s1.gauge("queue_depth_millionths").max());
        assertEquals(375_000, s1.gauge("cpu_usage_millionths").max());
        assertEquals(5, s1.counterValue("gc_count_total").total());
        assertEquals(1, s1.gauge("batch_active_tasks").max());
        assertEquals(2_000_000_000L, s1.gauge("batch_duration_nanoseconds").max());

        queue.set(7);
        gcs.set(9);
        running.stop();
        Snapshot s2 = stats.collect();
        assertEquals(7_000_000, s2.gauge("queue_depth_millionths").min());
        assertEquals(9, s2.counterValue("gc_count_total").total());
        assertEquals(4, s2.counterValue("gc_count_total").value());
        assertEquals(0, s2.gauge("batch_active_tasks").max());

        r.remove(r.get("queue.depth").gauge());
        assertEquals(0, stats.collect().gauge("queue_depth_millionths").count(), "a removed meter is no longer sampled");
        r.close();
        assertEquals(0, stats.collect().gauge("cpu_usage_millionths").count(), "a closed registry samples nothing");
    }

    @Test
    void aGaugeThatReadsAMeterOrThrowsBreaksNothing() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        Counter c = r.counter("c");
        c.increment(4);
        Gauge.builder("c.mirror", c, Counter::count).register(r); // a read inside a collect cannot collect
        Gauge.builder("broken", () -> {
            throw new IllegalStateException("test: a gauge function that throws");
        }).register(r);
        Snapshot s = assertDoesNotThrow(stats::collect);
        assertEquals(4, s.counterValue("c_total").total());
        assertEquals(1, s.gauge("c_mirror_millionths").count());
    }

    @Test
    void maxAndPercentilesCoverTheExpiryWindowOfTheMicrometerClock() {
        MockClock clock = new MockClock();
        StatvarMeterRegistry r = new StatvarMeterRegistry(StatRegistry.create(), clock);
        Timer t = Timer.builder("t").publishPercentiles(0.5, 0.99).register(r);
        for (int i = 1; i <= 100; i++) {
            t.record(i, TimeUnit.MILLISECONDS);
        }
        assertEquals(100, t.max(TimeUnit.MILLISECONDS), 0.0);
        var p = t.takeSnapshot().percentileValues();
        assertEquals(50, p[0].value(TimeUnit.MILLISECONDS), 50 * 0.01);
        assertEquals(99, p[1].value(TimeUnit.MILLISECONDS), 99 * 0.01);
        clock.add(Duration.ofMinutes(3)); // past the default expiry (2 min)
        assertEquals(0, t.max(TimeUnit.MILLISECONDS), 0.0);
        assertEquals(100, t.count(), "counts are totals, not windowed");
    }

    @Test
    void aClosedRegistryIsNotHeldByTheStatRegistry() throws Exception {
        // an application server drops an application's class loader: a registry it created and closed
        // must not stay reachable from a StatRegistry that lives on (its listener held it)
        StatRegistry stats = StatRegistry.create();
        java.lang.ref.WeakReference<StatvarMeterRegistry> ref = closedRegistry(stats);
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(null, ref.get(), "the closed registry was collected");
        assertEquals(3_000_000, stats.collect().gauge("g_millionths").totalSum(), "its stats remain");
    }

    private static java.lang.ref.WeakReference<StatvarMeterRegistry> closedRegistry(StatRegistry stats) {
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        Gauge.builder("g", () -> 3).strongReference(true).register(r);
        r.counter("c").increment();
        stats.collect();
        r.close();
        return new java.lang.ref.WeakReference<>(r);
    }

    @Test
    void badConstructorArguments() {
        assertThrows(NullPointerException.class, () -> new StatvarMeterRegistry(null));
        assertThrows(NullPointerException.class, () -> new StatvarMeterRegistry(StatRegistry.create(), null));
    }
}
