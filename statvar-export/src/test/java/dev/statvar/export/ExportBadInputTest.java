package dev.statvar.export;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input to the export module, each with its exact exception and message, and what the exposition shows at the
 * edges of the long range. The HTTP side of bad clients (silent, garbage, half a request, saturation, wrong method
 * or path) is in MetricsServerTest; this adds clients that connect and hang up at once.
 */
class ExportBadInputTest {

    // ------------------------------------------------------------------ ExportOptions

    @Test
    void badBoundariesAndQuantilesFailNamingTheValues() {
        ExportOptions d = ExportOptions.defaults();
        assertMessage("histogram boundaries must be >= 0 and increasing: [-1]", () -> d.withBoundaries(-1));
        assertMessage("histogram boundaries must be >= 0 and increasing: [5, 2]", () -> d.withBoundaries(5, 2));
        assertMessage("histogram boundaries must be >= 0 and increasing: [5, 5]", () -> d.withBoundaries(5, 5));
        long[] many = new long[65];
        Arrays.setAll(many, i -> i);
        assertMessage("at most 64 histogram boundaries, got 65", () -> d.withBoundaries(many));
        assertMessage("quantiles must be in (0, 1], was 0.0", () -> d.withQuantiles(0));
        assertMessage("quantiles must be in (0, 1], was 1.5", () -> d.withQuantiles(0.5, 1.5));
        assertMessage("quantiles must be in (0, 1], was NaN", () -> d.withQuantiles(Double.NaN));
        // fixed: a repeated quantile used to be accepted and wrote the same series twice (and a JSON key twice)
        assertMessage("quantile 0.5 is given twice: [0.5, 0.9, 0.5]", () -> d.withQuantiles(0.5, 0.9, 0.5));
        assertEquals(0, d.withBoundaries().histogramBoundaries().length, "no boundaries: only le=\"+Inf\"");
        assertEquals(2, d.withQuantiles(0.99, 0.5).quantiles().length, "any order");
    }

    @Test
    void badNanosecondStatNamesFailNamingTheName() {
        ExportOptions d = ExportOptions.defaults();
        // fixed: a null name used to fail with a message-less NullPointerException (List.of), an invalid one was
        // accepted and silently did nothing (no stat can have it)
        assertMessage("nanosAsSeconds: a stat name is null", () -> d.withNanosecondsAsSeconds("ok", null));
        assertMessage("nanosAsSeconds: invalid stat name 'request-duration'; names must match [a-zA-Z_:][a-zA-Z0-9_:]*",
                () -> d.withNanosecondsAsSeconds("request-duration"));
        Set<String> withNull = new HashSet<>();
        withNull.add(null);
        assertMessage("nanosAsSeconds: a stat name is null",
                () -> new ExportOptions(ExportOptions.defaultBoundaries(), ExportOptions.defaultQuantiles(), withNull));
        assertEquals(Set.of("a", "b:c"), d.withNanosecondsAsSeconds("a", "b:c").nanosAsSeconds());
    }

