package dev.statvar.export;

import dev.statvar.Counter;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A family past its cap and a removed series, as the text expositions show them. */
class OverflowExpositionTest {

    @Test
    void theOverflowSeriesIsAnOrdinarySeriesOfItsFamily() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(2).build();
        StatFamily<Counter> f = r.counterFamily("orders_total", "orders", "tenant");
        f.labels("t1").add(1);
        f.labels("t2").add(2);
        for (int i = 3; i < 10; i++) {
            f.labels("t" + i).add(i);
        }
        StatExporter ex = StatExporter.of(r);
        ex.accept(r.collect());
        String text = ex.prometheusText();
        assertTrue(text.contains("orders_total{otel_metric_overflow=\"true\"} 42\n"), text);
        assertTrue(text.contains("orders_total{tenant=\"t2\"} 2\n"), text);
        String om = ex.openMetricsText();
        assertTrue(om.contains("orders_total{otel_metric_overflow=\"true\"} 42\n"), om);
        assertTrue(text.indexOf("# TYPE orders_total") == text.lastIndexOf("# TYPE orders_total"), "one family: " + text);
    }

    @Test
    void aRemovedSeriesIsShownOnceMoreThenNotAtAll() {
        StatRegistry r = StatRegistry.create();
        StatFamily<Counter> f = r.counterFamily("jobs_total", "", "queue");
        f.labels("a").add(3);
        f.labels("b").add(1);
        StatExporter ex = StatExporter.of(r);
        f.remove("a");
        ex.accept(r.collect());
        assertTrue(ex.prometheusText().contains("jobs_total{queue=\"a\"} 3\n"), ex.prometheusText());
        ex.accept(r.collect());
        assertFalse(ex.prometheusText().contains("queue=\"a\""), ex.prometheusText());
        assertTrue(ex.prometheusText().contains("jobs_total{queue=\"b\"} 1\n"), ex.prometheusText());
    }
}
