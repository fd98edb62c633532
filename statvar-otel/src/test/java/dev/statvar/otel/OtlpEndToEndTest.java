package dev.statvar.otel;

import dev.statvar.Gauge;
import dev.statvar.HistogramPrecision;
import dev.statvar.Histogram;
import dev.statvar.Counter;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.BucketBoundaries;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end: the wiring of docs/OPENTELEMETRY.md exports over OTLP/HTTP protobuf (the JDK
 * HttpClient sender) to an in-process receiver that decodes the request as a Collector would.
 */
class OtlpEndToEndTest {
    private static final long[] LATENCIES = {250, 1_200, 1_200, 80_000, 3_000_000_000L};

    @Test
    void theReaderDrivesStatvar() throws Exception {
        StatRegistry registry = StatRegistry.create();
        StatFamily<Counter> requests = registry.counterFamily("http_requests_total", "requests served", "method");
        Histogram latency = registry.histogram("latency_ns", "time per request");
        Gauge queue = registry.gauge("queue_depth", "waiting tasks");
        requests.labels("GET").add(3);
        requests.labels("POST").add();
        for (long v : LATENCIES) {
            latency.record(v);
        }
        for (long v : new long[]{2, 4, 9}) {
            queue.report(v);
        }
        Snapshot registered = registry.registered();
        try (OtlpReceiver receiver = new OtlpReceiver();
             SdkMeterProvider provider = WiringExample.readerDrivesStatvar(registry, receiver.endpoint())) {
            long before = SnapshotConverter.epochNanos(Instant.now());
            flush(provider);
            long after = SnapshotConverter.epochNanos(Instant.now());
            ExportMetricsServiceRequest request = receiver.next();
            assertNotNull(request, "no export arrived");
            assertEquals("application/x-protobuf", receiver.nextContentType());
            Files.writeString(Path.of("target", "otlp-sample.txt"), request.toString()); // docs/OPENTELEMETRY.md's sample

            assertEquals(1, request.getResourceMetricsCount());
            ResourceMetrics rm = request.getResourceMetrics(0);
            assertEquals("checkout", attribute(rm.getResource().getAttributesList(), "service.name"));
            ScopeMetrics sm = statvarScope(request);
            assertEquals("dev.statvar", sm.getScope().getName());
            assertEquals(System.getProperty("statvar.version"), sm.getScope().getVersion());
            List<String> names = new ArrayList<>();
            sm.getMetricsList().forEach(m -> names.add(m.getName()));
            // in registration order: a family's series registers at its first labels() call
            assertEquals(List.of("latency_ns", "queue_depth", "queue_depth.count", "queue_depth.sum", "queue_depth.min",
                    "queue_depth.max", "http_requests_total"), names);

            Metric counter = named(sm, "http_requests_total");
            assertEquals("requests served", counter.getDescription());
            assertTrue(counter.hasSum() && counter.getSum().getIsMonotonic());
            assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE, counter.getSum().getAggregationTemporality());
            assertEquals(2, counter.getSum().getDataPointsCount());
            for (NumberDataPoint p : counter.getSum().getDataPointsList()) {
                String method = attribute(p.getAttributesList(), "method");
                assertEquals(method.equals("GET") ? 3 : 1, p.getAsInt(), method);
                long created = registered.created(registered.counterValue("http_requests_total",
                        dev.statvar.Labels.of("method", method))).toEpochMilli() * 1_000_000L;
                assertEquals(created, p.getStartTimeUnixNano());
                assertTrue(p.getTimeUnixNano() >= before && p.getTimeUnixNano() <= after, "epoch ns of the collect");
            }

            Metric histogram = named(sm, "latency_ns");
            assertTrue(histogram.hasHistogram());
            assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
                    histogram.getHistogram().getAggregationTemporality());
            HistogramDataPoint h = histogram.getHistogram().getDataPoints(0);
            assertEquals(0, h.getAttributesCount());
            assertEquals(expectedBounds(), h.getExplicitBoundsList());
            assertEquals(Points.expectedCounts(boxed(LATENCIES), h.getExplicitBoundsList()), h.getBucketCountsList());
            assertEquals(5, h.getCount());
            assertEquals(3_000_082_650.0, h.getSum());
            assertTrue(h.hasMin() && h.hasMax());
            assertEquals(250.0, h.getMin());
            assertEquals(3_000_000_000.0, h.getMax());
            assertEquals(registered.created(registered.histogram("latency_ns")).toEpochMilli() * 1_000_000L,
                    h.getStartTimeUnixNano());

