package dev.statvar.otel;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.export.StatExporter;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static dev.statvar.otel.Points.histogramPoint;
import static dev.statvar.otel.Points.longPoint;
import static dev.statvar.otel.Points.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The environments users run: threads dying between exports, virtual threads, a collector feeding an exporter and the producer. */
class EnvironmentsTest {
    /** 1,000 platform threads, 200 per round, die between delta exports of a fed producer: the deltas add up. */
    @Test
    void threadsDyingBetweenExports() throws Exception {
        StatRegistry registry = StatRegistry.create();
        Counter c = registry.counter("jobs_total");
        Histogram h = registry.histogram("job_ns");
        Gauge g = registry.gauge("job_size");
        StatvarMetricProducer producer = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        InMemoryMetricReader reader = InMemoryMetricReader.createDelta();
        AtomicLong deliveries = new AtomicLong();
        long[] sums = new long[3]; // counter, histogram count, gauge sum
        try (SdkMeterProvider provider = SdkMeterProvider.builder().registerMetricReader(reader)
                .registerMetricProducer(producer).build()) {
            StatCollector collector = registry.startCollector(Duration.ofMillis(5), producer.andThen(s -> deliveries.incrementAndGet()));
            for (int round = 0; round < 5; round++) {
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 200; t++) {
                    int v = t;
                    Thread th = new Thread(() -> {
                        c.add(3);
                        h.record(1_000 + v);
                        g.report(v);
                    });
                    threads.add(th);
                    th.start();
                }
                for (Thread th : threads) {
                    th.join();
                }
                Points.awaitMore(deliveries, deliveries.get());
                addDelta(reader.collectAllMetrics(), sums);
            }
            collector.close(); // delivers the last interval
            addDelta(reader.collectAllMetrics(), sums);
        }
        assertEquals(5 * 200 * 3, sums[0]);
        assertEquals(5 * 200, sums[1]);
        assertEquals(5L * (199 * 200 / 2), sums[2]);
    }

    /** Adds one delta export to {@code sums}; an empty one (no snapshot arrived since the previous export) adds nothing. */
    private static void addDelta(Collection<MetricData> m, long[] sums) {
        if (!m.isEmpty()) {
            sums[0] += longPoint(metric(m, "jobs_total", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
            sums[1] += histogramPoint(metric(m, "job_ns", MetricDataType.HISTOGRAM), Attributes.empty()).getCount();
            sums[2] += longPoint(metric(m, "job_size.sum", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
        }
    }

    /** 1,000 virtual threads (JDK 21+) update while a collecting producer exports deltas: exact. */
    @Test
    void virtualThreads() throws Exception {
        ExecutorService virtual;
        try {
            virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (NoSuchMethodException e) {
            Assumptions.abort("virtual threads need JDK 21+");
            return;
        }
        StatRegistry registry = StatRegistry.create();
        Counter c = registry.counter("tasks_total");
        Histogram h = registry.histogram("task_ns");
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry)
                .temporality(AggregationTemporality.DELTA).build();
        long counted = 0;
        long[] buckets = null;
        List<Long> recorded = new ArrayList<>();
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < 1_000; t++) {
                int task = t;
                done.add(virtual.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        c.add();
                        h.record(task * 100L + i);
                    }
                }));
                for (int i = 0; i < 100; i++) {
                    recorded.add(task * 100L + i);
                }
                if (t % 100 == 0) { // export while they run
                    Collection<MetricData> m = producer.produce(Points.RESOURCE);
                    counted += longPoint(metric(m, "tasks_total", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
                    buckets = Points.add(buckets, histogramPoint(metric(m, "task_ns", MetricDataType.HISTOGRAM),
                            Attributes.empty()).getCounts());
                }
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            virtual.shutdown();
        }
        Collection<MetricData> m = producer.produce(Points.RESOURCE);
        counted += longPoint(metric(m, "tasks_total", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
        HistogramPointData last = histogramPoint(metric(m, "task_ns", MetricDataType.HISTOGRAM), Attributes.empty());
        buckets = Points.add(buckets, last.getCounts());
        assertEquals(100_000, counted);
        assertEquals(Points.expectedCounts(recorded, last.getBoundaries()), Points.boxed(buckets));
    }

    /** One collector feeds statvar-export and the producer ({@code exporter.andThen(producer)}); both show the same totals. */
    @Test
    void aCollectorFeedsTheExporterAndTheProducer() throws Exception {
        StatRegistry registry = StatRegistry.create();
        Counter c = registry.counter("orders_total");
        StatExporter exporter = StatExporter.of(registry);
        StatvarMetricProducer producer = StatvarMetricProducer.fed().build();
        AtomicLong deliveries = new AtomicLong();
        try (StatCollector collector = registry.startCollector(Duration.ofMillis(5),
                exporter.andThen(producer).andThen(s -> deliveries.incrementAndGet()))) {
            c.add(17);
            registry.collect(); // a manual collect beside them
            c.add(25);
            Points.awaitMore(deliveries, deliveries.get());
            collector.close();
        }
        long otel = longPoint(metric(producer.produce(Points.RESOURCE), "orders_total", MetricDataType.LONG_SUM),
                Attributes.empty()).getValue();
        assertEquals(42, otel);
        assertTrue(exporter.prometheusText().contains("orders_total 42"), exporter::prometheusText);
    }
}
