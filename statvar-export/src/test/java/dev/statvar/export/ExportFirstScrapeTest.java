package dev.statvar.export;

import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.Labels;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.statvar.export.ExpositionTest.find;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An exporter bound to its registry shows every registered stat from the first scrape on, before any
 * interval has closed and for stats registered since the last one: counters 0, gauge summaries with count
 * 0 and min/max NaN, histograms with empty buckets, in both text formats (with the shape checks of
 * {@link ExpositionTest}) and in /stats.json.
 */
class ExportFirstScrapeTest {

    /** Registers one stat and one labelled series of each kind in {@code r}. */
    private static void registerOneOfEach(StatRegistry r) {
        r.counter("requests_total", "requests handled");
        r.counterFamily("errors_total", "errors", "code").labels("500");
        r.gauge("queue", "queue depth");
        r.gaugeFamily("pool", "pool size", "name").labels("db");
        r.histogram("latency", "latency, ns");
        r.histogramFamily("request_duration", "duration", HistogramPrecision.DEFAULT, "method").labels("GET");
    }

    @Test
    void beforeAnyIntervalEveryRegisteredStatShowsWithEmptyValues() {
        long before = System.currentTimeMillis();
        StatRegistry r = StatRegistry.create();
        registerOneOfEach(r);
        r.counter("requests_total").add(5); // counted, but no interval has closed: the scrape shows 0 until one does
        StatExporter ex = new StatExporter(r, ExportOptions.defaults().withNanosecondsAsSeconds("request_duration")
                .withCreatedSeries(true));
        assertNull(ex.lastSnapshot(), "no interval delivered");
        for (Exposition.Format f : Exposition.Format.values()) {
            ExpositionTest.Parsed p = scrape(ex, f);
            assertEmpty(p, f, "requests", "errors", "queue", "pool", "latency", "request_duration_seconds");
            if (f == Exposition.Format.OPENMETRICS_100) {
                double created = Double.parseDouble(find(p, "requests_created", Map.of()).value());
                assertTrue(created >= before / 1000.0 - 1 && created <= System.currentTimeMillis() / 1000.0,
                        "_created is the registration time: " + created);
                find(p, "errors_created", Map.of("code", "500"));
                find(p, "pool_created", Map.of("name", "db"));
                find(p, "request_duration_seconds_created", Map.of("method", "GET"));
            }
        }
        String json = ex.json();
        assertTrue(json.startsWith("{\"interval\":null,\"stats\":["), json);
        assertTrue(json.contains("{\"name\":\"requests_total\",\"labels\":{},\"kind\":\"counter\",\"help\":\"requests handled\","
                + "\"interval\":{\"value\":0},\"total\":{\"value\":0}}"), json);
        assertTrue(json.contains("{\"name\":\"pool\",\"labels\":{\"name\":\"db\"},\"kind\":\"gauge\",\"help\":\"pool size\","
                + "\"interval\":{\"count\":0,\"sum\":0,\"min\":null,\"max\":null,\"mean\":null},"
                + "\"total\":{\"count\":0,\"sum\":0}}"), json);
        String emptyHistogram = "{\"count\":0,\"sum\":0,\"min\":null,\"max\":null,\"mean\":null,"
                + "\"p50\":null,\"p90\":null,\"p99\":null,\"p99.9\":null}";
        assertTrue(json.contains("{\"name\":\"request_duration\",\"labels\":{\"method\":\"GET\"},\"kind\":\"histogram\","
                + "\"help\":\"duration\",\"interval\":" + emptyHistogram + ",\"total\":" + emptyHistogram + "}"), json);
        assertEquals(6, json.split("\n\\{\"name\":").length - 1, "every stat in /stats.json: " + json);
    }

    @Test
    void aStatRegisteredSinceTheLastIntervalShowsAtOnce() {
        StatRegistry r = StatRegistry.create();
        r.counter("requests_total", "requests handled").add(3);
        r.counterFamily("errors_total", "errors", "code").labels("500").add(2);
        StatExporter ex = StatExporter.of(r);
        ex.accept(r.collect());
        // registered after the last interval: a stat of each kind, and a new series of a family already shown
        r.counterFamily("errors_total", "errors", "code").labels("503");
        r.gauge("queue", "queue depth");
        r.gaugeFamily("pool", "pool size", "name").labels("db");
        r.histogram("latency", "latency, ns");
        r.histogramFamily("request_duration", "duration", HistogramPrecision.DEFAULT, "method").labels("GET");
        for (Exposition.Format f : Exposition.Format.values()) {
            ExpositionTest.Parsed p = scrape(ex, f); // checks the new series sit with their family (contiguous)
            assertEquals("3", find(p, "requests_total", Map.of()).value(), f + ": from the last interval");
            assertEquals("2", find(p, "errors_total", Map.of("code", "500")).value(), f + ": from the last interval");
            assertEquals("0", find(p, "errors_total", Map.of("code", "503")).value(), f + ": registered since");
            assertEmpty(p, f, "queue", "pool", "latency", "request_duration");
        }
        assertEquals(7, ex.json().split("\n\\{\"name\":").length - 1, "every stat in /stats.json: " + ex.json());
        // once an interval has them, they come from it
        r.histogram("latency").record(42);
        ex.accept(r.collect());
        ExpositionTest.Parsed p = scrape(ex, Exposition.Format.PROMETHEUS_004);
        assertEquals("1", find(p, "latency_count", Map.of()).value());
        assertEquals("42", find(p, "latency_sum", Map.of()).value());
    }

