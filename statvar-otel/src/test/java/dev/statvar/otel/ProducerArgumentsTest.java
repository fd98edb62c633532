package dev.statvar.otel;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.util.Collection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad input gets an exception that names what is wrong. */
class ProducerArgumentsTest {
    @Test
    void nullsAreNamed() {
        assertMessage(NullPointerException.class, "registry", () -> StatvarMetricProducer.collecting(null));
        assertMessage(NullPointerException.class, "temporality", () -> StatvarMetricProducer.fed().temporality(null));
        assertMessage(NullPointerException.class, "boundaries",
                () -> StatvarMetricProducer.fed().histogramBoundaries((long[]) null));
        StatvarMetricProducer fed = StatvarMetricProducer.fed().build();
        assertMessage(NullPointerException.class, "resource", () -> fed.produce(null));
        assertMessage(NullPointerException.class, "snapshot", () -> fed.accept(null));
    }

    @Test
    void badBoundariesAreRejectedAsTheExpositionRejectsThem() {
        assertMessage(IllegalArgumentException.class, "increasing",
                () -> StatvarMetricProducer.fed().histogramBoundaries(10, 5));
        assertMessage(IllegalArgumentException.class, ">= 0",
                () -> StatvarMetricProducer.fed().histogramBoundaries(-1, 5));
        assertMessage(IllegalArgumentException.class, "at most 64",
                () -> StatvarMetricProducer.fed().histogramBoundaries(new long[65]));
    }

    @Test
    void aCollectingProducerTakesNoSnapshots() {
        StatRegistry registry = StatRegistry.create();
        StatvarMetricProducer p = StatvarMetricProducer.collecting(registry).build();
        assertMessage(IllegalStateException.class, "fed()", () -> p.accept(registry.collect()));
    }

    @Test
    void aFedProducerBeforeItsFirstSnapshotProducesNothing() {
        StatvarMetricProducer p = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        assertTrue(p.produce(Points.RESOURCE).isEmpty());
        assertEquals(AggregationTemporality.DELTA, p.temporality());
    }

    @Test
    void aFedProducerGivenNoNewSnapshotRepeatsCumulativeAndSendsNoDelta() {
        // (each producer below is fed the same snapshot once; the second produce() has none new)
        StatRegistry registry = StatRegistry.create();
        registry.counter("c_total").add(3);
        StatvarMetricProducer cumulative = StatvarMetricProducer.fed().build();
        StatvarMetricProducer delta = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        var s = registry.collect();
        cumulative.accept(s);
        delta.accept(s);
        var first = cumulative.produce(Points.RESOURCE);
        assertEquals(first, cumulative.produce(Points.RESOURCE));
        assertEquals(1, delta.produce(Points.RESOURCE).size());
        assertTrue(delta.produce(Points.RESOURCE).isEmpty(), "nothing happened since: no delta");
    }

    @Test
    void aFedProducerMergesTheMinMaxOfEverySnapshotSinceThePreviousProduce() {
        StatRegistry registry = StatRegistry.create();
        Histogram h = registry.histogram("h");
        Gauge g = registry.gauge("g");
        StatvarMetricProducer p = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        h.record(3);
        g.report(-4);
        p.accept(registry.collect());
        p.accept(registry.collect()); // an interval without records
        h.record(900);
        g.report(12);
        p.accept(registry.collect()); // three snapshots before one produce
        Collection<MetricData> m = p.produce(Points.RESOURCE);
        HistogramPointData point = Points.histogramPoint(Points.metric(m, "h", MetricDataType.HISTOGRAM), Attributes.empty());
        assertEquals(2, point.getCount());
        assertEquals(903.0, point.getSum());
        assertTrue(point.hasMin() && point.hasMax());
        assertEquals(3.0, point.getMin());
        assertEquals(900.0, point.getMax());
        assertEquals(-4, Points.longPoint(Points.metric(m, "g.min", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue());
        assertEquals(12, Points.longPoint(Points.metric(m, "g.max", MetricDataType.LONG_GAUGE), Attributes.empty()).getValue());
    }

    @Test
    void aFedProducerThatDroppedSnapshotsLeavesMinMaxOut() {
        StatRegistry registry = StatRegistry.create();
        Histogram h = registry.histogram("h");
        StatvarMetricProducer p = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        for (int i = 0; i <= StatvarMetricProducer.MAX_PENDING; i++) { // one more than it keeps
            h.record(10 + i);
            p.accept(registry.collect());
        }
        HistogramPointData point = Points.histogramPoint(Points.metric(p.produce(Points.RESOURCE), "h",
                MetricDataType.HISTOGRAM), Attributes.empty());
        assertEquals(StatvarMetricProducer.MAX_PENDING + 1, point.getCount(), "counts come from the totals: exact");
        assertTrue(!point.hasMin() && !point.hasMax(), "the dropped interval held the smallest record");
    }

    @Test
    void overflowWrapsAsInStatvar() {
        StatRegistry registry = StatRegistry.create();
        Counter c = registry.counter("big_total");
        StatvarMetricProducer cumulative = StatvarMetricProducer.collecting(registry).build();
        StatvarMetricProducer delta = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        c.add(Long.MAX_VALUE);
        delta.accept(registry.collect());
        delta.produce(Points.RESOURCE);
        c.add(10);
        LongPointData cp = Points.longPoint(Points.metric(cumulative.produce(Points.RESOURCE), "big_total",
                MetricDataType.LONG_SUM), Attributes.empty());
        assertEquals(Long.MIN_VALUE + 9, cp.getValue(), "the total wrapped");
        delta.accept(registry.collect());
        LongPointData dp = Points.longPoint(Points.metric(delta.produce(Points.RESOURCE), "big_total",
                MetricDataType.LONG_SUM), Attributes.empty());
        assertEquals(10, dp.getValue(), "the delta across the wrap is right");
        assertEquals(18446744073709551615.0, SnapshotConverter.unsigned(-1L), "a sum of 2^64 - 1, read unsigned");
    }

    private static void assertMessage(Class<? extends Throwable> type, String part, Executable e) {
        Throwable t = assertThrows(type, e);
        assertTrue(t.getMessage() != null && t.getMessage().contains(part), () -> "message '" + t.getMessage()
                + "' should name " + part);
    }
}
