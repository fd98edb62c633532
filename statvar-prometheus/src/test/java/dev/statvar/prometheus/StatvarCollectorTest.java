package dev.statvar.prometheus;

import dev.statvar.HistogramPrecision;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.StatExporter;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MultiCollector through client_java itself: registered on a PrometheusRegistry, scraped, written by
 * client_java's OpenMetrics writer (every sample statvar-export's OpenMetrics text has, same name, labels and
 * value) and by its protobuf writer (native histograms included).
 */
@Timeout(60)
class StatvarCollectorTest {
    private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"([^\"]*)\"");

    /** Each sample line of an exposition as "name{sorted labels, le as a number}" to its value. */
    static Map<String, Double> samples(String text) {
        Map<String, Double> out = new TreeMap<>();
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (line.startsWith("#") || !m.matches() || m.group(1).endsWith("_created")) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>();
            if (m.group(3) != null) {
                Matcher l = LABEL.matcher(m.group(3));
                while (l.find()) {
                    labels.put(l.group(1), l.group(1).equals("le") ? Double.toString(number(l.group(2))) : l.group(2));
                }
            }
            out.put(m.group(1) + labels, number(m.group(4)));
        }
        return out;
    }

    private static double number(String s) {
        return s.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(s);
    }

    static StatRegistry registry() {
        StatRegistry r = StatRegistry.create();
        r.counter("requests_total", "requests").add(42);
        r.gauge("queue", "queue depth").report(7);
        r.gauge("idle").toString(); // a gauge without reports: min/max NaN
        StatFamily<dev.statvar.Histogram> h = r.histogramFamily("latency_nanoseconds", "latency", HistogramPrecision.DEFAULT, "route");
        for (int i = 1; i <= 1_000; i++) {
            h.labels("/a").record(1_000L * i);
            h.labels("/b").record(i);
        }
        r.histogram("empty_bytes");
        return r;
    }

    @Test
    void aStatRegisteredAfterARemovalIsCollectedAtOnce() {
        StatRegistry r = StatRegistry.create();
        r.counter("a_total").add(1);
        r.counter("b_total").add(2);
        dev.statvar.Snapshot last = r.collect();
        r.remove("a_total");
        r.counter("d_total"); // as many stats as the interval holds, not the same ones
        java.util.List<String> names = new java.util.ArrayList<>();
        for (dev.statvar.StatValue v : StatvarCollector.values(last, r)) {
            names.add(v.name());
        }
        assertEquals(java.util.List.of("a_total", "b_total", "d_total"), names, "the interval's, then the one registered since");
        dev.statvar.Snapshot lastOfA = r.collect(); // a_total's last interval
        assertTrue(StatvarCollector.values(lastOfA, r) == lastOfA.values(), "nothing added while the registry is unchanged");
        assertEquals(2, StatvarCollector.values(r.collect(), r).size(), "a_total gone");
    }

    @Test
    void clientJavasOpenMetricsShowsEverySampleOfStatvarsText() throws IOException {
        StatRegistry r = registry();
        StatExporter exporter = new StatExporter(r, ExportOptions.defaults());
        exporter.accept(r.collect());
        PrometheusRegistry prometheus = new PrometheusRegistry();
        prometheus.register(StatvarCollector.of(r, exporter));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        OpenMetricsTextFormatWriter.create().write(out, prometheus.scrape(), EscapingScheme.DEFAULT);
        Map<String, Double> clientJava = samples(out.toString(StandardCharsets.UTF_8));
        Map<String, Double> statvar = samples(exporter.openMetricsText());
        assertTrue(statvar.size() > 100, "statvar's text: " + statvar.size() + " samples");
        for (Map.Entry<String, Double> e : statvar.entrySet()) {
            Double v = clientJava.get(e.getKey());
            assertTrue(v != null, e.getKey() + " missing from client_java's OpenMetrics");
            if (Double.isNaN(e.getValue()) || Double.isInfinite(e.getValue())) {
                assertEquals(e.getValue(), v, e.getKey());
            } else {
                assertEquals(e.getValue(), v, Math.abs(e.getValue()) * 1e-12, e.getKey());
            }
        }
        assertEquals(statvar.keySet(), clientJava.keySet());
        System.out.println("StatvarCollectorTest: " + statvar.size() + " samples, the same in both OpenMetrics texts");
    }

    @Test
    void clientJavasProtobufWriterCarriesTheNativeHistograms() throws IOException {
        StatRegistry r = registry();
        StatExporter exporter = StatExporter.of(r);
        PrometheusRegistry prometheus = new PrometheusRegistry();
        prometheus.register(StatvarCollector.of(r, exporter));
        // before the first collect: every registered stat, empty
        ByteArrayOutputStream before = new ByteArrayOutputStream();
        new PrometheusProtobufWriter().write(before, prometheus.scrape(), EscapingScheme.DEFAULT);
        Metrics.MetricFamily empty = Decoded.families(before.toByteArray()).get("latency_seconds");
        assertEquals(2, empty.getMetricCount());
        assertEquals(0, empty.getMetric(0).getHistogram().getSampleCount());
        assertEquals(0x1p-128, empty.getMetric(0).getHistogram().getZeroThreshold()); // native for Prometheus

        exporter.accept(r.collect());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PrometheusProtobufWriter().write(out, prometheus.scrape(), EscapingScheme.DEFAULT);
        Map<String, Metrics.MetricFamily> f = Decoded.families(out.toByteArray());
        assertEquals(42.0, f.get("requests_total").getMetric(0).getCounter().getValue());
        assertEquals(Metrics.MetricType.SUMMARY, f.get("queue").getType());
        assertTrue(Double.isNaN(f.get("idle_min").getMetric(0).getGauge().getValue()));
        for (Metrics.Metric m : f.get("latency_seconds").getMetricList()) {
            Metrics.Histogram h = m.getHistogram();
            assertTrue(h.getSchema() <= 5 && Decoded.positiveBuckets(h).size() <= 160, "schema " + h.getSchema());
            assertEquals(1_000, h.getSampleCount());
            assertEquals(1_000, Decoded.positiveBuckets(h).values().stream().mapToLong(Long::longValue).sum());
            assertFalse(h.getBucketList().isEmpty(), "classic buckets too");
        }
    }
}