    @Test
    void aStatRegisteredAfterARemovalShowsAtOnce() {
        StatRegistry r = StatRegistry.create();
        r.counter("a_total").add(1);
        r.counter("b_total").add(2);
        r.counterFamily("c_total", "", "k").labels("x").add(3);
        StatExporter ex = StatExporter.of(r);
        ex.accept(r.collect());
        String shared = ex.prometheusText();
        // as many stats as the interval holds, but not the same ones: a count of stats cannot tell
        assertTrue(r.remove("a_total"));
        r.counter("d_total");
        assertTrue(r.counterFamily("c_total", "", "k").remove("x"));
        r.counterFamily("c_total", "", "k").labels("y");
        for (Exposition.Format f : Exposition.Format.values()) {
            ExpositionTest.Parsed p = scrape(ex, f);
            assertEquals("0", find(p, "d_total", Map.of()).value(), f + ": registered since");
            assertEquals("0", find(p, "c_total", Map.of("k", "y")).value(), f + ": a new series of a family");
            assertEquals("1", find(p, "a_total", Map.of()).value(), f + ": the removed stat, until its last interval");
        }
        assertFalse(shared == ex.prometheusText(), "rendered again after the change");
        ex.accept(r.collect()); // the removed stats' last interval
        ex.accept(r.collect());
        ExpositionTest.Parsed p = scrape(ex, Exposition.Format.PROMETHEUS_004);
        assertTrue(p.samples().stream().noneMatch(x -> x.name().equals("a_total")), "gone after its last interval");
        assertEquals("0", find(p, "d_total", Map.of()).value());
    }

    @Test
    void anUnboundExporterShowsNothingBeforeTheFirstInterval() {
        StatRegistry r = StatRegistry.create();
        registerOneOfEach(r);
        StatExporter ex = new StatExporter(); // documented: without a registry, nothing until the first interval
        assertEquals("", ex.prometheusText());
        assertEquals("# EOF\n", ex.openMetricsText());
        ex.accept(r.collect());
        assertEmpty(scrape(ex, Exposition.Format.OPENMETRICS_100), Exposition.Format.OPENMETRICS_100,
                "queue", "pool", "latency", "request_duration");
    }

    /**
     * A gauge interval with no report counted can still carry a min/max (a report racing the switch, see
     * GaugeValue); its {@code _min}/{@code _max} are NaN whenever the count is 0, never that stray value.
     */
    @Test
    void aGaugeIntervalWithoutReportsHasNaNMinAndMax() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        GaugeValue racing = new GaugeValue("queue", "", Labels.EMPTY, 0, 0, 3, 9, 12, 70, true);
        StatExporter ex = new StatExporter();
        ex.accept(TestSnapshots.of(t, t.plusSeconds(10), t, List.of(racing)));
        for (Exposition.Format f : Exposition.Format.values()) {
            ExpositionTest.Parsed p = scrape(ex, f);
            assertEquals("NaN", find(p, "queue_min", Map.of()).value(), f.toString());
            assertEquals("NaN", find(p, "queue_max", Map.of()).value(), f.toString());
            assertEquals("12", find(p, "queue_count", Map.of()).value(), f.toString());
        }
        assertTrue(ex.json().contains("\"interval\":{\"count\":0,\"sum\":0,\"min\":null,\"max\":null,\"mean\":null}"), ex.json());
    }

    private static ExpositionTest.Parsed scrape(StatExporter ex, Exposition.Format f) {
        boolean om = f == Exposition.Format.OPENMETRICS_100;
        String text = om ? ex.openMetricsText() : ex.prometheusText();
        ExpositionTest.Parsed p = ExpositionTest.parse(text, om);
        ExpositionTest.checkInvariants(p, f);
        return p;
    }

    /**
     * Each named family (exposed name) is present with its TYPE and every series empty: counters 0; gauges
     * {@code _count}/{@code _sum} 0 and {@code _min}/{@code _max} NaN; histograms {@code _count}/{@code _sum} 0,
     * one {@code _bucket} per default boundary plus +Inf, all 0, and NaN percentiles.
     */
    private static void assertEmpty(ExpositionTest.Parsed p, Exposition.Format f, String... families) {
        boolean om = f == Exposition.Format.OPENMETRICS_100;
        for (String family : families) {
            String type = p.types().get(family);
            if (type == null) {
                type = p.types().get(family + "_total"); // a 0.0.4 counter family
            }
            assertTrue(type != null, f + ": no TYPE for " + family + " in " + p.types());
            int series = 0;
            Map<String, Integer> buckets = new HashMap<>();
            for (ExpositionTest.Sample s : p.samples()) {
                String n = s.name();
                if (!n.startsWith(family + "_") && !n.equals(family)) {
                    continue;
                }
                String suffix = n.substring(family.length());
                switch (suffix) {
                    case "_total", "_count", "_sum" -> {
                        assertEquals("0", s.value(), f + " " + s.series());
                        series++;
                    }
                    case "_min", "_max", "_interval_percentile" -> assertEquals("NaN", s.value(), f + " " + s.series());
                    case "_bucket" -> {
                        assertEquals("0", s.value(), f + " " + s.series());
                        Map<String, String> rest = new HashMap<>(s.labels());
                        rest.remove("le");
                        buckets.merge(rest.toString(), 1, Integer::sum);
                    }
                    case "_created" -> assertTrue(om, "no _created in 0.0.4");
                    default -> {
                        // another family sharing the prefix (e.g. errors and errors_x): not this one
                    }
                }
            }
            assertTrue(series > 0, f + ": no series of " + family);
            if (type.equals("histogram")) {
                assertFalse(buckets.isEmpty(), f + ": no buckets of " + family);
                for (int n : buckets.values()) {
                    assertEquals(ExportOptions.defaultBoundaries().length + 1, n, f + " buckets of " + family + ": " + buckets);
                }
            }
        }
    }
}
