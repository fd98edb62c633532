package dev.statvar.micrometer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Statistic;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.NamingConvention;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Instrumentation recorded identically into two registries (statvar's and Micrometer's Prometheus
 * registry) by {@code MicrometerFidelityTest}: every meter kind, with and without SLOs, percentiles,
 * percentile histograms and expected value ranges, meter filters, common tags, removal and
 * re-registration, and one name with two sets of tag keys.
 */
final class FidelityCorpus {
    /** State the function meters and gauges read, shared by both registries. */
    final AtomicLong queue = new AtomicLong(3);
    final AtomicLong gcs = new AtomicLong(5);
    final AtomicLong cacheGets = new AtomicLong(3);
    final AtomicLong cacheNanos = new AtomicLong(1_500_000_000L);
    final MockClock clock = new MockClock();

    /** An acme convention: names prefixed, tag keys prefixed with {@code k_} (the example). */
    static final NamingConvention ACME = new NamingConvention() {
        @Override
        public String name(String name, Meter.Type type, String baseUnit) {
            return NamingConvention.snakeCase.name("acme." + name, type, baseUnit);
        }

        @Override
        public String tagKey(String key) {
            return "k_" + NamingConvention.snakeCase.tagKey(key);
        }
    };

    /** Filters and common tags, configured before any meter as Micrometer requires. */
    static void configure(MeterRegistry r) {
        r.config().commonTags("app", "shop");
        r.config().meterFilter(MeterFilter.denyNameStartsWith("ignored"));
        r.config().meterFilter(MeterFilter.renameTag("renamed", "old", "new"));
        r.config().meterFilter(MeterFilter.maxExpected("filtered.latency", Duration.ofSeconds(2)));
    }

    static void instrument(FidelityCorpus c, MeterRegistry r) {
        c.instrumentInto(r);
    }

    void instrumentInto(MeterRegistry r) {
        r.counter("http.requests", "method", "GET").increment(3);
        r.counter("work.done").increment(2.5);
        r.counter("ignored.requests").increment();
        r.counter("renamed.counter", "old", "x").increment(4);

        Timer plain = r.timer("http.latency", "method", "GET");
        plain.record(100, TimeUnit.MILLISECONDS);
        plain.record(200, TimeUnit.MILLISECONDS);

        Timer slo = Timer.builder("api.latency").serviceLevelObjectives(Duration.ofMillis(100), Duration.ofMillis(500))
                .register(r);
        for (long us : new long[]{50_000, 100_000, 100_500, 499_999, 500_000, 700_000}) {
            slo.record(us, TimeUnit.MICROSECONDS);
        }

        Timer pct = Timer.builder("db.latency").publishPercentiles(0.5, 0.95).register(r);
        for (int i = 1; i <= 100; i++) {
            pct.record(i, TimeUnit.MILLISECONDS);
        }

        Timer hist = Timer.builder("rpc.latency").publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1)).maximumExpectedValue(Duration.ofSeconds(1)).register(r);
        for (int i = 1; i <= 50; i++) {
            hist.record(i * 7, TimeUnit.MILLISECONDS);
        }
        Timer filtered = Timer.builder("filtered.latency").publishPercentileHistogram().register(r);
        filtered.record(30, TimeUnit.MILLISECONDS);

        DistributionSummary size = DistributionSummary.builder("response.size").baseUnit("bytes").register(r);
        size.record(512);
        size.record(2048);
        DistributionSummary payload = DistributionSummary.builder("payload.size").baseUnit("bytes")
                .serviceLevelObjectives(1000, 5000).register(r);
        for (double v : new double[]{999, 1000, 1001, 4999, 5000, 6000}) {
            payload.record(v);
        }
        DistributionSummary batch = DistributionSummary.builder("batch.size").publishPercentileHistogram()
                .publishPercentiles(0.5).minimumExpectedValue(1.0).maximumExpectedValue(1000.0).register(r);
        for (int i = 1; i <= 200; i++) {
            batch.record(i);
        }

        Gauge.builder("queue.depth", queue, AtomicLong::doubleValue).baseUnit("items").description("items waiting")
                .register(r);
        Gauge.builder("cpu.usage", () -> 0.25).register(r);
        TimeGauge.builder("uptime", () -> 1500, TimeUnit.MILLISECONDS).register(r);
        MultiGauge pool = MultiGauge.builder("pool.size").register(r);
        pool.register(List.of(MultiGauge.Row.of(Tags.of("pool", "a"), 2), MultiGauge.Row.of(Tags.of("pool", "b"), 7)));

        FunctionCounter.builder("gc.count", gcs, AtomicLong::doubleValue).register(r);
        FunctionTimer.builder("cache.gets", this, c -> c.cacheGets.get(), c -> c.cacheNanos.get(),
                TimeUnit.NANOSECONDS).register(r);

        LongTaskTimer ltt = LongTaskTimer.builder("batch.job").register(r);
        ltt.start();
        LongTaskTimer lttHistogram = LongTaskTimer.builder("export.job").publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofSeconds(1)).maximumExpectedValue(Duration.ofSeconds(10)).register(r);
        lttHistogram.start();
        Gauge.builder("build.info", () -> 1).tags("version", "1.2").register(r);
        clock.add(2, TimeUnit.SECONDS);

        Counter gone = r.counter("jobs.done");
        gone.increment(5);
        r.remove(gone);
        r.counter("jobs.done").increment(2);

        r.counter("jobs", "queue", "q1").increment();
        r.counter("jobs", "queue", "q1", "worker", "w1").increment(5);

        Meter.builder("custom", Meter.Type.OTHER, List.of(new Measurement(() -> 11, Statistic.COUNT),
                new Measurement(() -> 4.5, Statistic.VALUE))).register(r);
    }

    /** The example under a custom convention. */
    static void instrumentAcme(MeterRegistry r) {
        r.config().namingConvention(ACME);
        r.counter("orders.placed", "region", "eu").increment(2);
        Timer.builder("orders.latency").serviceLevelObjectives(Duration.ofMillis(100)).register(r)
                .record(50, TimeUnit.MILLISECONDS);
        Gauge.builder("orders.open", () -> 4).register(r);
    }
}
