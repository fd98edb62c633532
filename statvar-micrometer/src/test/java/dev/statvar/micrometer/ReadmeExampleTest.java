package dev.statvar.micrometer;

import dev.statvar.StatRegistry;
import dev.statvar.export.StatExporter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** README's "From Micrometer" example, as written there, and what its scrapes show. */
class ReadmeExampleTest {
    @Test
    void theReadmeExampleRunsAndScrapesAsThePrometheusRegistry() {
        // --- README ---
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry registry = new StatvarMeterRegistry(stats);  // was: new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)

        // the service's instrumentation, unchanged
        Counter.builder("http.requests").tag("method", "GET").register(registry).increment();
        Timer.builder("http.latency").register(registry).record(Duration.ofMillis(12));

        // the scrape PrometheusMeterRegistry gave: same names, same series
        String body = registry.scrape();  // or serve it: MetricsServer.builder(registry.metricsSource()).port(9400).build().start()
        // --- end ---
        assertTrue(body.contains("http_requests_total{method=\"GET\"} 1.0\n"), body);
        assertTrue(body.contains("http_latency_seconds_count 1\n"), body);
        assertTrue(body.contains("http_latency_seconds_sum 0.012\n"), body);
        assertTrue(body.contains("http_latency_seconds_max 0.012\n"), body);

        // statvar's own exporter shows the same meters as statvar stats
        StatExporter exporter = StatExporter.of(stats);
        exporter.accept(stats.collect());
        String text = exporter.prometheusText();
        assertTrue(text.contains("http_requests_total{method=\"GET\"} 1\n"), text);
        assertTrue(text.contains("http_latency_seconds_count 1\n"), text);
    }
}
