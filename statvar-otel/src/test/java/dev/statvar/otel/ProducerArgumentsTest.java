package dev.statvar.otel;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

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
    void aFedProducerGivenTwoSnapshotsLeavesMinMaxOut() {
        StatRegistry registry = StatRegistry.create();
        Histogram h = registry.histogram("h");
        StatvarMetricProducer p = StatvarMetricProducer.fed().temporality(AggregationTemporality.DELTA).build();
        h.record(3);
        p.accept(registry.collect());
        h.record(900);
        p.accept(registry.collect()); // two snapshots before one produce: the last covers part of the window
        HistogramPointData point = Points.histogramPoint(Points.metric(p.produce(Points.RESOURCE), "h",
                MetricDataType.HISTOGRAM), Attributes.empty());
        assertEquals(2, point.getCount());
        assertEquals(903.0, point.getSum());
        assertTrue(!point.hasMin() && !point.hasMax());
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
