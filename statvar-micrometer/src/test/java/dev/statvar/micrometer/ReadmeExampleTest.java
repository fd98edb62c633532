package dev.statvar.micrometer;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.export.StatExporter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** README's "From Micrometer" example, as written there, and what its scrape shows. */
class ReadmeExampleTest {
    @Test
    void theReadmeExampleRunsAndScrapesInPrometheusNames() {
        // --- README ---
        StatRegistry stats = StatRegistry.create();
        MeterRegistry registry = new StatvarMeterRegistry(stats);  // was: new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)

        // the service's instrumentation, unchanged
        Counter.builder("http.requests").tag("method", "GET").register(registry).increment();
        Timer.builder("http.latency").register(registry).record(Duration.ofMillis(12));

        // scrape with statvar-export: the names micrometer-registry-prometheus used
        StatExporter exporter = StatExporter.of(stats);
        try (StatCollector engine = stats.startCollector(Duration.ofSeconds(10), exporter)) {
            // MetricsServer.builder(exporter).port(9400).build().start() ...
        }
        // --- end ---
        String text = exporter.prometheusText();
        assertTrue(text.contains("http_requests_total{method=\"GET\"} 1\n"), text);
        assertTrue(text.contains("http_latency_seconds_count 1\n"), text);
        assertTrue(text.contains("http_latency_seconds_sum 0.012\n"), text);
    }
}
