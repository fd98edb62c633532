package dev.statvar.otel;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static dev.statvar.otel.Points.histogramPoint;
import static dev.statvar.otel.Points.longPoint;
import static dev.statvar.otel.Points.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the SDK's InMemoryMetricReader sees of a registry: exactly the recorded totals, cumulative and delta. */
class StatvarMetricProducerTest {
    private static final int THREADS = 4;
    private static final int PER_THREAD = 20_000;

    /** Counters from several threads, a labelled family, a gauge and a histogram in ns: cumulative points hold every update. */
    @Test
    void cumulativePointsHoldEveryUpdate() throws Exception {
        StatRegistry registry = StatRegistry.create();
        Counter requests = registry.counter("requests_total", "requests served");
        StatFamily<Counter> byMethod = registry.counterFamily("http_requests_total", "by method", "method");
        Histogram latency = registry.histogram("latency_ns", "time per request");
        Gauge queue = registry.gauge("queue_depth", "waiting tasks");
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).build();
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader)
                .registerMetricProducer(producer).build()) {
            List<Long> recorded = Workload.run(THREADS, PER_THREAD, (t, i) -> {
                requests.add();
                byMethod.labels(t % 2 == 0 ? "GET" : "PUT").add(2);
                long ns = 100 + (long) i * 37 % 3_000_000;
                latency.record(ns);
                return ns;
            });
            for (long v : new long[]{3, 5, 10}) {
                queue.report(v);
            }
            Collection<MetricData> metrics = reader.collectAllMetrics();

            MetricData req = metric(metrics, "requests_total", MetricDataType.LONG_SUM);
            assertTrue(req.getLongSumData().isMonotonic());
            assertEquals(AggregationTemporality.CUMULATIVE, req.getLongSumData().getAggregationTemporality());
            assertEquals("requests served", req.getDescription());
            assertEquals((long) THREADS * PER_THREAD, longPoint(req, Attributes.empty()).getValue());

            MetricData fam = metric(metrics, "http_requests_total", MetricDataType.LONG_SUM);
            assertEquals(2, fam.getLongSumData().getPoints().size());
            long half = (long) THREADS / 2 * PER_THREAD * 2;
            assertEquals(half, longPoint(fam, Attributes.of(AttributeKey.stringKey("method"), "GET")).getValue());
            assertEquals(half, longPoint(fam, Attributes.of(AttributeKey.stringKey("method"), "PUT")).getValue());

            MetricData lat = metric(metrics, "latency_ns", MetricDataType.HISTOGRAM);
            HistogramPointData h = histogramPoint(lat, Attributes.empty());
            assertEquals(recorded.size(), h.getCount());
            assertEquals(recorded.stream().mapToLong(Long::longValue).sum(), (long) h.getSum());
            assertEquals(Points.expectedCounts(recorded, h.getBoundaries()), h.getCounts());
            assertTrue(h.hasMin() && h.hasMax());
            assertEquals(recorded.stream().mapToLong(Long::longValue).min().orElseThrow(), (long) h.getMin());
            assertEquals(recorded.stream().mapToLong(Long::longValue).max().orElseThrow(), (long) h.getMax());

            assertEquals(6.0, metric(metrics, "queue_depth", MetricDataType.DOUBLE_GAUGE).getDoubleGaugeData()
                    .getPoints().iterator().next().getValue());
            assertEquals(3, longPoint(metric(metrics, "queue_depth.count", MetricDataType.LONG_SUM), Attributes.empty()).getValue());
            assertEquals(18, longPoint(metric(metrics, "queue_depth.sum", MetricDataType.LONG_SUM), Attributes.empty()).getValue());
            assertEquals(3, longPoint(metric(metrics, "queue_depth.min", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue());
            assertEquals(10, longPoint(metric(metrics, "queue_depth.max", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue());
            for (MetricData m : metrics) {
                assertEquals(StatvarMetricProducer.SCOPE_NAME, m.getInstrumentationScopeInfo().getName());
                assertEquals(System.getProperty("statvar.version"), m.getInstrumentationScopeInfo().getVersion());
            }
        }
    }

    /**
     * Delta points over several produce() calls, with a StatCollector and manual collect() calls
     * closing intervals in between, still add up to everything recorded; cumulative ones equal it.
     */
    @Test
    void deltasAddUpWhileOthersCollect() throws Exception {
        for (AggregationTemporality temporality : AggregationTemporality.values()) {
            StatRegistry registry = StatRegistry.create();
            Counter ops = registry.counter("ops_total");
            Histogram latency = registry.histogram("latency_ns");
            Gauge size = registry.gauge("batch_size");
            StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).temporality(temporality).build();
            InMemoryMetricReader reader = InMemoryMetricReader.create();
            AtomicLong deliveries = new AtomicLong();
            try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader)
                    .registerMetricProducer(producer).build();
                 StatCollector collector = registry.startCollector(Duration.ofMillis(2),
                         s -> deliveries.incrementAndGet())) {
                long[] sum = new long[4]; // ops, histogram count, histogram sum, gauge count
                long[] bucketSums = null;
                List<Long> recorded = new ArrayList<>();
                for (int round = 0; round < 6; round++) {
                    int r = round;
                    recorded.addAll(Workload.run(THREADS, 5_000, (t, i) -> {
                        ops.add();
                        long v = 1 + (long) (i * 31 + t * 7 + r) % 50_000;
                        latency.record(v);
                        size.report(v % 100);
                        return v;
                    }));
                    Points.awaitMore(deliveries, deliveries.get()); // the collector closes an interval of its own
                    registry.collect(); // and a manual collect: both take records of this window
                    Collection<MetricData> metrics = reader.collectAllMetrics();
                    long ops0 = longPoint(metric(metrics, "ops_total", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
                    HistogramPointData h = histogramPoint(metric(metrics, "latency_ns", MetricDataType.HISTOGRAM), Attributes.empty());
                    long gc = longPoint(metric(metrics, "batch_size.count", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
                    if (temporality == AggregationTemporality.DELTA) {
                        sum[0] += ops0;
                        sum[1] += h.getCount();
                        sum[2] += (long) h.getSum();
                        sum[3] += gc;
                        bucketSums = Points.add(bucketSums, h.getCounts());
                        assertFalse(h.hasMin(), "the manual collect took this window's records: min/max would be of part of it");
                    } else {
                        sum = new long[]{ops0, h.getCount(), (long) h.getSum(), gc};
                        bucketSums = Points.add(null, h.getCounts());
                        assertTrue(h.hasMin(), "cumulative: the engine's all-time min/max");
                    }
                    assertEquals(temporality, metric(metrics, "latency_ns", MetricDataType.HISTOGRAM)
                            .getHistogramData().getAggregationTemporality());
                }
                long n = recorded.size();
                assertEquals(n, sum[0], temporality + ": ops");
                assertEquals(n, sum[1], temporality + ": histogram count");
                assertEquals(recorded.stream().mapToLong(Long::longValue).sum(), sum[2], temporality + ": histogram sum");
                assertEquals(n, sum[3], temporality + ": gauge count");
                assertEquals(Points.expectedCounts(recorded, producer.bounds(latency.precision())), Points.boxed(bucketSums),
                        temporality + ": bucket counts");
                assertTrue(deliveries.get() >= 6, "the collector closed intervals in every round");
            }
        }
    }

    /** min/max (histogram and gauge) are set on a delta point exactly when its interval is the whole window. */
    @Test
    void minMaxOnlyWhenTheIntervalIsTheWindow() {
        StatRegistry registry = StatRegistry.create();
        Histogram h = registry.histogram("h");
        Gauge g = registry.gauge("g");
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry)
                .temporality(AggregationTemporality.DELTA).build();
        h.record(40);
        g.report(7);
        g.report(9);
        Collection<MetricData> first = producer.produce(Points.RESOURCE);
        HistogramPointData p = histogramPoint(metric(first, "h", MetricDataType.HISTOGRAM), Attributes.empty());
        assertTrue(p.hasMin() && p.hasMax());
        assertEquals(40.0, p.getMin());
        assertEquals(40.0, p.getMax());
        assertEquals(7, longPoint(metric(first, "g.min", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue());
        assertEquals(9, longPoint(metric(first, "g.max", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue());

        h.record(1000);
        g.report(100);
        registry.collect(); // someone else closes the interval holding them
        h.record(5);
        g.report(1);
        Collection<MetricData> second = producer.produce(Points.RESOURCE);
        p = histogramPoint(metric(second, "h", MetricDataType.HISTOGRAM), Attributes.empty());
        assertEquals(2, p.getCount(), "the delta still holds both records");
        assertEquals(1005.0, p.getSum());
        assertFalse(p.hasMin() || p.hasMax(), "the interval holds only the record of 5");
        assertEquals(50.5, metric(second, "g", MetricDataType.DOUBLE_GAUGE).getDoubleGaugeData().getPoints()
                .iterator().next().getValue(), "the mean is of the whole window, from the totals");
        long firstEnd = histogramPoint(metric(first, "h", MetricDataType.HISTOGRAM), Attributes.empty()).getEpochNanos();
        assertEquals(firstEnd, metric(second, "g", MetricDataType.DOUBLE_GAUGE).getDoubleGaugeData().getPoints()
                .iterator().next().getStartEpochNanos(), "a gauge point starts where the previous produce ended");
        assertEquals(firstEnd, p.getStartEpochNanos(), "so does a delta point");
        assertTrue(second.stream().noneMatch(m -> m.getName().equals("g.min") || m.getName().equals("g.max")));

        Collection<MetricData> third = producer.produce(Points.RESOURCE); // nothing since
        p = histogramPoint(metric(third, "h", MetricDataType.HISTOGRAM), Attributes.empty());
        assertEquals(0, p.getCount());
        assertFalse(p.hasMin());
        assertTrue(third.stream().noneMatch(m -> m.getName().equals("g")), "no reports: no mean point");
        assertEquals(0, longPoint(metric(third, "g.count", MetricDataType.LONG_SUM), Attributes.empty()).getValue());
    }

    /** Timestamps: cumulative start = registration, delta start = the previous produce's end, end = snapshot end. */
    @Test
    void timestampsAreEpochNanos() {
        StatRegistry registry = StatRegistry.create();
        Counter c = registry.counter("c_total");
        StatvarMetricProducer cumulative = StatvarMetricProducer.fed().build();
        StatvarMetricProducer delta = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        c.add();
        Snapshot s1 = registry.collect();
        cumulative.accept(s1);
        delta.accept(s1);
        LongPointData p = longPoint(metric(cumulative.produce(Points.RESOURCE), "c_total", MetricDataType.LONG_SUM), Attributes.empty());
        long created = s1.created(s1.counterValue("c_total")).toEpochMilli() * 1_000_000L;
        assertEquals(created, p.getStartEpochNanos());
        assertEquals(SnapshotConverter.epochNanos(s1.end()), p.getEpochNanos());
        assertEquals(created, longPoint(metric(delta.produce(Points.RESOURCE), "c_total", MetricDataType.LONG_SUM),
                Attributes.empty()).getStartEpochNanos(), "a new series' first delta starts at its registration");
        c.add(5);
        Snapshot s2 = registry.collect();
        cumulative.accept(s2);
        delta.accept(s2);
        p = longPoint(metric(delta.produce(Points.RESOURCE), "c_total", MetricDataType.LONG_SUM), Attributes.empty());
        assertEquals(SnapshotConverter.epochNanos(s1.end()), p.getStartEpochNanos());
        assertEquals(SnapshotConverter.epochNanos(s2.end()), p.getEpochNanos());
        assertEquals(5, p.getValue());
        p = longPoint(metric(cumulative.produce(Points.RESOURCE), "c_total", MetricDataType.LONG_SUM), Attributes.empty());
        assertEquals(created, p.getStartEpochNanos());
        assertEquals(6, p.getValue());
        long now = SnapshotConverter.epochNanos(java.time.Instant.now());
        assertTrue(p.getEpochNanos() <= now && p.getEpochNanos() > now - 60_000_000_000L, "epoch, not nanoTime");
    }

    /** The histogram bounds and cumulative counts are those statvar-export's Prometheus exposition shows. */
    @Test
    void bucketsMatchThePrometheusExposition() {
        StatRegistry registry = StatRegistry.create();
        Histogram h = registry.histogram("latency_ns");
        for (long v = 0; v < 200_000; v += 7) {
            h.record(v * v % 9_000_000_000L);
        }
        Snapshot s = registry.collect();
        dev.statvar.export.StatExporter exporter = new dev.statvar.export.StatExporter(ExportOptions.defaults());
        exporter.accept(s);
        StatvarMetricProducer producer = StatvarMetricProducer.fed().build();
        producer.accept(s);
        HistogramPointData p = histogramPoint(metric(producer.produce(Points.RESOURCE), "latency_ns",
                MetricDataType.HISTOGRAM), Attributes.empty());
        List<String> lines = exporter.prometheusText().lines().filter(l -> l.startsWith("latency_ns_bucket")).toList();
        assertEquals(p.getBoundaries().size() + 1, lines.size(), lines::toString);
        long cumulative = 0;
        for (int i = 0; i < p.getBoundaries().size(); i++) {
            cumulative += p.getCounts().get(i);
            assertEquals("latency_ns_bucket{le=\"" + p.getBoundaries().get(i) + "\"} " + cumulative, lines.get(i));
        }
        assertEquals(dev.statvar.BucketBoundaries.defaults().requested().length, p.getBoundaries().size(), "no two defaults share a bucket");
        assertEquals(1007.0, p.getBoundaries().get(9), "1000 moves up to its bucket's upper bound");
    }

    /** docs/OPENTELEMETRY.md's limit: the SDK calls a provider's producer per reader, so two readers split a delta producer's deltas. */
    @Test
    void twoReadersSplitTheDeltasAndShareTheTotals() {
        for (AggregationTemporality temporality : AggregationTemporality.values()) {
            StatRegistry registry = StatRegistry.create();
            Counter c = registry.counter("c_total");
            InMemoryMetricReader a = InMemoryMetricReader.create();
            InMemoryMetricReader b = InMemoryMetricReader.create();
            try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(a).registerMetricReader(b)
                    .registerMetricProducer(StatvarMetricProducer.collecting(registry).temporality(temporality).build())
                    .build()) {
                c.add(10);
                long seenByA = longPoint(metric(a.collectAllMetrics(), "c_total", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
                c.add(5);
                long seenByB = longPoint(metric(b.collectAllMetrics(), "c_total", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
                if (temporality == AggregationTemporality.DELTA) {
                    assertEquals(10, seenByA);
                    assertEquals(5, seenByB, "b never sees a's 10");
                } else {
                    assertEquals(10, seenByA);
                    assertEquals(15, seenByB);
                }
            }
        }
    }
}
