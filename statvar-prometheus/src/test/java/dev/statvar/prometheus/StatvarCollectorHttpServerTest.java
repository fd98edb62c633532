package dev.statvar.prometheus;

import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.StatExporter;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collector on client_java's own {@code HTTPServer} (prometheus-metrics-exporter-httpserver), as
 * docs/PROMETHEUS.md shows it: registered on a {@code PrometheusRegistry} that the server exposes, scraped
 * over loopback in each format a scraper can ask for. Every sample of statvar-export's OpenMetrics text is in
 * the server's, and its protobuf carries the native histograms.
 */
@Timeout(60)
class StatvarCollectorHttpServerTest {
    private static final String PROTOBUF = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";
    private static final String OPENMETRICS = "application/openmetrics-text; version=1.0.0";

    private StatRegistry stats;
    private StatExporter exporter;
    private HTTPServer server;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void start() throws IOException {
        stats = StatvarCollectorTest.registry();
        exporter = new StatExporter(stats, ExportOptions.defaults());
        exporter.accept(stats.collect());
        PrometheusRegistry prometheus = new PrometheusRegistry();
        prometheus.register(StatvarCollector.of(stats, exporter));
        server = HTTPServer.builder().hostname("127.0.0.1").port(0).registry(prometheus).buildAndStart();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<byte[]> scrape(String accept) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getPort() + "/metrics"))
                .timeout(Duration.ofSeconds(10));
        if (accept != null) {
            b.header("Accept", accept);
        }
        HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode(), "GET /metrics, Accept: " + accept);
        return r;
    }

    @Test
    void openMetricsOverHttpHasEverySampleOfStatvarsOpenMetricsText() throws Exception {
        HttpResponse<byte[]> r = scrape(OPENMETRICS);
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/openmetrics-text"),
                r.headers().toString());
        Map<String, Double> served = StatvarCollectorTest.samples(new String(r.body(), StandardCharsets.UTF_8));
        Map<String, Double> statvar = StatvarCollectorTest.samples(exporter.openMetricsText());
        assertTrue(statvar.size() > 100, "statvar's text: " + statvar.size() + " samples");
        assertEquals(statvar.keySet(), served.keySet(), "the same series");
        for (Map.Entry<String, Double> e : statvar.entrySet()) {
            double v = served.get(e.getKey());
            if (Double.isNaN(e.getValue()) || Double.isInfinite(e.getValue())) {
                assertEquals(e.getValue(), v, e.getKey());
            } else {
                assertEquals(e.getValue(), v, Math.abs(e.getValue()) * 1e-12, e.getKey());
            }
        }
    }

    @Test
    void theTextFormatWithoutAnAcceptHeaderHasTheStats() throws Exception {
        String text = new String(scrape(null).body(), StandardCharsets.UTF_8);
        assertTrue(text.contains("requests_total 42.0"), text);
        assertTrue(text.contains("latency_seconds_count{route=\"/a\"} 1000"), text);
    }

    @Test
    void protobufOverHttpCarriesNativeAndClassicBuckets() throws Exception {
        HttpResponse<byte[]> r = scrape(PROTOBUF);
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/vnd.google.protobuf"),
                r.headers().toString());
        Map<String, Metrics.MetricFamily> f = Decoded.families(r.body());
        assertEquals(42.0, f.get("requests_total").getMetric(0).getCounter().getValue());
        Metrics.MetricFamily latency = f.get("latency_seconds");
        assertNotNull(latency, f.keySet().toString());
        assertEquals(2, latency.getMetricCount());
        for (Metrics.Metric m : latency.getMetricList()) {
            Metrics.Histogram h = m.getHistogram();
            assertEquals(1_000, h.getSampleCount());
            assertEquals(1_000, Decoded.positiveBuckets(h).values().stream().mapToLong(Long::longValue).sum(),
                    "every observation in a native bucket");
            assertTrue(h.getSchema() <= 5, "schema " + h.getSchema());
            assertFalse(h.getBucketList().isEmpty(), "classic buckets too");
        }
    }
}
