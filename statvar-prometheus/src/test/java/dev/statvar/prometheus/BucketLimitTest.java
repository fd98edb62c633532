package dev.statvar.prometheus;

import dev.statvar.export.ProtobufExposition;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A histogram whose native buckets would exceed the limit has its schema lowered, pairs merged, until they
 * fit: the fewest steps that fit, no count lost, the decoded protobuf saying the lower schema; a bad limit or
 * schema, or a null, fails on the caller's thread naming it.
 */
@Timeout(60)
class BucketLimitTest {
    /** One value in every statvar bucket's neighbourhood from 1 to 10^12: 40 octaves, 1,280 native buckets at schema 5. */
    private static HistogramValue wide() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("wide");
        for (double v = 1; v < 1e12; v *= 1.005) {
            h.record((long) v);
        }
        h.record(0);
        return r.collect().histogram("wide");
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot convert(HistogramValue h, StatvarSnapshots c) {
        return ((HistogramSnapshot) c.convert(List.of(h), null, null).get(0)).getDataPoints().get(0);
    }

    private static long nativeCount(HistogramSnapshot.HistogramDataPointSnapshot d) {
        long n = d.getNativeZeroCount();
        for (int i = 0; i < d.getNativeBucketsForPositiveValues().size(); i++) {
            n += d.getNativeBucketsForPositiveValues().getCount(i);
        }
        return n;
    }

    @Test
    void theDefaultLimitLowersTheSchemaByTheFewestSteps() throws IOException {
        HistogramValue h = wide();
        StatvarSnapshots defaults = StatvarSnapshots.of(ExportOptions.defaults());
        HistogramSnapshot.HistogramDataPointSnapshot d = convert(h, defaults);
        int unlimited = convert(h, defaults.withMaxNativeBuckets(Integer.MAX_VALUE)).getNativeBucketsForPositiveValues().size();
        int oneFiner = convert(h, defaults.withNativeSchema(d.getNativeSchema() + 1).withMaxNativeBuckets(Integer.MAX_VALUE))
                .getNativeBucketsForPositiveValues().size();
        System.out.println("BucketLimitTest: " + unlimited + " native buckets at schema 5, " + oneFiner + " at schema "
                + (d.getNativeSchema() + 1) + ", " + d.getNativeBucketsForPositiveValues().size() + " at schema "
                + d.getNativeSchema() + " (limit 160)");
        assertTrue(unlimited > 160, "the case must exceed the limit: " + unlimited);
        assertTrue(d.getNativeSchema() < 5);
        assertTrue(d.getNativeBucketsForPositiveValues().size() <= 160);
        assertTrue(oneFiner > 160, "one schema finer would have fitted: " + oneFiner);
        assertEquals(h.count(), nativeCount(d));
        assertEquals(1, d.getNativeZeroCount());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new ClientJavaProtobufExposition().write(out, List.of(h), ExportOptions.defaults(), null, null);
        Metrics.Histogram decoded = Decoded.families(out.toByteArray()).get("wide").getMetric(0).getHistogram();
        assertEquals(d.getNativeSchema(), decoded.getSchema());
        Map<Integer, Long> buckets = Decoded.positiveBuckets(decoded);
        assertEquals(d.getNativeBucketsForPositiveValues().size(), buckets.size());
        assertEquals(h.count() - 1, buckets.values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void aConfiguredLimitHolds() {
        HistogramValue h = wide();
        for (int limit : new int[]{1, 10, 100, 400}) {
            HistogramSnapshot.HistogramDataPointSnapshot d = convert(h, StatvarSnapshots.of(ExportOptions.defaults())
                    .withMaxNativeBuckets(limit));
            assertTrue(d.getNativeBucketsForPositiveValues().size() <= limit || d.getNativeSchema() == -4,
                    limit + ": " + d.getNativeBucketsForPositiveValues().size() + " buckets at schema " + d.getNativeSchema());
            assertEquals(h.count(), nativeCount(d));
        }
    }

    @Test
    void misuseFailsNamingIt() {
        StatvarSnapshots c = StatvarSnapshots.of(ExportOptions.defaults());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withMaxNativeBuckets(0)).getMessage()
                .contains("native bucket limit must be at least 1, was 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.withNativeSchema(9)).getMessage()
                .contains("native schema must be in -4..8"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ClientJavaProtobufExposition().withNativeSchema(-5))
                .getMessage().contains("native schema must be in -4..8"));
        assertThrows(NullPointerException.class, () -> StatvarSnapshots.of(null));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ClientJavaProtobufExposition().withMaxNativeBuckets(-1))
                .getMessage().contains("native bucket limit must be at least 1, was -1"));
    }

    @Test
    void nullsFailNamingWhatIsNull() {
        StatvarSnapshots c = StatvarSnapshots.of(ExportOptions.defaults());
        assertEquals("values", assertThrows(NullPointerException.class, () -> c.convert(null, null, null)).getMessage());
        assertEquals("values holds a null value", assertThrows(NullPointerException.class,
                () -> c.convert(java.util.Arrays.asList(wide(), null), null, null)).getMessage());
        assertEquals("created returned null for wide", assertThrows(NullPointerException.class,
                () -> c.convert(List.of(wide()), v -> null, null)).getMessage());
        assertEquals("out", assertThrows(NullPointerException.class, () -> new ClientJavaProtobufExposition()
                .write(null, List.of(), ExportOptions.defaults(), null, null)).getMessage());
        assertEquals("exporter", assertThrows(NullPointerException.class,
                () -> StatvarCollector.of(StatRegistry.create(), null)).getMessage());
        assertEquals("registry", assertThrows(NullPointerException.class,
                () -> StatvarCollector.of(null, dev.statvar.export.StatExporter.of(StatRegistry.create()))).getMessage());
    }
}
