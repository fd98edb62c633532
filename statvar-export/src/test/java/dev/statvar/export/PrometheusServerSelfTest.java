package dev.statvar.export;

import dev.statvar.testkit.PrometheusServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Tag;

/**
 * Proves the {@link PrometheusServer} harness on its own, independently of statvar's exporter: a
 * real Prometheus scrapes a fixed exposition served by a JDK {@link HttpServer} on loopback, and
 * the values that Prometheus's query API returns are the ones served. Skipped (assumption) when
 * Debian's {@code prometheus} package is not installed.
 */
@Tag("thorough")
@Timeout(120)
class PrometheusServerSelfTest {

    private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

    private final AtomicReference<String> exposition = new AtomicReference<>(demo(42));
    private HttpServer target;

    @BeforeEach
    void startTarget() throws IOException {
        target = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        target.createContext("/metrics", exchange -> {
            byte[] body = exposition.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", TEXT_FORMAT);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        target.start();
    }

    @AfterEach
    void stopTarget() {
        target.stop(0);
    }

    @Test
    void firstScrapeIsQueryable() throws Exception {
        try (PrometheusServer prom = PrometheusServer.scraping(target.getAddress().getPort())) {
            assertEquals(42.0, prom.query("demo_requests_total"));
            assertEquals(1.0, prom.query("up"));
            assertEquals("up", prom.targetHealth());
            assertEquals("", prom.targetLastError());
            // a scalar result is read too
            assertEquals(84.0, prom.query("scalar(demo_requests_total) * 2"));
        }
    }

    @Test
    void changedValueIsSeenWithinBoundedWait() throws Exception {
        try (PrometheusServer prom = PrometheusServer.scraping(target.getAddress().getPort())) {
            assertEquals(42.0, prom.query("demo_requests_total"));
            exposition.set(demo(1_000_043));
            long t0 = System.nanoTime();
            prom.awaitValue("demo_requests_total", 1_000_043, Duration.ofSeconds(30));
            Duration took = Duration.ofNanos(System.nanoTime() - t0);
            assertTrue(took.compareTo(Duration.ofSeconds(30)) < 0, "took " + took);
            assertEquals("", prom.targetLastError());
        }
    }

    @Test
    void brokenExpositionShowsInTargetLastError() throws Exception {
        try (PrometheusServer prom = PrometheusServer.scraping(target.getAddress().getPort())) {
            exposition.set("# TYPE demo_requests_total counter\ndemo_requests_total not-a-number\n");
            prom.awaitValue("up", 0); // a failed scrape sets up to 0
            String error = prom.targetLastError();
            assertTrue(!error.isEmpty(), "lastError empty after a failed scrape");
            assertEquals("down", prom.targetHealth());
        }
    }

    private static String demo(long value) {
        return "# HELP demo_requests_total Requests.\n"
                + "# TYPE demo_requests_total counter\n"
                + "demo_requests_total " + value + "\n";
    }
}
