package dev.statvar.otel;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.resources.Resource;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Test helpers: find metrics and points, compute expected bucket counts from the recorded values. */
final class Points {
    static final Resource RESOURCE = Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "test"));

    private Points() {
    }

    /** The only metric named {@code name}, checked to be of {@code type}. */
    static MetricData metric(Collection<MetricData> metrics, String name, MetricDataType type) {
        List<MetricData> found = metrics.stream().filter(m -> m.getName().equals(name)).toList();
        assertEquals(1, found.size(), () -> "metrics named " + name + " in " + metrics);
        assertEquals(type, found.get(0).getType(), name);
        return found.get(0);
    }

    static LongPointData longPoint(MetricData m, Attributes attributes) {
        Collection<LongPointData> points = m.getType() == MetricDataType.LONG_SUM ? m.getLongSumData().getPoints()
                : m.getLongGaugeData().getPoints();
        return points.stream().filter(p -> p.getAttributes().equals(attributes)).findFirst()
                .orElseThrow(() -> new AssertionError("no point " + attributes + " in " + m));
    }

    static HistogramPointData histogramPoint(MetricData m, Attributes attributes) {
        return m.getHistogramData().getPoints().stream().filter(p -> p.getAttributes().equals(attributes)).findFirst()
                .orElseThrow(() -> new AssertionError("no point " + attributes + " in " + m));
    }

    /** Per OpenTelemetry bucket (v <= bound; the last: above every bound), the number of {@code values}, counted directly. */
    static List<Long> expectedCounts(List<Long> values, List<Double> bounds) {
        long[] counts = new long[bounds.size() + 1];
        for (long v : values) {
            int i = 0;
            while (i < bounds.size() && v > bounds.get(i)) {
                i++;
            }
            counts[i]++;
        }
        return boxed(counts);
    }

    static List<Long> boxed(long[] a) {
        List<Long> l = new ArrayList<>();
        for (long v : a) {
            l.add(v);
        }
        return l;
    }

    /** {@code sums + counts}, element by element ({@code sums} null: zeros). */
    static long[] add(long[] sums, List<Long> counts) {
        long[] out = sums == null ? new long[counts.size()] : sums;
        assertEquals(out.length, counts.size());
        for (int i = 0; i < out.length; i++) {
            out[i] += counts.get(i);
        }
        return out;
    }

    /** Waits (sleeping, at most 10 s) until {@code counter} exceeds {@code seen}. */
    static void awaitMore(AtomicLong counter, long seen) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (counter.get() <= seen && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(counter.get() > seen, "nothing happened in 10 s");
    }
}
