package dev.statvar.prometheus;

import dev.statvar.ExponentialBuckets;
import dev.statvar.export.ProtobufExposition;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.StatExporter;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The protobuf exposition, decoded with client_java's generated MetricFamily classes. */
@Timeout(120)
class ProtobufExpositionTest {
    private static final ProtobufExposition EXPOSITION = new ClientJavaProtobufExposition();

    private static byte[] write(List<? extends StatValue> values, ExportOptions options) {
        return write(values, options, null, null);
    }

    private static byte[] write(List<? extends StatValue> values, ExportOptions options,
                                java.util.function.Function<? super StatValue, Instant> created, List<String> problems) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            EXPOSITION.write(out, values, options, created, problems);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Test
    void serviceLoaderFindsTheProvider() {
        List<ProtobufExposition> found = new ArrayList<>();
        ServiceLoader.load(ProtobufExposition.class).forEach(found::add);
        assertEquals(1, found.size());
        assertTrue(found.get(0) instanceof ClientJavaProtobufExposition);
        assertEquals("application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited",
                found.get(0).contentType());
    }

    @Test
    void anEmptyRegistryIsAnEmptyBody() {
        StatRegistry r = StatRegistry.create();
        assertEquals(0, write(r.collect().values(), ExportOptions.defaults()).length);
        assertEquals(0, write(r.registered().values(), ExportOptions.defaults()).length);
    }

    @Test
    void aHistogramWithoutObservationsCarriesTheNoOpSpanAndItsClassicBuckets() {
        StatRegistry r = StatRegistry.create();
        r.histogram("idle_nanoseconds", "never recorded");
        Metrics.MetricFamily f = Decoded.families(write(r.registered().values(), ExportOptions.defaults())).get("idle_seconds");
        assertEquals(Metrics.MetricType.HISTOGRAM, f.getType());
        Metrics.Histogram h = f.getMetric(0).getHistogram();
        assertEquals(1, h.getPositiveSpanCount());
        assertEquals(0, h.getPositiveSpan(0).getOffset());
        assertEquals(0, h.getPositiveSpan(0).getLength());
        assertEquals(0, h.getPositiveDeltaCount());
        assertEquals(0, h.getNegativeSpanCount());
        assertEquals(5, h.getSchema());
        assertEquals(0x1p-128, h.getZeroThreshold());
        assertEquals(0, h.getSampleCount());
        assertEquals(ExportOptions.defaults().boundariesAt(HistogramPrecision.DEFAULT).length + 1, h.getBucketCount());
        assertEquals(Double.POSITIVE_INFINITY, h.getBucket(h.getBucketCount() - 1).getUpperBound());
    }

    @Test
    void zerosGoToTheZeroBucketAndNegativeValuesAreRefusedAtRecord() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("waits");
        h.record(0);
        h.record(0);
        h.record(3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.record(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        Metrics.Histogram d = Decoded.families(write(r.collect().values(), ExportOptions.defaults())).get("waits")
                .getMetric(0).getHistogram();
        assertEquals(2, d.getZeroCount());
        assertEquals(3, d.getSampleCount());
        assertEquals(0, d.getNegativeSpanCount());
        assertEquals(Map.of(ExponentialBuckets.index(3, 5), 1L), Decoded.positiveBuckets(d));
    }

    @Test
    void spansAndDeltasDecodeToTheConvertedCounts() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("latency_nanoseconds");
        for (long v : new long[]{1_000, 1_001, 1_500, 20_000, 20_000, 9_000_000, 2_000_000_000L}) {
            h.record(v);
        }
        var value = r.collect().histogram("latency_nanoseconds");
        NativeMapping.Result expected = NativeMapping.convert(value.totals(),
                Naming.of("latency_nanoseconds", ExportOptions.defaults()), 5, 160);
        Map<Integer, Long> want = new java.util.LinkedHashMap<>();
        expected.positive().forEach(b -> want.put(b.getBucketIndex(), b.getCount()));
        Metrics.Histogram d = Decoded.families(write(List.of(value), ExportOptions.defaults())).get("latency_seconds")
                .getMetric(0).getHistogram();
        assertEquals(want, Decoded.positiveBuckets(d));
        assertTrue(d.getPositiveSpanCount() > 1, "gaps of more than 2 buckets start new spans");
        assertEquals(2.009043501, d.getSampleSum(), 1e-12); // seconds
    }

