package dev.statvar.example.boot;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The example as it runs (its application.properties, a random port): orders placed show on /actuator/prometheus. */
@Timeout(60)
class ExampleApplicationTest {
    @Test
    void ordersPlacedShowInStatvarsScrape() throws Exception {
        try (ConfigurableApplicationContext app = SpringApplication.run(ExampleApplication.class,
                "--server.port=0", "--management.statvar.metrics.export.step=100ms")) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            HttpClient http = HttpClient.newHttpClient();
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = http.send(request(port, "/orders?region=eu"), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertEquals("order placed in eu at 102\n", r.body());
            }
            // parks between scrapes (10 ms doubling to 200 ms) until an interval holds the 3 orders; at most 30 s
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            long pause = TimeUnit.MILLISECONDS.toNanos(10);
            String scrape;
            while (!(scrape = http.send(request(port, "/actuator/prometheus"), HttpResponse.BodyHandlers.ofString()).body())
                    .contains("orders_placed_total{region=\"eu\"} 3.0\n")) { // PrometheusMeterRegistry writes counters as doubles
                assertTrue(System.nanoTime() < deadline, "3 orders in the scrape within 30 s; last:\n" + scrape);
                LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(200));
            }
            assertTrue(scrape.contains("orders_pricing_seconds_count 3\n"), scrape);
        }
    }

    private static HttpRequest request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10)).build();
    }
}
