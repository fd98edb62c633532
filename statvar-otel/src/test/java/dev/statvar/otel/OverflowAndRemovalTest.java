package dev.statvar.otel;

import dev.statvar.Counter;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import org.junit.jupiter.api.Test;

import java.util.Collection;
import java.util.concurrent.locks.LockSupport;

import static dev.statvar.otel.Points.longPoint;
import static dev.statvar.otel.Points.metric;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** A family's overflow series as the SDK marks overflow, and a series removed and registered again. */
class OverflowAndRemovalTest {

    @Test
    void theOverflowSeriesCarriesTheSdksBooleanOverflowAttribute() {
        StatRegistry registry = StatRegistry.builder().maxSeriesPerFamily(1).build();
        StatFamily<Counter> f = registry.counterFamily("req_total", "", "route");
        f.labels("/a").add(1);
        f.labels("/b").add(3); // past the cap
        f.labels("/c").add(4);
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).build();
        MetricData m = metric(producer.produce(Points.RESOURCE), "req_total", MetricDataType.LONG_SUM);
        assertEquals(7, longPoint(m, Attributes.of(AttributeKey.booleanKey("otel.metric.overflow"), true)).getValue());
        assertEquals(1, longPoint(m, Attributes.of(AttributeKey.stringKey("route"), "/a")).getValue());
        assertEquals(2, m.getLongSumData().getPoints().size(), "no string attribute otel_metric_overflow");
    }

    /** DELTA: the new series' first point is its own count, not its total minus the removed one's. */
    @Test
    void aSeriesRemovedAndRegisteredAgainStartsAfreshInDeltaPoints() {
        StatRegistry registry = StatRegistry.create();
        StatFamily<Counter> f = registry.counterFamily("jobs_total", "", "queue");
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry)
                .temporality(AggregationTemporality.DELTA).build();
        Attributes q = Attributes.of(AttributeKey.stringKey("queue"), "q");
        f.labels("q").add(5);
        assertEquals(5, point(producer.produce(Points.RESOURCE), q));
        f.labels("q").add(1);
        f.remove("q");
        nextMillisecond(); // the new series' registration time (ms) differs from the removed one's
        f.labels("q").add(2);
        assertEquals(1, point(producer.produce(Points.RESOURCE), q), "the removed series' last interval");
        assertEquals(2, point(producer.produce(Points.RESOURCE), q), "the new series: its own 2, not 2 - 6");
    }

    /** Parks until the wall clock's millisecond changes (bounded: 1 s). */
    private static void nextMillisecond() {
        long now = System.currentTimeMillis();
        for (int i = 0; i < 1_000 && System.currentTimeMillis() == now; i++) {
            LockSupport.parkNanos(100_000L);
        }
    }

    private static long point(Collection<MetricData> metrics, Attributes a) {
        return longPoint(metric(metrics, "jobs_total", MetricDataType.LONG_SUM), a).getValue();
    }
}