            Metric mean = named(sm, "queue_depth");
            assertTrue(mean.hasGauge());
            assertEquals(5.0, mean.getGauge().getDataPoints(0).getAsDouble());
            long queueCreated = registered.created(registered.gauge("queue_depth")).toEpochMilli() * 1_000_000L;
            for (String gauge : List.of("queue_depth", "queue_depth.min", "queue_depth.max")) {
                NumberDataPoint p = named(sm, gauge).getGauge().getDataPoints(0);
                assertEquals(queueCreated, p.getStartTimeUnixNano(), gauge + ": a first point starts at registration");
                assertEquals(h.getTimeUnixNano(), p.getTimeUnixNano(), gauge);
            }
            assertEquals(3, named(sm, "queue_depth.count").getSum().getDataPoints(0).getAsInt());
            assertTrue(named(sm, "queue_depth.count").getSum().getIsMonotonic());
            assertEquals(15, named(sm, "queue_depth.sum").getSum().getDataPoints(0).getAsInt());
            assertFalse(named(sm, "queue_depth.sum").getSum().getIsMonotonic(), "reported values may be negative");
            assertEquals(2, named(sm, "queue_depth.min").getGauge().getDataPoints(0).getAsInt());
            assertEquals(9, named(sm, "queue_depth.max").getGauge().getDataPoints(0).getAsInt());

            // A manual collect between two exports takes an interval; the next export still holds every record.
            requests.labels("GET").add(10);
            latency.record(7);
            registry.collect();
            latency.record(8);
            flush(provider);
            sm = statvarScope(receiver.next());
            NumberDataPoint get = named(sm, "http_requests_total").getSum().getDataPointsList().stream()
                    .filter(p -> attribute(p.getAttributesList(), "method").equals("GET")).findFirst().orElseThrow();
            assertEquals(13, get.getAsInt());
            h = named(sm, "latency_ns").getHistogram().getDataPoints(0);
            assertEquals(7, h.getCount());
            assertEquals(7.0, h.getMin(), "cumulative: the all-time min");
            assertTrue(sm.getMetricsList().stream().noneMatch(m -> m.getName().equals("queue_depth")),
                    "no reports since the previous export: no mean point");
        }
    }

    @Test
    void aStatvarCollectorFeedsOpenTelemetry() throws Exception {
        StatRegistry registry = StatRegistry.create();
        Counter c = registry.counter("jobs_total");
        try (OtlpReceiver receiver = new OtlpReceiver()) {
            WiringExample.Started started = WiringExample.collectorFeedsOpenTelemetry(registry, receiver.endpoint());
            try (SdkMeterProvider provider = started.provider()) {
                c.add(41);
                registry.collect(); // a manual collect the producer never sees
                c.add();
                started.collector().close(); // delivers the last, partial interval to the producer
                flush(provider);
                ExportMetricsServiceRequest request = receiver.next();
                assertNotNull(request, "no export arrived");
                NumberDataPoint p = named(statvarScope(request), "jobs_total").getSum().getDataPoints(0);
                assertEquals(42, p.getAsInt());
            }
        }
    }

    private static void flush(SdkMeterProvider provider) {
        CompletableResultCode done = provider.forceFlush().join(10, TimeUnit.SECONDS);
        assertTrue(done.isSuccess(), "the export failed or timed out");
    }

    /** BucketBoundaries.defaults(), each moved up to the upper bound of its bucket at the default precision. */
    private static List<Double> expectedBounds() {
        List<Double> bounds = new ArrayList<>();
        HistogramPrecision p = HistogramPrecision.DEFAULT;
        for (long b : BucketBoundaries.defaults().requested()) {
            bounds.add((double) p.upperBound(p.bucketIndex(b)));
        }
        return bounds;
    }

    private static List<Long> boxed(long[] values) {
        return Points.boxed(values);
    }

    /**
     * statvar's scope. From the second export on, SDK 1.68 adds its own scope
     * "io.opentelemetry.sdk.metrics" (the reader's collection duration); no other scope may come.
     */
    private static ScopeMetrics statvarScope(ExportMetricsServiceRequest request) {
        assertEquals(1, request.getResourceMetricsCount());
        ScopeMetrics found = null;
        for (ScopeMetrics sm : request.getResourceMetrics(0).getScopeMetricsList()) {
            if (sm.getScope().getName().equals("dev.statvar")) {
                assertEquals(null, found, "one dev.statvar scope");
                found = sm;
            } else {
                assertEquals("io.opentelemetry.sdk.metrics", sm.getScope().getName());
            }
        }
        assertNotNull(found, "no dev.statvar scope");
        return found;
    }

    private static Metric named(ScopeMetrics sm, String name) {
        return sm.getMetricsList().stream().filter(m -> m.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric " + name + " in " + sm));
    }

    private static String attribute(List<KeyValue> attributes, String key) {
        return attributes.stream().filter(kv -> kv.getKey().equals(key)).map(kv -> kv.getValue().getStringValue())
                .findFirst().orElseThrow(() -> new AssertionError("no attribute " + key + " in " + attributes));
    }
}
