package dev.statvar.probes;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.MetricsServer;
import dev.statvar.export.StatExporter;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/PROBES.md's "Wiring it to Prometheus", as written there: the probes record into a registry
 * whose collector feeds statvar-export's endpoint, and a scrape shows their families in seconds.
 */
class PrometheusWiringTest {

    @Test
    void theProbesShowOnTheMetricsEndpoint() throws Exception {
        // --- docs/PROBES.md, "Wiring it to Prometheus" ---
        StatRegistry stats = StatRegistry.create();
        Lock ordersLock = new ContendedLock(stats, "orders_lock");
        StatExporter exporter = new StatExporter(stats, ExportOptions.defaults().withNanosecondsAsSeconds(
                "orders_lock_wait", "hiccup", JfrContention.MONITOR_ENTER, JfrContention.MONITOR_WAIT,
                JfrContention.THREAD_PARK));
        try (StatCollector engine = stats.startCollector(Duration.ofMillis(100), exporter);
             HiccupMeter hiccups = HiccupMeter.start(stats, "hiccup", Duration.ofMillis(1));
             JfrContention jfr = JfrContention.start(stats, Duration.ofMillis(1));
             MetricsServer http = MetricsServer.builder(exporter).port(0).build().start()) {
            // --- end of the excerpt ---
            Thread holder = new Thread(() -> {
                ordersLock.lock();
                try {
                    LockSupport.parkNanos(50_000_000L);
                } finally {
                    ordersLock.unlock();
                }
            });
            holder.start();
            while (!((ContendedLock) ordersLock).isLocked()) {
                LockSupport.parkNanos(100_000);
            }
            ordersLock.lock(); // waits for the holder
            ordersLock.unlock();
            holder.join();
            String body = "";
            for (int i = 0; i < 100 && !(body.contains("orders_lock_contended_total{") && body.contains("hiccup_seconds_count")
                    && body.contains("jfr_thread_park_duration_seconds_count{")); i++) {
                Thread.sleep(100);
                body = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http.port()
                        + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            }
            assertTrue(body.contains("# TYPE orders_lock_acquired_total counter"), body);
            assertTrue(body.matches("(?s).*\norders_lock_contended_total\\{site=\"[^\"]+PrometheusWiringTest[^\"]+\"} 1\n.*"),
                    "one contended acquisition under the test's creation site:\n" + body);
            assertTrue(body.contains("# TYPE orders_lock_wait_seconds histogram"), body);
            assertTrue(body.contains("# TYPE hiccup_seconds histogram"), body);
            assertTrue(body.contains("jfr_thread_park_duration_seconds_count{"), "JFR saw the 50 ms park:\n" + body);
        }
    }
}
