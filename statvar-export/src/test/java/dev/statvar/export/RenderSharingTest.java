package dev.statvar.export;

import static dev.statvar.export.MetricsServerTest.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statvar.HistogramPrecision;
import dev.statvar.StatRegistry;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A body is rendered once per interval and format and shared by every scrape of it (issue 32 point 1):
 * {@link StatExporter} returns the same {@code String}, and the endpoint encodes and gzips it once.
 */
class RenderSharingTest {

    /** An exporter of a registry whose Prometheus body is about 150 KB, after one interval. */
    static StatExporter exporterOfAbout150KB() {
        StatRegistry r = StatRegistry.create();
        var family = r.histogramFamily("request_duration", "request duration, ns", HistogramPrecision.DEFAULT, "route");
        for (int i = 0; i < 60; i++) {
            var h = family.labels("/route/" + i);
            for (int v = 1; v < 1 << 20; v = v * 3 + i) {
                h.record(v);
            }
        }
        for (int i = 0; i < 400; i++) {
            r.counterFamily("requests_total", "requests", "shard").labels(Integer.toString(i)).add(i);
        }
        StatExporter ex = StatExporter.of(r);
        ex.accept(r.collect());
        return ex;
    }

    @Test
    void scrapesOfOneIntervalShareOneBodyPerFormat() {
        StatRegistry r = StatRegistry.create();
        r.counter("requests_total", "requests").add(3);
        StatExporter ex = StatExporter.of(r);
        ex.accept(r.collect());
        String prometheus = ex.prometheusText();
        String openMetrics = ex.openMetricsText();
        String json = ex.json();
        for (int i = 0; i < 10; i++) {
            assertSame(prometheus, ex.prometheusText(), "Prometheus text of one interval, scrape " + i);
            assertSame(openMetrics, ex.openMetricsText(), "OpenMetrics text of one interval, scrape " + i);
            assertSame(json, ex.json(), "JSON of one interval, scrape " + i);
        }
        assertEquals(3, ex.renders(), "one render per format");

        r.counter("requests_total").add(4);
        ex.accept(r.collect()); // a new interval: rendered again, showing it
        String next = ex.prometheusText();
        assertNotSame(prometheus, next);
        assertTrue(next.contains("requests_total 7"), next);
        assertSame(next, ex.prometheusText());

        r.counter("late_total", "registered after the interval"); // a bound exporter shows it at once
        String withLate = ex.prometheusText();
        assertTrue(withLate.contains("late_total 0"), withLate);
        assertSame(withLate, ex.prometheusText());
        assertEquals(5, ex.renders(), "a new interval and a new stat: one render each");
    }

    /**
     * 200 scrapes of one interval through the endpoint (Prometheus and OpenMetrics, plain and gzip, GET
     * and HEAD): 2 renders in all. Prints the time of a render against that of a call served the shared body.
     */
    @Test
    @Timeout(120)
    void twoHundredScrapesOfOneIntervalCostTwoRenders() throws Exception {
        StatExporter ex = exporterOfAbout150KB();
        try (MetricsServer server = MetricsServer.builder(ex).port(0).build().start()) {
            for (int i = 0; i < 200; i++) {
                String accept = i % 2 == 0 ? "Accept: application/openmetrics-text" : "Accept: text/plain";
                String gzip = i % 4 < 2 ? "Accept-Encoding: gzip" : "Accept-Encoding: identity";
                MetricsServerTest.Response resp = i % 5 == 4
                        ? MetricsServerTest.send(server, MetricsServerTest.request("HEAD", "/metrics", accept, gzip))
                        : get(server, "/metrics", accept, gzip);
                assertEquals(200, resp.status(), "scrape " + i);
            }
        }
        assertEquals(2, ex.renders(), "200 scrapes, 2 formats");

        // the cost saved: time of a render of this ~150 KB body against a call served the shared one, on this
        // thread (the module does not read java.management, so elapsed time rather than CPU time)
        int n = 200;
        long rendered = 0;
        long shared = 0;
        for (int round = 0; round < 3; round++) { // the last round counts: the first ones warm up
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Exposition.render(ex.state(), ex.options(), Exposition.Format.PROMETHEUS_004, null);
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ex.prometheusText();
            }
            rendered = t1 - t0;
            shared = System.nanoTime() - t1;
        }
        assertTrue(shared < rendered, "shared " + shared + " ns, rendered " + rendered + " ns");
        System.out.printf(Locale.ROOT, "200 scrapes of one interval: %d renders; per call of a %d-char body:"
                        + " rendered %.1f us, shared %.3f us (x%.0f)%n", ex.renders(), ex.prometheusText().length(),
                rendered / 1e3 / n, shared / 1e3 / n, (double) rendered / Math.max(1, shared));
    }
}