    @Test
    void tenThousandSeries() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(10_000).build();
        StatFamily<dev.statvar.Counter> c = r.counterFamily("requests_total", "requests", "id");
        StatFamily<dev.statvar.Gauge> g = r.gaugeFamily("queue", "depth", "id");
        StatFamily<Histogram> h = r.histogramFamily("latency_nanoseconds", "latency", HistogramPrecision.DEFAULT, "id");
        for (int i = 0; i < 4_000; i++) {
            c.labels("c" + i).add(i);
        }
        for (int i = 0; i < 3_000; i++) {
            g.labels("g" + i).report(i);
            h.labels("h" + i).record(1_000L * i);
        }
        Snapshot s = r.collect();
        assertEquals(10_000, s.values().size());
        byte[] body = write(s.values(), ExportOptions.defaults());
        Map<String, Metrics.MetricFamily> f = Decoded.families(body);
        // client_java orders families by name; a counter family is named as its samples, with _total
        assertEquals(java.util.Set.of("requests_total", "queue", "queue_min", "queue_max", "latency_seconds",
                "latency_seconds_interval_percentile"), f.keySet());
        assertEquals(4_000, f.get("requests_total").getMetricCount());
        assertEquals(3_000, f.get("queue").getMetricCount());
        assertEquals(3_000, f.get("latency_seconds").getMetricCount());
        assertEquals(3_000 * 4, f.get("latency_seconds_interval_percentile").getMetricCount());
        for (Metrics.Metric m : f.get("requests_total").getMetricList()) { // series in label order
            assertEquals(Double.parseDouble(Decoded.labels(m).get("id").substring(1)), m.getCounter().getValue());
        }
        for (Metrics.Metric m : f.get("latency_seconds").getMetricList()) {
            assertEquals(1, m.getHistogram().getSampleCount());
        }
        System.out.println("ProtobufExpositionTest: 10,000 series, " + body.length + " bytes, decoded");
    }

    @Test
    void createdTimestampsOnlyWhenAsked() {
        StatRegistry r = StatRegistry.create();
        r.counter("jobs_total").add(5);
        Snapshot s = r.collect();
        Metrics.Counter without = Decoded.families(write(s.values(), ExportOptions.defaults())).get("jobs_total").getMetric(0).getCounter();
        assertFalse(without.hasCreatedTimestamp());
        Metrics.Counter with = Decoded.families(write(s.values(), ExportOptions.defaults(), s::created, null))
                .get("jobs_total").getMetric(0).getCounter();
        assertEquals(s.created(s.values().get(0)).toEpochMilli() / 1000, with.getCreatedTimestamp().getSeconds());
        assertEquals(5.0, with.getValue());
    }

    @Test
    void aCollidingFamilyIsLeftOutAndReported() {
        StatRegistry r = StatRegistry.create();
        r.counter("x");
        r.gauge("x_total");
        List<String> problems = new ArrayList<>();
        Map<String, Metrics.MetricFamily> f = Decoded.families(write(r.collect().values(), ExportOptions.defaults(), null, problems));
        assertEquals(List.of("x_total"), new ArrayList<>(f.keySet())); // the counter x
        assertEquals(List.of("gauge 'x_total' is not exported: its name 'x_total' is already used by counter 'x'"), problems);
    }

    /**
     * A registering thread races scrapes: 50 batches of 100 registrations (a collect every 10 batches), each
     * batch waiting for one more scrape, so scrapes fall between and during registrations. Every scrape
     * decodes whole and never shows fewer series than the one before.
     */
    @Test
    void aScrapeDuringRegistrationIsValid() throws Exception {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(5_000).build();
        StatExporter exporter = StatExporter.of(r);
        StatvarCollector collector = StatvarCollector.of(r, exporter);
        StatFamily<Histogram> h = r.histogramFamily("race_nanoseconds", "", HistogramPrecision.DEFAULT, "id");
        Semaphore scraped = new Semaphore(0);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread registering = new Thread(() -> {
            try {
                for (int batch = 0; batch < 50; batch++) {
                    for (int i = 0; i < 100; i++) {
                        h.labels("s" + (batch * 100 + i)).record(i);
                    }
                    if (batch % 10 == 9) {
                        exporter.accept(r.collect());
                    }
                    if (!scraped.tryAcquire(30, TimeUnit.SECONDS)) {
                        throw new AssertionError("no scrape in 30 s");
                    }
                }
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "registering");
        registering.start();
        int scrapes = 0;
        int last = 0;
        while (registering.isAlive()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ClientJavaProtobufExposition.write(out, collector.collect());
            Metrics.MetricFamily f = Decoded.families(out.toByteArray()).get("race_seconds");
            int n = f == null ? 0 : f.getMetricCount();
            assertTrue(n >= last, n + " series after " + last);
            last = n;
            scrapes++;
            scraped.release();
        }
        registering.join();
        assertNull(failed.get());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ClientJavaProtobufExposition.write(out, collector.collect());
        assertEquals(5_000, Decoded.families(out.toByteArray()).get("race_seconds").getMetricCount());
        assertTrue(scrapes >= 50, scrapes + " scrapes");
        System.out.println("ProtobufExpositionTest: " + scrapes + " scrapes raced 5,000 registrations, each decoded whole");
    }
}
