package dev.statvar.lab;

import dev.statvar.testkit.PrometheusServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Tag;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A real Prometheus (Debian's {@code prometheus} package) scrapes the {@link Demo} on loopback;
 * its query API must give exactly what the demo's workers did. Prometheus asks for OpenMetrics
 * first, so this checks that format with the reference parser ({@code .ci/run} checks the 0.0.4
 * text with {@code promtool check metrics}). Skipped, with a message, where the package is missing.
 */
@Tag("thorough")
@Timeout(180)
class PrometheusIntegrationTest {

    @Test
    void prometheusScrapesTheDemoAndSeesExactlyWhatItDid() throws Exception {
        try (Demo demo = Demo.start("127.0.0.1", 0, 2, Duration.ofMillis(200), null);
             PrometheusServer prom = PrometheusServer.scraping(demo.port())) {
            assertEquals(1.0, prom.query("up"), "the scrape succeeded");
            assertEquals("", prom.targetLastError());
            demo.finish(); // workers joined, last interval handed to the exporter
            long handled = demo.handled();
            prom.awaitValue("sum(" + Demo.REQUESTS + ")", handled);
            prom.awaitValue("sum(" + Demo.DURATION + "_seconds_count)", handled);
            prom.awaitValue("sum(" + Demo.DURATION + "_seconds_bucket{le=\"+Inf\"})", handled);
            prom.awaitValue(Demo.RESPONSE_BYTES + "_count", handled);
            prom.awaitValue(Demo.IN_FLIGHT + "_count", 2.0 * handled); // a report as each request starts and ends
            assertEquals(handled, Math.round(prom.query("sum(" + Demo.REQUESTS + ")")));
            assertEquals("", prom.targetLastError());
        }
    }
}
