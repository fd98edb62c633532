package dev.statvar.otel;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.StatRegistry;
import dev.statvar.ExponentialBuckets;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.metrics.v1.ExponentialHistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentSelector;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.View;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code exponentialHistograms()}: statvar histograms as {@code ExponentialHistogramData}, checked against the
 * SDK's own base2 exponential aggregation of the same values, and through a decoded OTLP request.
 */
class ExponentialHistogramTest {
    static final HistogramPrecision P = HistogramPrecision.DEFAULT;

    /** Values that are middles of statvar buckets: statvar reports each exactly, so the SDK sees what statvar saw. */
    static long[] middles(int n, long from, long to, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            long x = (long) Math.exp(Math.log(from) + r.nextDouble() * (Math.log(to) - Math.log(from)));
            v[i] = P.middle(P.bucketIndex(x));
        }
        return v;
    }

    static ExponentialHistogramPointData sdk(long[] values, int maxBuckets, int maxScale) {
        InMemoryMetricReader reader = InMemoryMetricReader.create();
        try (SdkMeterProvider provider = SdkMeterProvider.builder()
                .registerView(InstrumentSelector.builder().setName("h").build(),
                        View.builder().setAggregation(Aggregation.base2ExponentialBucketHistogram(maxBuckets, maxScale)).build())
                .registerMetricReader(reader).build()) {
            DoubleHistogram h = provider.get("oracle").histogramBuilder("h").build();
            for (long v : values) {
                h.record(v);
            }
            MetricData m = reader.collectAllMetrics().iterator().next();
            return m.getExponentialHistogramData().getPoints().iterator().next();
        }
    }

    static ExponentialHistogramPointData statvar(long[] values, int maxBuckets, int maxScale, AggregationTemporality t) {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h");
        for (long v : values) {
            h.record(v);
        }
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(r).temporality(t)
                .exponentialHistograms(maxBuckets, maxScale).build();
        MetricData m = producer.produce(io.opentelemetry.sdk.resources.Resource.empty()).stream()
                .filter(d -> d.getName().equals("h")).findFirst().orElseThrow();
        assertEquals(MetricDataType.EXPONENTIAL_HISTOGRAM, m.getType());
        assertEquals(t, m.getExponentialHistogramData().getAggregationTemporality());
        return m.getExponentialHistogramData().getPoints().iterator().next();
    }

    static void assertSameBuckets(ExponentialHistogramPointData want, ExponentialHistogramPointData got) {
        assertEquals(want.getScale(), got.getScale(), "scale");
        assertEquals(want.getCount(), got.getCount(), "count");
        assertEquals(want.getSum(), got.getSum(), 1e-6 * want.getSum(), "sum");
        assertEquals(want.getMin(), got.getMin(), "min");
        assertEquals(want.getMax(), got.getMax(), "max");
        assertEquals(want.getZeroCount(), got.getZeroCount(), "zero count");
        assertEquals(want.getPositiveBuckets().getOffset(), got.getPositiveBuckets().getOffset(), "offset");
        assertEquals(want.getPositiveBuckets().getBucketCounts(), got.getPositiveBuckets().getBucketCounts(), "bucket counts");
    }

    @Test
    void theSameBucketsAsTheSdksOwnAggregation() {
        long[] values = middles(5_000, 1_000, 20_000, 7); // about 4.3 powers of two: 138 buckets at scale 5
        for (AggregationTemporality t : AggregationTemporality.values()) {
            assertSameBuckets(sdk(values, 160, 5), statvar(values, 160, 5, t));
        }
        assertEquals(5, statvar(values, 160, 20, AggregationTemporality.CUMULATIVE).getScale(),
                "the scale follows the precision (subBucketBits - 1) below maxScale");
    }

    @Test
    void rescaledAsTheSdkRescalesWhenTheRangeExceedsMaxBuckets() {
        long[] values = middles(5_000, 10, 10_000_000_000L, 11); // 30 powers of two
        for (int maxBuckets : new int[]{160, 40, 8}) {
            ExponentialHistogramPointData want = sdk(values, maxBuckets, 5);
            ExponentialHistogramPointData got = statvar(values, maxBuckets, 5, AggregationTemporality.CUMULATIVE);
            assertTrue(got.getPositiveBuckets().getBucketCounts().size() <= maxBuckets);
            assertSameBuckets(want, got);
        }
    }

    @Test
    void zerosGoToTheZeroBucket() {
        long[] values = {0, 0, 0, 5, 7};
        assertSameBuckets(sdk(values, 160, 5), statvar(values, 160, 5, AggregationTemporality.CUMULATIVE));
    }

    @Test
    void badOptionsFailNamingThem() {
        StatvarMetricProducer.Builder b = StatvarMetricProducer.fed();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.exponentialHistograms(1, 5)).getMessage().contains("maxBuckets"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.exponentialHistograms(160, 21)).getMessage().contains("maxScale"));
    }

    /** Through the OTLP/HTTP exporter: the decoded request carries the exponential histogram, its buckets as computed. */
    @Test
    void anOtlpRequestCarriesTheExponentialHistogram() throws Exception {
        StatRegistry registry = StatRegistry.create();
        Histogram latency = registry.histogram("latency_ns", "time per request");
        long[] values = middles(1_000, 10_000, 100_000, 3);
        for (long v : values) {
            latency.record(v);
        }
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).exponentialHistograms().build();
        try (OtlpReceiver receiver = new OtlpReceiver();
             SdkMeterProvider provider = SdkMeterProvider.builder()
                     .registerMetricReader(PeriodicMetricReader.builder(
                             OtlpHttpMetricExporter.builder().setEndpoint(receiver.endpoint()).build()).build())
                     .registerMetricProducer(producer).build()) {
            CompletableResultCode done = provider.forceFlush().join(10, TimeUnit.SECONDS);
            assertTrue(done.isSuccess(), "the export failed or timed out");
            ExportMetricsServiceRequest request = receiver.next();
            assertNotNull(request, "no export arrived");
            Metric metric = null;
            for (ScopeMetrics sm : request.getResourceMetrics(0).getScopeMetricsList()) {
                for (Metric m : sm.getMetricsList()) {
                    if (m.getName().equals("latency_ns")) {
                        metric = m;
                    }
                }
            }
            assertNotNull(metric, "latency_ns not exported");
            assertTrue(metric.hasExponentialHistogram(), metric.toString());
            ExponentialHistogramDataPoint p = metric.getExponentialHistogram().getDataPoints(0);
            // 3.3 powers of two: 106 buckets at scale 5, within the default 160
            ExponentialBuckets expected = ExponentialBuckets.of(producerTotals(registry), 0, 5, Integer.MAX_VALUE);
            assertEquals(values.length, p.getCount());
            assertEquals(expected.schema(), p.getScale());
            assertEquals(expected.firstIndex() - 1, p.getPositive().getOffset());
            long[] dense = expected.denseCounts();
            assertEquals(dense.length, p.getPositive().getBucketCountsCount());
            for (int i = 0; i < dense.length; i++) {
                assertEquals(dense[i], p.getPositive().getBucketCounts(i), "bucket " + i);
            }
        }
    }

    /** The cumulative histogram of latency_ns as the producer saw it (the registry was collected by it once). */
    private static dev.statvar.HistogramValue producerTotals(StatRegistry registry) {
        return registry.collect().histogram("latency_ns").totals();
    }
}