    @Test
    void nullsFailNamingTheParameter() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> new StatExporter(null));
        assertEquals("options", e.getMessage());
        // fixed: accept(null) used to fail inside ExportState with "because "s" is null"
        e = assertThrows(NullPointerException.class, () -> new StatExporter().accept(null));
        assertEquals("snapshot", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> MetricsServer.builder(null));
        assertEquals("source", e.getMessage());
        e = assertThrows(NullPointerException.class, () -> MetricsServer.builder(new StatExporter()).bindAddress(null));
        assertEquals("host", e.getMessage());
    }

    // ------------------------------------------------------------------ MetricsServer configuration

    @Test
    void badServerSettingsFailNamingTheValue() {
        MetricsServer.Builder b = MetricsServer.builder(new StatExporter());
        assertMessage("port -1 not in 0..65535", () -> b.port(-1));
        assertMessage("port 65536 not in 0..65535", () -> b.port(65536));
        assertMessage("threads 0 < 1", () -> b.threads(0));
        assertMessage("queueCapacity -4 < 1", () -> b.queueCapacity(-4));
        assertMessage("exchange time limit must be positive: PT0S", () -> b.exchangeTimeLimit(Duration.ZERO));
        assertMessage("header time limit must be positive: PT-1S", () -> b.headerTimeLimit(Duration.ofSeconds(-1)));
        assertMessage("header time limit must be positive: PT0S", () -> b.headerTimeLimit(Duration.ZERO));
        assertMessage("response time limit must be positive: PT0S", () -> b.responseTimeLimit(Duration.ZERO));
        assertMessage("maxConnections 0 < 1", () -> b.maxConnections(0));
    }

    @Test
    void aPortInUseOrAnUnknownHostFailsAtStartNamingTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            MetricsServer s = MetricsServer.builder(new StatExporter()).port(port).build();
            // fixed: the JDK's message is just "Address already in use"
            BindException e = assertThrows(BindException.class, s::start);
            assertTrue(e.getMessage().startsWith("cannot bind 127.0.0.1:" + port + ": Address already in use"), e.getMessage());
            s.close();
        }
        MetricsServer s = MetricsServer.builder(new StatExporter()).bindAddress("no-such-host.invalid").port(0).build();
        UnknownHostException e = assertThrows(UnknownHostException.class, s::start);
        assertTrue(e.getMessage().startsWith("no-such-host.invalid"), e.getMessage());
        s.close();
    }

    // ------------------------------------------------------------------ the exposition at the edges of the long range

    /**
     * Documented (docs/EXPORT.md): a counter's {@code _total} wraps modulo 2^64 and is written unsigned, so it keeps
     * growing past 2^63 - 1 up to 2^64 - 1; a gauge's {@code _sum} is a signed long, modulo 2^64; a histogram's
     * {@code _sum} is written unsigned, modulo 2^64. Past 2^64 a total wraps: Prometheus sees a counter reset.
     */
    @Test
    void totalsPastLongMaxValueAreWrittenUnsignedAndWrapModulo2To64() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("big_total");
        Gauge g = r.gauge("level");
        Histogram h = r.histogram("size");
        StatExporter ex = new StatExporter(ExportOptions.defaults().withBoundaries(1000).withQuantiles(0.5));
        c.add(Long.MAX_VALUE);
        g.report(Long.MAX_VALUE);
        h.record(Long.MAX_VALUE);
        ex.accept(r.collect());
        c.add(10);
        g.report(1);
        h.record(5);
        ex.accept(r.collect());
        String prom = ex.prometheusText();
        assertTrue(prom.contains("\nbig_total 9223372036854775817\n"), prom); // 2^63 + 9: unsigned
        assertTrue(prom.contains("\nlevel_sum -9223372036854775808\n"), prom); // MAX + 1, signed: wrapped
        assertTrue(prom.contains("\nlevel_count 2\n"), prom);
        assertTrue(prom.contains("\nsize_sum 9223372036854775812\n"), prom); // MAX + 5: unsigned
        assertTrue(prom.contains("\nsize_count 2\n"), prom);
        assertTrue(prom.contains("\nsize_bucket{le=\"+Inf\"} 2\n"), prom);
        String om = ex.openMetricsText();
        assertTrue(om.contains("\nbig_total 9223372036854775817\n"), om);
        String json = ex.json();
        assertTrue(json.contains("\"total\":{\"value\":9223372036854775817}"), json);
        // the histogram's mean since start reads the sum unsigned (HistogramValue.mean): 4.6e18, exact below 2^64
        String total = "\"total\":{\"count\":2,\"sum\":9223372036854775812,\"min\":5,\"max\":9223372036854775807,\"mean\":";
        int at = json.indexOf(total);
        assertTrue(at >= 0, json);
        String mean = json.substring(at + total.length(), json.indexOf(',', at + total.length()));
        assertEquals((Math.pow(2, 63) + 4) / 2, Double.parseDouble(mean), json); // (MAX + 5) / 2, about 4.6e18

        c.add(Long.MAX_VALUE - 9); // the total reaches 2^64 - 1 ...
        ex.accept(r.collect());
        assertTrue(ex.prometheusText().contains("\nbig_total 18446744073709551615\n"));
        c.add(1); // ... and wraps to 0, which the exporter sees and counts (CounterWrapTest)
        dev.statvar.Snapshot last = r.collect();
        ex.accept(last);
        assertTrue(ex.prometheusText().contains("\nbig_total 18446744073709551616\n"), "2^64, not a reset");
        assertEquals(1, last.counter("big_total"), "the interval value stays exact");
    }

    // ------------------------------------------------------------------ clients that hang up at once

    /**
     * Clients that connect and close at once, or write garbage and close without reading: scrapes go on, every
     * one with the full body. (Silent, garbage, half-request and saturating clients: MetricsServerTest.)
     */
    @Test
    void clientsThatHangUpAtOnceDoNotDisturbScrapes() throws Exception {
        StatRegistry r = StatRegistry.create();
        r.counter("c").add(3);
        StatExporter ex = new StatExporter();
        ex.accept(r.collect());
        String expected = ex.prometheusText();
        try (MetricsServer server = MetricsServer.builder(ex).port(0).build().start()) {
            for (int i = 0; i < 30; i++) {
                try (Socket s = new Socket("127.0.0.1", server.port())) {
                    s.setSoLinger(true, 0); // half of them reset the connection instead of closing it
                    if (i % 2 == 0) {
                        OutputStream out = s.getOutputStream();
                        out.write("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                }
                try (Socket s = new Socket("127.0.0.1", server.port())) {
                    s.getOutputStream().write(new byte[]{0, 1, 2, '\r', '\n', '\r', '\n'});
                    s.shutdownOutput();
                    s.setSoTimeout(10_000);
                    InputStream in = s.getInputStream();
                    while (in.read() >= 0) {
                        // whatever the server answers (400) or closes: read to the end
                    }
                }
            }
            HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            HttpRequest get = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                    .timeout(Duration.ofSeconds(30)).build();
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> resp = client.send(get, HttpResponse.BodyHandlers.ofString());
                assertEquals(200, resp.statusCode());
                assertEquals(expected, resp.body());
            }
            assertEquals(0, server.rejectedConnections(), "nothing was rejected");
        }
    }

    private static void assertMessage(String message, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertEquals(message, e.getMessage());
    }

    @Test
    void theDefaultsCannotBeChangedThroughTheArraysHandedOut() {
        long[] b = ExportOptions.defaultBoundaries();
        double[] q = ExportOptions.defaultQuantiles();
        b[0] = 99;
        q[0] = 0.01;
        org.junit.jupiter.api.Assertions.assertEquals(1, ExportOptions.defaults().histogramBoundaries()[0]);
        org.junit.jupiter.api.Assertions.assertEquals(0.5, ExportOptions.defaults().quantiles()[0]);
        org.junit.jupiter.api.Assertions.assertEquals(1, ExportOptions.defaultBoundaries()[0]);
        org.junit.jupiter.api.Assertions.assertEquals(31, ExportOptions.defaultBoundaries().length);
    }
}
