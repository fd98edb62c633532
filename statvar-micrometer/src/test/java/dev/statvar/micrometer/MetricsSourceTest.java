package dev.statvar.micrometer;

import dev.statvar.StatRegistry;
import dev.statvar.export.MetricsServer;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link StatvarMeterRegistry#metricsSource()} served by statvar-export's MetricsServer, and scrape's content types. */
@Timeout(60)
class MetricsSourceTest {
    @Test
    void aMetricsServerServesTheMicrometerShapedScrape() throws Exception {
        StatvarMeterRegistry r = new StatvarMeterRegistry(StatRegistry.create());
        r.counter("http.requests", "method", "GET").increment(3);
        Timer.builder("http.latency").serviceLevelObjectives(Duration.ofMillis(100)).register(r)
                .record(Duration.ofMillis(40));
        try (MetricsServer server = MetricsServer.builder(r.metricsSource()).port(0).build().start()) {
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> text = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, text.statusCode());
            assertTrue(text.body().contains("http_requests_total{method=\"GET\"} 3.0\n"), text.body());
            assertTrue(text.body().contains("http_latency_seconds_bucket{le=\"0.1\"} 1\n"), text.body());
            HttpResponse<String> om = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                    .header("Accept", "application/openmetrics-text; version=1.0.0").build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(om.body().endsWith("# EOF\n"), om.body());
            assertTrue(om.body().contains("# TYPE http_requests counter\n"), om.body());
        }
        assertTrue(r.metricsSource().json().contains("{\"name\":\"http_requests_total\",\"labels\":{\"method\":\"GET\"},\"value\":3.0}"),
                r.metricsSource().json());
    }

    @Test
    void anUnknownContentTypeIsRefusedByName() {
        StatvarMeterRegistry r = new StatvarMeterRegistry(StatRegistry.create());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.scrape("application/json"));
        assertTrue(e.getMessage().contains("application/json"), e.getMessage());
        assertEquals(r.scrape(), r.scrape(null));
    }
}
