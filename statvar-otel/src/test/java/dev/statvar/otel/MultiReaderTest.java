package dev.statvar.otel;

import dev.statvar.Gauge;
import dev.statvar.StatRegistry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.SdkMeterProviderBuilder;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.export.MetricExporter;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

import static dev.statvar.otel.Points.longPoint;
import static dev.statvar.otel.Points.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32, point 3: one producer, several readers collecting at different periods. Each reader,
 * wrapped with {@link StatvarMetricProducer#forReader}, sees every interval's gauge values since its
 * own previous collection (mean, min, max, and count and sum: cumulative totals or its own deltas),
 * whatever the other readers collected in between.
 */
@Timeout(60)
class MultiReaderTest {
    private static final int TICKS = 60;

    /** How the test registers a reader; the one place that says "wrap it". */
    private static MetricReader wrap(StatvarMetricProducer producer, MetricReader reader) {
        return producer.forReader(reader);
    }

    private static StatvarMetricProducer producer(boolean fed, StatRegistry registry, AggregationTemporality t) {
        return (fed ? StatvarMetricProducer.fed() : StatvarMetricProducer.collecting(registry)).temporality(t).build();
    }

    /**
     * Reports one value per tick into a gauge (fed: hands the tick's interval to the producer); reader i
     * collects every periods[i] ticks and must see exactly the values reported since its previous collection.
     * Returns the number of collections checked.
     */
    private static int run(boolean fed, AggregationTemporality temporality, int... periods) {
        StatRegistry registry = StatRegistry.create();
        Gauge g = registry.gauge("g");
        StatvarMetricProducer producer = producer(fed, registry, temporality);
        InMemoryMetricReader[] readers = new InMemoryMetricReader[periods.length];
        SdkMeterProviderBuilder builder = SdkMeterProvider.builder().registerMetricProducer(producer);
        List<List<Long>> windows = new ArrayList<>();
        for (int i = 0; i < periods.length; i++) {
            readers[i] = InMemoryMetricReader.create();
            builder.registerMetricReader(wrap(producer, readers[i]));
            windows.add(new ArrayList<>());
        }
        long totalCount = 0;
        long totalSum = 0;
        int checked = 0;
        try (SdkMeterProvider ignored = builder.build()) {
            for (int tick = 1; tick <= TICKS; tick++) {
                long v = tick * 37L % 101 - 20; // varied, some negative
                g.report(v);
                totalCount++;
                totalSum += v;
                for (List<Long> w : windows) {
                    w.add(v);
                }
                if (fed) {
                    producer.accept(registry.collect());
                }
                for (int i = 0; i < periods.length; i++) {
                    if (tick % periods[i] != 0) {
                        continue;
                    }
                    String where = (fed ? "fed" : "collecting") + " " + temporality + " periods "
                            + Arrays.toString(periods) + ", reader " + i + " at tick " + tick;
                    check(readers[i].collectAllMetrics(), windows.get(i), totalCount, totalSum, temporality, where);
                    windows.get(i).clear();
                    checked++;
                }
            }
        }
        return checked;
    }

    /** The gauge's points equal the window's values: mean, min, max; count and sum (cumulative: the totals). */
    private static void check(Collection<MetricData> metrics, List<Long> window, long totalCount, long totalSum,
                              AggregationTemporality temporality, String where) {
        long sum = window.stream().mapToLong(Long::longValue).sum();
        double mean = metric(metrics, "g", MetricDataType.DOUBLE_GAUGE).getDoubleGaugeData().getPoints()
                .iterator().next().getValue();
        long min = longPoint(metric(metrics, "g.min", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue();
        long max = longPoint(metric(metrics, "g.max", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue();
        long count = longPoint(metric(metrics, "g.count", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
        long sumPoint = longPoint(metric(metrics, "g.sum", MetricDataType.LONG_SUM), Attributes.empty()).getValue();
        boolean cumulative = temporality == AggregationTemporality.CUMULATIVE;
        assertEquals((double) sum / window.size(), mean, 1e-9, where + ": mean of " + window);
        assertEquals(window.stream().mapToLong(Long::longValue).min().orElseThrow(), min, where + ": min of " + window);
        assertEquals(window.stream().mapToLong(Long::longValue).max().orElseThrow(), max, where + ": max of " + window);
        assertEquals(cumulative ? totalCount : window.size(), count, where + ": count");
        assertEquals(cumulative ? totalSum : sum, sumPoint, where + ": sum");
    }

    @Test
    void twoReadersAtDifferentPeriodsEachSeeEveryIntervalsGaugeValues() {
        int checked = 0;
        for (boolean fed : new boolean[]{false, true}) {
            for (AggregationTemporality t : AggregationTemporality.values()) {
                checked += run(fed, t, 1, 3);
                checked += run(fed, t, 2, 5);
            }
        }
        System.out.println("two readers: " + checked + " collections checked, each window exact");
        assertEquals(4 * (60 + 20 + 30 + 12), checked);
    }

    @Test
    void threeReadersAtDifferentPeriodsEachSeeEveryIntervalsGaugeValues() {
        int checked = 0;
        for (boolean fed : new boolean[]{false, true}) {
            for (AggregationTemporality t : AggregationTemporality.values()) {
                checked += run(fed, t, 1, 2, 7);
                checked += run(fed, t, 3, 4, 5);
            }
        }
        System.out.println("three readers: " + checked + " collections checked, each window exact");
        assertEquals(4 * (60 + 30 + 8 + 20 + 15 + 12), checked);
    }

    /** A collecting producer of one gauge {@code g}, and a provider with two in-memory readers: a wrapped, b as asked. */
    private static final class TwoReaders implements AutoCloseable {
        final StatRegistry registry = StatRegistry.create();
        final Gauge g = registry.gauge("g");
        final StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).build();
        final InMemoryMetricReader a = InMemoryMetricReader.create();
        final InMemoryMetricReader b = InMemoryMetricReader.create();
        final MetricReader registeredB;
        final SdkMeterProvider provider;

        TwoReaders(boolean wrapB) {
            registeredB = wrapB ? wrap(producer, b) : b;
            provider = SdkMeterProvider.builder().registerMetricProducer(producer)
                    .registerMetricReader(wrap(producer, a)).registerMetricReader(registeredB).build();
        }

        @Override
        public void close() {
            provider.close();
        }
    }

    /** The case: reader B's collection must not take the window (100) from reader A's gauge. */
    @Test
    void theReportBetweenTwoOfReaderAsCollectionsStaysInAsWindow() {
        try (TwoReaders r = new TwoReaders(true)) {
            r.g.report(5);
            r.a.collectAllMetrics();
            r.b.collectAllMetrics();
            r.g.report(100);
            r.b.collectAllMetrics(); // b's window: 100
            r.g.report(5);
            Collection<MetricData> seenByA = r.a.collectAllMetrics(); // a's window: 100, 5
            double mean = metric(seenByA, "g", MetricDataType.DOUBLE_GAUGE).getDoubleGaugeData().getPoints()
                    .iterator().next().getValue();
            long max = longPoint(metric(seenByA, "g.max", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue();
            System.out.println("reader A after B collected 100: mean " + mean + ", max " + max);
            assertEquals(52.5, mean, "A's mean covers 100 and 5");
            assertEquals(100, max, "A's max covers the 100 B collected");
        }
    }

    @Test
    void anUnwrappedReaderBesideWrappedOnesFailsItsCollection() {
        try (TwoReaders r = new TwoReaders(false)) {
            r.a.collectAllMetrics();
            IllegalStateException e = assertThrows(IllegalStateException.class, r.b::collectAllMetrics);
            assertTrue(e.getMessage().contains("forReader"), e.getMessage());
        }
    }

    /** produce() called directly before any reader was wrapped keeps no snapshots once readers are wrapped. */
    @Test
    void directCallsBeforeWrappingHoldNothingAfterIt() {
        StatRegistry registry = StatRegistry.create();
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).build();
        producer.produce(Points.RESOURCE); // the default cursor
        InMemoryMetricReader a = InMemoryMetricReader.create();
        try (SdkMeterProvider ignored = SdkMeterProvider.builder().registerMetricProducer(producer)
                .registerMetricReader(producer.forReader(a)).build()) {
            for (int i = 0; i < 3; i++) {
                a.collectAllMetrics();
                assertEquals(0, producer.kept(), "nothing kept for the direct calls");
            }
            assertThrows(IllegalStateException.class, () -> producer.produce(Points.RESOURCE));
        }
    }

    @Test
    void aReaderCanBeWrappedOnceAndNotNull() {
        StatvarMetricProducer producer = StatvarMetricProducer.fed().build();
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        producer.forReader(reader);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> producer.forReader(reader));
        assertTrue(e.getMessage().contains("already wrapped"), e.getMessage());
        assertThrows(NullPointerException.class, () -> producer.forReader(null));
    }

    /** Reader b stops collecting while a goes on: b holds at most MAX_PENDING snapshots, and none once shut down. */
    @Test
    void snapshotsKeptForASlowReaderAreBoundedAndReleasedAtItsShutdown() {
        try (TwoReaders r = new TwoReaders(true)) {
            for (int i = 0; i < 3 * StatvarMetricProducer.MAX_PENDING; i++) {
                r.g.report(i);
                r.a.collectAllMetrics();
            }
            assertEquals(StatvarMetricProducer.MAX_PENDING, r.producer.kept(), "bounded by MAX_PENDING");
            r.g.report(1_000);
            Collection<MetricData> late = r.b.collectAllMetrics();
            assertEquals(1, r.producer.kept(), "only the interval the idle reader closed, which the fast one has not taken");
            assertEquals(3 * StatvarMetricProducer.MAX_PENDING + 1, longPoint(metric(late, "g.count",
                    MetricDataType.LONG_SUM), Attributes.empty()).getValue(), "counts from the totals: exact");
            assertTrue(late.stream().noneMatch(m -> m.getName().equals("g.max")),
                    "the dropped snapshots held part of the idle reader's window: no max");
            assertTrue(r.registeredB.shutdown().isSuccess());
            for (int i = 0; i < 10; i++) {
                r.g.report(i);
                r.a.collectAllMetrics();
                assertEquals(0, r.producer.kept(), "nothing kept for a reader shut down");
            }
        }
    }

    /** An exporter that keeps everything exported, also after shutdown (the SDK's in-memory one clears it then). */
    private static final class Recording implements MetricExporter {
        final List<MetricData> items = new CopyOnWriteArrayList<>();

        @Override
        public CompletableResultCode export(Collection<MetricData> metrics) {
            items.addAll(metrics);
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
            return AggregationTemporality.CUMULATIVE;
        }
    }

    /**
     * Two PeriodicMetricReaders (50 ms and 130 ms, their own threads, and a last collection at shutdown),
     * delta: each exporter's {@code g.count} points add up to every report, and the largest
     * {@code g.max} it got is the largest report, made last.
     */
    @Test
    void periodicReadersOnTheirOwnThreadsEachGetEveryReport() {
        StatRegistry registry = StatRegistry.create();
        Gauge g = registry.gauge("g");
        StatvarMetricProducer producer = producer(false, registry, AggregationTemporality.DELTA);
        Recording[] exporters = {new Recording(), new Recording()};
        long[] periodsMs = {50, 130};
        SdkMeterProviderBuilder builder = SdkMeterProvider.builder().registerMetricProducer(producer);
        for (int i = 0; i < exporters.length; i++) {
            builder.registerMetricReader(wrap(producer, PeriodicMetricReader.builder(exporters[i])
                    .setInterval(Duration.ofMillis(periodsMs[i])).build()));
        }
        long reports = 0;
        try (SdkMeterProvider ignored = builder.build()) {
            while (exporters[1].items.stream().noneMatch(m -> m.getName().equals("g.count"))
                    || reports < 2_000) {
                g.report(reports % 1_000);
                reports++;
                LockSupport.parkNanos(50_000);
            }
            g.report(1_000_000); // the largest, in each reader's last window (no report races that one)
            reports++;
        } // shutdown: each reader's last collection
        for (Recording e : exporters) {
            List<MetricData> items = e.items;
            long counted = items.stream().filter(m -> m.getName().equals("g.count"))
                    .mapToLong(m -> longPoint(m, Attributes.empty()).getValue()).sum();
            long max = items.stream().filter(m -> m.getName().equals("g.max"))
                    .mapToLong(m -> longPoint(m, Attributes.empty()).getValue()).max().orElseThrow();
            long exports = items.stream().filter(m -> m.getName().equals("g.count")).count();
            System.out.println("periodic reader: " + exports + " exports, " + counted + " of " + reports + " reports");
            assertEquals(reports, counted, "every report in one delta");
            assertEquals(1_000_000, max, "the largest report");
        }
    }
}
