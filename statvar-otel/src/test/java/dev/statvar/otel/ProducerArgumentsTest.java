package dev.statvar.otel;

import dev.statvar.StatRegistry;
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

    private static void assertMessage(Class<? extends Throwable> type, String part, Executable e) {
        Throwable t = assertThrows(type, e);
        assertTrue(t.getMessage() != null && t.getMessage().contains(part), () -> "message '" + t.getMessage()
                + "' should name " + part);
    }
}
