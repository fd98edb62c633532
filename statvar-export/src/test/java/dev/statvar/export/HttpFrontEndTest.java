package dev.statvar.export;

import dev.statvar.export.internal.http.HttpFrontEnd;
import dev.statvar.export.internal.http.HttpRequestHead;
import static dev.statvar.export.MetricsServerTest.IO_TIMEOUT_MS;
import static dev.statvar.export.MetricsServerTest.assertClosedByServer;
import static dev.statvar.export.MetricsServerTest.assertFullBody;
import static dev.statvar.export.MetricsServerTest.awaitTrue;
import static dev.statvar.export.MetricsServerTest.connect;
import static dev.statvar.export.MetricsServerTest.get;
import static dev.statvar.export.MetricsServerTest.parse;
import static dev.statvar.export.MetricsServerTest.readToEof;
import static dev.statvar.export.MetricsServerTest.request;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.statvar.export.MetricsServerTest.FixedSource;
import dev.statvar.export.MetricsServerTest.Response;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The HTTP/1.1 front end of {@link MetricsServer} ({@link HttpFrontEnd}) on loopback: head size limit,
 * keep-alive and pipelining, bodies, the connection bound, and the response and render time limits.
 * Every wait is bounded by a generous deadline; no assertion depends on how fast something happens.
 */
class HttpFrontEndTest {
    private static final String HEALTHY = "statvar is healthy\n";

    private static MetricsServer start(MetricsServer.Builder b) throws IOException {
        return b.port(0).build().start();
    }

    /** Reads exactly one response (its head, then Content-Length bytes of body) from a kept-alive connection. */
    private static Response readOne(InputStream in) throws IOException {
        String head = MetricsServerTest.readHead(in);
        Response r = parse(head.getBytes(ISO_8859_1));
        int length = Integer.parseInt(r.header("Content-Length"));
        byte[] body = in.readNBytes(length);
        assertEquals(length, body.length, "a whole body");
        return new Response(r.status(), r.headers(), body);
    }

    @Test
    void aHeadOverSixteenKiBGets431AndIsClosed() throws Exception {
        try (MetricsServer server = start(MetricsServer.builder(new FixedSource()));
             Socket s = connect(server)) {
            StringBuilder big = new StringBuilder("GET /metrics HTTP/1.1\r\nHost: x\r\n");
            while (big.length() <= HttpRequestHead.MAX_HEAD_BYTES) {
                big.append("X-Filler: ").append("y".repeat(100)).append("\r\n");
            }
            s.getOutputStream().write(big.append("\r\n").toString().getBytes(ISO_8859_1));
            Response r = parse(readToEof(s.getInputStream()));
            assertEquals(431, r.status());
            assertEquals("close", r.header("Connection"));
            assertEquals(200, get(server, "/-/healthy").status());
        }
    }

