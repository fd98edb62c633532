package dev.statvar.export;

import dev.statvar.export.internal.http.HttpFrontEnd;
import dev.statvar.export.internal.http.HttpRequestHead;
import static dev.statvar.export.MetricsServerTest.IO_TIMEOUT_MS;
import static dev.statvar.export.MetricsServerTest.awaitTrue;
import static dev.statvar.export.MetricsServerTest.get;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statvar.export.MetricsServerTest.Response;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients that do not read their responses, or pipeline without bound (issue 32 point 1), on loopback:
 * such a connection is closed when its response makes no progress, gives way to a new connection at the
 * connection bound, and is answered at most {@link HttpFrontEnd#MAX_PIPELINED} requests in a row.
 */
class HttpFrontEndNonReadingTest {
    /** Far more than loopback socket buffers hold: a client that does not read blocks the write. */
    private static final String HUGE = "x".repeat(64 << 20);
    private static final MetricsSource HUGE_SOURCE = new MetricsSource() {
        @Override public String prometheusText() { return HUGE; }
        @Override public String openMetricsText() { return HUGE; }
        @Override public String json() { return HUGE; }
    };

    private static Socket nonReading(MetricsServer server) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(4096);
        s.connect(server.address(), IO_TIMEOUT_MS);
        s.getOutputStream().write(MetricsServerTest.request("GET", "/metrics").getBytes(ISO_8859_1)); // never read
        return s;
    }

    /**
     * A response the client stops reading is closed once no byte has been taken for the header time limit
     * (1 s here), long before the response time limit (60 s here).
     */
    @Test
    @Timeout(60)
    void aResponseThatMakesNoProgressIsClosedAtTheHeaderLimitNotTheResponseLimit() throws Exception {
        try (MetricsServer server = MetricsServer.builder(HUGE_SOURCE).port(0).headerTimeLimit(Duration.ofSeconds(1))
                .responseTimeLimit(Duration.ofSeconds(60)).build().start();
             Socket s = nonReading(server)) {
            long t0 = System.nanoTime();
            awaitTrue(() -> server.stalledResponsesClosed() == 1, Duration.ofSeconds(20),
                    "the stalled response closed within 20 s (response limit 60 s)");
            long took = System.nanoTime() - t0;
            assertTrue(took >= TimeUnit.MILLISECONDS.toNanos(900), "closed after " + took / 1_000_000 + " ms");
            System.out.printf("a response making no progress closed after %d ms (progress limit 1000 ms)%n",
                    took / 1_000_000);
        }
    }

    /**
     * Two connections, each with a response it does not read, fill a bound of 2: a third connection is
     * served, and the one whose response progressed least recently is closed to make room.
     */
    @Test
    @Timeout(60)
    void atTheBoundANewConnectionClosesTheOneThatHasNotReadForLongest() throws Exception {
        try (MetricsServer server = MetricsServer.builder(HUGE_SOURCE).port(0).maxConnections(2).build().start();
             Socket first = nonReading(server)) {
            awaitTrue(() -> server.activeExchanges() == 0 && server.openConnections() == 1, Duration.ofSeconds(60),
                    "the first response being written");
            try (Socket second = nonReading(server)) {
                awaitTrue(() -> server.activeExchanges() == 0 && server.openConnections() == 2, Duration.ofSeconds(60),
                        "the second response being written");
                Response r = get(server, "/-/healthy");
                assertEquals(200, r.status(), "a third connection is served");
                assertEquals(1, server.stalledResponsesClosed(), "one non-reading connection closed");
                assertEquals(0, server.rejectedConnections());
                assertClosed(first);
            }
        }
    }

    /** Reads what the server sent until it closes (EOF or reset): the connection must end. */
    private static void assertClosed(Socket s) throws IOException {
        s.setSoTimeout(IO_TIMEOUT_MS);
        InputStream in = s.getInputStream();
        byte[] buf = new byte[1 << 16];
        try {
            while (in.read(buf) != -1) {
                // what was sent before the close
            }
        } catch (java.net.SocketException reset) {
            // closed with unsent data: a reset
        }
    }

    /**
     * 40 requests pipelined at once on a connection that reads everything: 16 are answered, the 16th with
     * {@code Connection: close}, then the connection ends.
     */
    @Test
    @Timeout(60)
    void atMostSixteenPipelinedRequestsAreAnsweredInARow() throws Exception {
        try (MetricsServer server = MetricsServer.builder(new MetricsServerTest.FixedSource()).port(0).build().start();
             Socket s = MetricsServerTest.connect(server)) {
            StringBuilder pipeline = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                pipeline.append("GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            s.getOutputStream().write(pipeline.toString().getBytes(ISO_8859_1));
            String all = new String(MetricsServerTest.readToEof(s.getInputStream()), ISO_8859_1);
            int responses = all.split("HTTP/1.1 200 OK", -1).length - 1;
            assertEquals(HttpFrontEnd.MAX_PIPELINED, responses, "responses to 40 pipelined requests");
            assertEquals(1, all.split("Connection: close", -1).length - 1, "only the last one closes");
            assertTrue(all.lastIndexOf("Connection: close") > all.lastIndexOf("HTTP/1.1 200 OK"), "the 16th closes");
        }
    }
}