    @Test
    void keepAliveAndPipelinedRequestsAreAnsweredInOrderOnOneConnection() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src));
             Socket s = connect(server)) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            for (int i = 0; i < 5; i++) { // one at a time, kept alive
                out.write("GET /stats.json HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
                Response r = readOne(in);
                assertEquals(200, r.status());
                assertEquals(src.json, r.text());
                assertEquals(null, r.header("Connection"), "kept alive");
            }
            // three at once (pipelined); the last one closes
            out.write(("GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\nHEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /stats.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
            assertEquals(HEALTHY, readOne(in).text());
            String head = MetricsServerTest.readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            Response last = parse(readToEof(in));
            assertEquals(src.json, last.text());
            assertEquals("close", last.header("Connection"));
            assertEquals(0, server.slowClientsClosed());
        }
    }

    /** Issue 32 point 7 on loopback: each bad head is answered 400 and closed; HTTP/1.0 without Host is served. */
    @Test
    void nulBareCrAndAMissingOrRepeatedHostGet400AndClose() throws Exception {
        String[] bad = {
            "GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n",
            "GET /metrics HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n",
            "GET /metrics HTTP/1.1\r\n\r\n",
            "GET /metrics HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
        };
        try (MetricsServer server = start(MetricsServer.builder(new FixedSource()))) {
            for (String head : bad) {
                try (Socket s = connect(server)) {
                    s.getOutputStream().write(head.getBytes(ISO_8859_1));
                    Response r = parse(readToEof(s.getInputStream()));
                    assertEquals(400, r.status(), head);
                    assertEquals("close", r.header("Connection"), head);
                }
            }
            try (Socket s = connect(server)) {
                s.getOutputStream().write("GET /-/healthy HTTP/1.0\r\n\r\n".getBytes(ISO_8859_1));
                assertEquals(HEALTHY, parse(readToEof(s.getInputStream())).text(), "HTTP/1.0 without Host");
            }
        }
    }

    @Test
    void http10AndRequestsWithABodyAreAnsweredAndClosed() throws Exception {
        try (MetricsServer server = start(MetricsServer.builder(new FixedSource()))) {
            try (Socket s = connect(server)) {
                s.getOutputStream().write("GET /-/healthy HTTP/1.0\r\n\r\n".getBytes(ISO_8859_1));
                Response r = parse(readToEof(s.getInputStream()));
                assertEquals(HEALTHY, r.text());
                assertEquals("close", r.header("Connection"));
            }
            try (Socket s = connect(server)) { // 100 KB of body the routes never read: the 405 still arrives whole
                byte[] body = new byte[100_000];
                s.getOutputStream().write(("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(ISO_8859_1));
                s.getOutputStream().write(body);
                Response r = parse(readToEof(s.getInputStream()));
                assertEquals(405, r.status());
                assertEquals("close", r.header("Connection"));
                assertEquals(String.valueOf(r.body().length), r.header("Content-Length"));
            }
        }
    }

    @Test
    void anIdleKeptAliveConnectionIsClosedAtTheHeaderLimitWithoutCountingAsSlow() throws Exception {
        try (MetricsServer server = start(MetricsServer.builder(new FixedSource()).headerTimeLimit(Duration.ofSeconds(1)));
             Socket s = connect(server)) {
            s.getOutputStream().write("GET /-/healthy HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(ISO_8859_1));
            assertEquals(HEALTHY, readOne(s.getInputStream()).text());
            assertClosedByServer(s, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IO_TIMEOUT_MS), "idle keep-alive");
            awaitTrue(() -> server.openConnections() == 0, Duration.ofSeconds(60), "no connection open");
            assertEquals(0, server.slowClientsClosed());
        }
    }

    @Test
    void aNewConnectionBeyondTheBoundClosesTheOldestWaitingOne() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src).maxConnections(3).headerTimeLimit(Duration.ofSeconds(60)));
             Socket oldest = connect(server);
             Socket second = connect(server)) {
            second.getOutputStream().write("GET /met".getBytes(ISO_8859_1)); // part of a request
            try (Socket third = connect(server)) {
                awaitTrue(() -> server.openConnections() == 3, Duration.ofSeconds(60), "three connections open");
                assertFullBody(get(server, "/metrics"), src.prometheus); // a fourth: the oldest waiting one makes room
                assertClosedByServer(oldest, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IO_TIMEOUT_MS), "oldest");
                assertEquals(1, server.slowClientsClosed(), "it never sent its request");
                assertTrue(server.openConnections() <= 3, "open: " + server.openConnections());
                second.getOutputStream().write("rics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(ISO_8859_1));
                assertFullBody(parse(readToEof(second.getInputStream())), src.prometheus);
            }
        }
    }

    @Test
    void whenEveryConnectionHasARequestBeingAnsweredANewOneIsClosedUnanswered() throws Exception {
        FixedSource fixed = new FixedSource();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MetricsSource blocking = new MetricsSource() {
            @Override public String prometheusText() {
                entered.countDown();
                try {
                    if (!release.await(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("test never released the source");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                return fixed.prometheus;
            }
            @Override public String openMetricsText() { return fixed.openMetrics; }
            @Override public String json() { return fixed.json; }
        };
        ExecutorService clients = Executors.newFixedThreadPool(1);
        try (MetricsServer server = start(MetricsServer.builder(blocking).maxConnections(1))) {
            Future<Response> busy = clients.submit(() -> get(server, "/metrics"));
            assertTrue(entered.await(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), "the first scrape reached the source");
            try (Socket s = connect(server)) {
                s.getOutputStream().write(request("GET", "/-/healthy").getBytes(ISO_8859_1));
                byte[] got;
                try {
                    got = readToEof(s.getInputStream());
                } catch (SocketException reset) {
                    got = new byte[0];
                }
                assertEquals("", new String(got, ISO_8859_1), "closed without a response");
            } finally {
                release.countDown();
            }
            assertEquals(1, server.rejectedConnections());
            assertFullBody(busy.get(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), fixed.prometheus);
        } finally {
            release.countDown();
            clients.shutdownNow();
            assertTrue(clients.awaitTermination(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void aResponseTheClientDoesNotReadIsClosedAtTheResponseLimit() throws Exception {
        String huge = "x".repeat(64 << 20); // far more than loopback socket buffers hold
        MetricsSource src = new MetricsSource() {
            @Override public String prometheusText() { return huge; }
            @Override public String openMetricsText() { return huge; }
            @Override public String json() { return huge; }
        };
        try (MetricsServer server = start(MetricsServer.builder(src).responseTimeLimit(Duration.ofSeconds(1)));
             Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(server.address(), IO_TIMEOUT_MS);
            s.getOutputStream().write(request("GET", "/metrics").getBytes(ISO_8859_1)); // and never read
            awaitTrue(() -> server.stalledResponsesClosed() == 1, Duration.ofSeconds(60), "the stalled response closed");
            assertEquals(200, get(server, "/-/healthy").status());
        }
    }

    /** A render past the exchange limit: the connection closes without a response even if the render ignores the interrupt. */
    @Test
    void aRenderOverTheExchangeLimitIsClosedWithoutAResponse() throws Exception {
        CountDownLatch first = new CountDownLatch(1);
        MetricsSource src = new MetricsSource() {
            @Override public String prometheusText() {
                if (first.getCount() > 0) {
                    first.countDown();
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IO_TIMEOUT_MS);
                    while (!Thread.currentThread().isInterrupted() && end - System.nanoTime() > 0) {
                        LockSupport.parkNanos(end - System.nanoTime());
                    }
                    Thread.interrupted(); // ignores the interrupt and returns a body anyway
                }
                return "late\n";
            }
            @Override public String openMetricsText() { return "late\n"; }
            @Override public String json() { return "{}\n"; }
        };
        try (MetricsServer server = start(MetricsServer.builder(src).threads(1).exchangeTimeLimit(Duration.ofSeconds(1)));
             Socket s = connect(server)) {
            s.getOutputStream().write(request("GET", "/metrics").getBytes(ISO_8859_1));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                got.write(readToEof(s.getInputStream()));
            } catch (SocketException reset) {
                // closed by a reset: nothing received either
            }
            assertEquals("", got.toString(ISO_8859_1), "no response after the limit");
            assertEquals(1, server.timedOutExchanges());
            assertEquals("late\n", get(server, "/metrics").text(), "the same worker serves the next request");
        }
    }
}
