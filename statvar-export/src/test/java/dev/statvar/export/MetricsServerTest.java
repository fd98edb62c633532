package dev.statvar.export;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * Loopback only, port 0. Every wait is bounded by a generous deadline (this may run on a loaded 2-core
 * machine); no test depends on something happening within a short time.
 */
class MetricsServerTest {
    /** Upper bound for any single network wait. */
    static final int IO_TIMEOUT_MS = 60_000;
    private static final int MAX_RESPONSE_BYTES = 16 << 20;

    // ---- stub sources ----

    /** Fixed bodies; the Prometheus one is large (about 150 KB) so that partial bodies show. */
    static final class FixedSource implements MetricsSource {
        final String prometheus;
        final String openMetrics;
        final String json = "{\"stats\":{\"requests\":42}}\n";
        final AtomicInteger calls = new AtomicInteger();
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        FixedSource() {
            StringBuilder p = new StringBuilder("# HELP requests requests handled\n# TYPE requests counter\n");
            for (int i = 0; i < 4000; i++) {
                p.append("requests{shard=\"").append(i).append("\"} ").append(i * 7L).append('\n');
            }
            prometheus = p.toString();
            openMetrics = "# TYPE requests counter\nrequests_total 42\n# EOF\n";
        }

        private void called() {
            calls.incrementAndGet();
            threads.add(Thread.currentThread().getName());
        }

        @Override public String prometheusText() { called(); return prometheus; }
        @Override public String openMetricsText() { called(); return openMetrics; }
        @Override public String json() { called(); return json; }
    }

    static MetricsServer start(MetricsServer.Builder b) throws IOException {
        return b.port(0).build().start();
    }

    // ---- a raw HTTP/1.1 client: full control over bytes, no pooling, no retries ----

    record Response(int status, Map<String, String> headers, byte[] body) {
        String header(String name) { return headers.get(name.toLowerCase(Locale.ROOT)); }
        String text() { return new String(body, UTF_8); }
    }

    static String request(String method, String path, String... headerLines) {
        StringBuilder sb = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1\r\nConnection: close\r\n");
        for (String h : headerLines) {
            sb.append(h).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    static Socket connect(MetricsServer server) throws IOException {
        Socket s = new Socket();
        s.connect(server.address(), IO_TIMEOUT_MS);
        s.setSoTimeout(IO_TIMEOUT_MS);
        return s;
    }

    /** Sends one request with Connection: close and reads the response up to EOF. */
    static Response send(MetricsServer server, String request) throws IOException {
        try (Socket s = connect(server)) {
            s.getOutputStream().write(request.getBytes(ISO_8859_1));
            s.getOutputStream().flush();
            return parse(readToEof(s.getInputStream()));
        }
    }

    static Response get(MetricsServer server, String path, String... headers) throws IOException {
        return send(server, request("GET", path, headers));
    }

    static byte[] readToEof(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        for (int n; (n = in.read(buf)) != -1; ) {
            all.write(buf, 0, n);
            if (all.size() > MAX_RESPONSE_BYTES) {
                fail("response larger than " + MAX_RESPONSE_BYTES + " bytes");
            }
        }
        return all.toByteArray();
    }

    /** Reads a response head (status line and headers) byte by byte, nothing past its blank line. */
    static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b == -1) {
                fail("EOF inside response headers: " + sb);
            }
            sb.append((char) b);
            if (sb.length() > 64 * 1024) {
                fail("response headers too long");
            }
        }
        return sb.toString();
    }

    static Response parse(byte[] raw) {
        String text = new String(raw, ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        assertTrue(end > 0, () -> "no complete response head in " + raw.length + " bytes: " + text);
        String[] lines = text.substring(0, end).split("\r\n");
        assertTrue(lines[0].startsWith("HTTP/1.1 "), lines[0]);
        int status = Integer.parseInt(lines[0].substring(9, 12));
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.merge(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim(), (a, b) -> a + ", " + b);
        }
        byte[] body = new byte[raw.length - end - 4];
        System.arraycopy(raw, end + 4, body, 0, body.length);
        return new Response(status, headers, body);
    }

    static void assertFullBody(Response r, String expected) {
        assertEquals(expected, r.text());
        assertEquals(String.valueOf(r.body().length), r.header("Content-Length"));
    }

    static void awaitTrue(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + timeout + " waiting for " + what);
            }
            Thread.sleep(10); // polling interval only, not a timing assumption
        }
    }

    /** Waits, up to the deadline, for the server to close {@code s}; bytes it sends first (a 400) are skipped. */
    static void assertClosedByServer(Socket s, long deadlineNanos, String what) throws IOException {
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        for (int total = 0; total < 1 << 20; ) {
            long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime());
            if (remainingMs <= 0) {
                fail(what + ": connection still open at the deadline");
            }
            s.setSoTimeout((int) Math.min(remainingMs, Integer.MAX_VALUE));
            int n;
            try {
                n = in.read(buf);
            } catch (SocketTimeoutException e) {
                fail(what + ": connection still open at the deadline");
                return;
            } catch (SocketException e) {
                return; // reset by the server: closed
            }
            if (n == -1) {
                return; // EOF: closed
            }
            total += n;
        }
        fail(what + ": endless data instead of a close");
    }

    // ---- routes and formats ----

    @Test
    void metricsServesPrometheusTextByDefault() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            for (String accept : new String[] {null, "Accept: text/plain;version=0.0.4;q=0.5,*/*;q=0.1"}) {
                Response r = accept == null ? get(server, "/metrics") : get(server, "/metrics", accept);
                assertEquals(200, r.status());
                assertEquals("text/plain; version=0.0.4; charset=utf-8", r.header("Content-Type"));
                assertFullBody(r, src.prometheus);
                assertTrue(r.header("Vary").contains("Accept-Encoding"), r.header("Vary"));
                assertEquals(null, r.header("Content-Encoding"));
            }
        }
    }

    @Test
    void metricsServesOpenMetricsWhenAccepted() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            // what Prometheus sends
            Response r = get(server, "/metrics", "Accept: application/openmetrics-text;version=1.0.0,"
                    + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");
            assertEquals(200, r.status());
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8", r.header("Content-Type"));
            assertFullBody(r, src.openMetrics);
            assertTrue(r.text().endsWith("# EOF\n"));
        }
    }

    /** RFC 9110 negotiation over HTTP (ContentNegotiationTest has the rules case by case). */
    @Test
    void metricsHonoursQualitiesAndAnswers406WhenNothingIsAcceptable() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            // q=0 refuses OpenMetrics (a substring match served it before)
            Response refused = get(server, "/metrics", "Accept: application/openmetrics-text;q=0");
            assertEquals(200, refused.status());
            assertFullBody(refused, src.prometheus);
            // an OpenMetrics version statvar does not write is not 1.0.0
            assertFullBody(get(server, "/metrics", "Accept: application/openmetrics-text;version=0.0.1"), src.prometheus);
            // the scraper's weights decide
            assertFullBody(get(server, "/metrics",
                    "Accept: text/plain;q=0.9, application/openmetrics-text;version=1.0.0;q=0.5"), src.prometheus);
            // nothing acceptable remains: 406, and the connection serves the next request
            Response none = get(server, "/metrics", "Accept: text/plain;q=0, application/json");
            assertEquals(406, none.status());
            assertTrue(none.text().startsWith("not acceptable"), none.text());
            // malformed ranges are ignored, never a 500
            assertFullBody(get(server, "/metrics", "Accept: a/;q=x, ;;, */plain"), src.prometheus);
        }
    }

    @Test
    void queryStringIsIgnored() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            assertFullBody(get(server, "/metrics?x=1"), src.prometheus);
            assertFullBody(get(server, "/stats.json?pretty=true&a=b"), src.json);
            assertEquals(HEALTHY, get(server, "/-/healthy?probe").text());
        }
    }

    private static final String HEALTHY = "statvar is healthy\n";

    @Test
    void statsJsonHasJsonContentType() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            Response r = get(server, "/stats.json");
            assertEquals(200, r.status());
            assertEquals("application/json; charset=utf-8", r.header("Content-Type"));
            assertFullBody(r, src.json);
        }
    }

    @Test
    void healthyAnswersWithoutCallingTheSource() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            Response r = get(server, "/-/healthy");
            assertEquals(200, r.status());
            assertTrue(r.header("Content-Type").startsWith("text/plain"), r.header("Content-Type"));
            assertFullBody(r, HEALTHY);
            assertEquals(0, src.calls.get());
        }
    }

    @Test
    void unknownPathsAre404() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            for (String path : new String[] {"/", "/metricsx", "/metrics/", "/stats.json/x", "/-/healthy/", "/METRICS",
                    "/metric%73", "/-/ready"}) {
                Response r = get(server, path);
                assertEquals(404, r.status(), path);
                assertTrue(r.header("Content-Type").startsWith("text/plain"), path);
                assertTrue(r.body().length > 0 && r.body().length < 200, path);
            }
            Response head = send(server, request("HEAD", "/nope"));
            assertEquals(404, head.status());
            assertEquals(0, head.body().length);
            assertEquals(0, src.calls.get());
        }
    }

    @Test
    void otherMethodsAre405WithAllow() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            for (String method : new String[] {"POST", "PUT", "DELETE", "OPTIONS", "PATCH"}) {
                for (String path : new String[] {"/metrics", "/stats.json", "/-/healthy"}) {
                    Response r = send(server, request(method, path, "Content-Length: 5") + "hello");
                    assertEquals(405, r.status(), method + " " + path);
                    assertEquals("GET, HEAD", r.header("Allow"), method + " " + path);
                    assertTrue(r.body().length > 0 && r.body().length < 200);
                }
            }
            assertEquals(0, src.calls.get());
        }
    }

    // ---- HEAD ----

    @Test
    void headHasTheGetHeadersAndNoBody() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            for (String[] c : new String[][] {
                    {"/metrics", "Accept: text/plain"},
                    {"/metrics", "Accept: application/openmetrics-text"},
                    {"/stats.json", "Accept: */*"},
                    {"/-/healthy", "Accept: */*"},
                    {"/metrics", "Accept-Encoding: gzip"}}) {
                Response g = get(server, c[0], c[1]);
                Response h = send(server, request("HEAD", c[0], c[1]));
                assertEquals(200, h.status());
                assertEquals(0, h.body().length, "bytes after the HEAD response headers");
                assertEquals(String.valueOf(g.body().length), h.header("Content-Length"), c[0] + " " + c[1]);
                assertEquals(g.header("Content-Type"), h.header("Content-Type"));
                assertEquals(g.header("Content-Encoding"), h.header("Content-Encoding"));
            }
            // keep-alive: the next response must follow the HEAD headers directly
            try (Socket s = connect(server)) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                out.write("HEAD /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(ISO_8859_1));
                out.flush();
                String head = readHead(in);
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
                out.write(request("GET", "/-/healthy").getBytes(ISO_8859_1));
                out.flush();
                Response next = parse(readToEof(in));
                assertEquals(200, next.status());
                assertEquals(HEALTHY, next.text());
            }
        }
    }

    // ---- gzip ----

    @Test
    void gzipRoundTrip() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            for (String ae : new String[] {"gzip", "deflate, gzip;q=0.8", "br;q=1.0, GZIP", "x-gzip"}) {
                Response r = get(server, "/metrics", "Accept-Encoding: " + ae);
                assertEquals(200, r.status());
                assertEquals("gzip", r.header("Content-Encoding"), ae);
                assertEquals(String.valueOf(r.body().length), r.header("Content-Length"));
                assertTrue(r.body().length < src.prometheus.length() / 2, "compressed");
                assertTrue(r.header("Vary").contains("Accept-Encoding"));
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
                    assertArrayEquals(src.prometheus.getBytes(UTF_8), in.readAllBytes(), ae);
                }
            }
            for (String ae : new String[] {"identity", "gzip;q=0", "deflate", "gzipx"}) {
                Response r = get(server, "/metrics", "Accept-Encoding: " + ae);
                assertEquals(null, r.header("Content-Encoding"), ae);
                assertFullBody(r, src.prometheus);
            }
            Response j = get(server, "/stats.json", "Accept-Encoding: gzip");
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(j.body()))) {
                assertEquals(src.json, new String(in.readAllBytes(), UTF_8));
            }
        }
    }

    // ---- concurrency, saturation, stalled clients ----

    @Test
    void sixteenConcurrentScrapesAllGetTheFullBody() throws Exception {
        FixedSource src = new FixedSource();
        ExecutorService clients = Executors.newFixedThreadPool(16);
        try (MetricsServer server = start(MetricsServer.builder(src))) {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Response>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                boolean gzip = i % 4 == 0;
                results.add(clients.submit(() -> {
                    assertTrue(go.await(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS));
                    return gzip ? get(server, "/metrics", "Accept-Encoding: gzip") : get(server, "/metrics");
                }));
            }
            go.countDown();
            for (int i = 0; i < 16; i++) {
                Response r = results.get(i).get(2L * IO_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                assertEquals(200, r.status(), "scrape " + i);
                byte[] body = r.body();
                if ("gzip".equals(r.header("Content-Encoding"))) {
                    try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
                        body = in.readAllBytes();
                    }
                }
                assertEquals(src.prometheus, new String(body, UTF_8), "scrape " + i);
            }
            assertEquals(16, src.calls.get());
            assertEquals(0, server.rejectedConnections());
            // each of the 2 workers was started for a scrape; the selector thread never renders
            assertEquals(2, src.threads.size(), src.threads.toString());
            assertTrue(src.threads.stream().allMatch(t -> t.startsWith("statvar-export-")), src.threads.toString());
        } finally {
            clients.shutdownNow();
            assertTrue(clients.awaitTermination(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void saturatedServerRejectsConnectionsCleanly() throws Exception {
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
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try (MetricsServer server = start(MetricsServer.builder(blocking).threads(1).queueCapacity(1)
                .headerTimeLimit(Duration.ofSeconds(1)))) {
            Future<Response> running = clients.submit(() -> get(server, "/metrics"));
            assertTrue(entered.await(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), "first scrape reached the source");
            Future<Response> queued = clients.submit(() -> get(server, "/metrics"));
            awaitTrue(() -> server.queuedExchanges() == 1, Duration.ofSeconds(60), "second scrape queued");

            // worker busy, queue full: the third request waits for a worker up to the header time limit (1 s
            // here), then its connection is closed without any response
            try (Socket s = connect(server)) {
                long t0 = System.nanoTime();
                s.getOutputStream().write(request("GET", "/metrics").getBytes(ISO_8859_1));
                s.getOutputStream().flush();
                byte[] received;
                try {
                    received = readToEof(s.getInputStream());
                } catch (SocketException reset) {
                    received = new byte[0];
                }
                String got = new String(received, ISO_8859_1);
                assertEquals("", got, "expected no response");
                long waited = System.nanoTime() - t0;
                assertTrue(waited >= TimeUnit.MILLISECONDS.toNanos(900), "closed after " + waited / 1_000_000 + " ms");
            } finally {
                release.countDown();
            }
            assertEquals(1, server.rejectedConnections());
            assertFullBody(running.get(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), fixed.prometheus);
            assertFullBody(queued.get(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), fixed.prometheus);
            assertEquals(200, get(server, "/-/healthy").status(), "serves again once drained");
        } finally {
            release.countDown();
            clients.shutdownNow();
            assertTrue(clients.awaitTermination(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void silentAndGarbageClientsDoNotStopScrapesAndAreClosed() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src).headerTimeLimit(Duration.ofSeconds(2))); // 2 workers
             Socket silent = connect(server);       // holds no worker; closed at the header time limit
             Socket garbageNoEol = connect(server); // no line end: closed at the header time limit
             Socket garbageLine = connect(server)) { // a bad request line: answered 400 and closed
            garbageNoEol.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 'G', 'E'});
            garbageLine.getOutputStream().write(new byte[] {(byte) 0xff, (byte) 0xfe, 0x00, 'x', '\r', '\n', '\r', '\n'});
            for (int i = 0; i < 5; i++) {
                Response r = get(server, "/metrics");
                assertEquals(200, r.status());
                assertFullBody(r, src.prometheus);
            }
            // A worker finishes its exchange just after the client has the response; wait for that,
            // but well within the 2 s header limit, at which a worker held by a slow client would be freed.
            awaitTrue(() -> server.activeExchanges() + server.queuedExchanges() == 0, Duration.ofMillis(1000),
                    "no worker holds a client's bytes");
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IO_TIMEOUT_MS);
            Response bad = parse(readToEof(garbageLine.getInputStream()));
            assertEquals(400, bad.status());
            assertEquals("close", bad.header("Connection"));
            assertClosedByServer(garbageNoEol, deadline, "garbage without line end");
            assertClosedByServer(silent, deadline, "silent client");
            awaitTrue(() -> server.slowClientsClosed() == 2, Duration.ofSeconds(60), "both counted as slow clients");
            assertFullBody(get(server, "/metrics"), src.prometheus);
        }
    }

    @Test
    void halfARequestHoldsNoWorkerAndIsClosedAtTheHeaderLimit() throws Exception {
        FixedSource src = new FixedSource();
        try (MetricsServer server = start(MetricsServer.builder(src).threads(1).headerTimeLimit(Duration.ofSeconds(2)));
             Socket half = connect(server)) {
            half.getOutputStream().write("GET /metr".getBytes(ISO_8859_1));
            half.getOutputStream().flush();
            // the only worker answers others meanwhile
            for (int i = 0; i < 3; i++) {
                assertFullBody(get(server, "/metrics"), src.prometheus);
            }
            assertClosedByServer(half, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IO_TIMEOUT_MS), "half request line");
            assertEquals(1, server.slowClientsClosed());
            assertFullBody(get(server, "/metrics"), src.prometheus);
        }
    }

    @Test
    void watchdogInterruptsOnlyTheExchangeOverItsLimit() throws Exception {
        try (MetricsServer server = start(MetricsServer.builder(new FixedSource()).threads(1)
                .exchangeTimeLimit(Duration.ofSeconds(2)))) {
            Executor exchanges = server.exchangeExecutor();
            CompletableFuture<Boolean> stuck = new CompletableFuture<>();
            exchanges.execute(() -> {
                // parks until interrupted (bounded) and returns with the interrupt status still set
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(IO_TIMEOUT_MS);
                while (!Thread.currentThread().isInterrupted() && end - System.nanoTime() > 0) {
                    LockSupport.parkNanos(end - System.nanoTime());
                }
                stuck.complete(Thread.currentThread().isInterrupted());
            });
            assertTrue(stuck.get(2L * IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), "a stuck exchange is interrupted");
            assertEquals(1, server.timedOutExchanges());
            // the same (only) worker takes its next exchanges without that interrupt
            for (int i = 0; i < 5; i++) {
                CompletableFuture<Boolean> next = new CompletableFuture<>();
                exchanges.execute(() -> next.complete(Thread.currentThread().isInterrupted()));
                assertFalse(next.get(IO_TIMEOUT_MS, TimeUnit.MILLISECONDS), "stray interrupt on exchange " + i);
            }
        }
    }

    // ---- errors ----

    @Test
    void throwingSourceGives500WithoutDetailsAndLogsOncePerCause() throws Exception {
        MetricsSource bad = new MetricsSource() {
            @Override public String prometheusText() { throw new IllegalStateException("boom: secret detail"); }
            @Override public String openMetricsText() { return null; }
            @Override public String json() { throw new UnsupportedOperationException("json boom"); }
        };
        Logger jul = Logger.getLogger("dev.statvar.export");
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override public void publish(LogRecord record) { records.add(record); }
            @Override public void flush() { }
            @Override public void close() { }
        };
        boolean parents = jul.getUseParentHandlers();
        jul.addHandler(capture);
        jul.setUseParentHandlers(false);
        try (MetricsServer server = start(MetricsServer.builder(bad))) {
            List<Response> failed = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                failed.add(get(server, "/metrics"));
                failed.add(get(server, "/metrics", "Accept: application/openmetrics-text"));
                failed.add(get(server, "/stats.json"));
                failed.add(send(server, request("HEAD", "/metrics")));
            }
            for (Response r : failed) {
                assertEquals(500, r.status());
                assertTrue(r.header("Content-Type").startsWith("text/plain"));
                String body = r.text();
                assertFalse(body.contains("at dev."), body);
                assertFalse(body.contains("Exception"), body);
                assertFalse(body.contains("boom") || body.contains("secret"), body);
                assertTrue(body.length() < 200, body);
            }
            assertEquals(200, get(server, "/-/healthy").status());
            // three distinct causes (prometheus ISE, OpenMetrics null, json UOE), each logged once
            assertEquals(3, records.size(), () -> records.stream().map(LogRecord::getMessage).toList().toString());
            for (LogRecord rec : records) {
                assertNotNull(rec.getThrown());
            }
        } finally {
            jul.removeHandler(capture);
            jul.setUseParentHandlers(parents);
        }
    }

    // ---- lifecycle and configuration ----

    @Test
    void closeIsIdempotentAndFreesThePort() throws Exception {
        FixedSource src = new FixedSource();
        MetricsServer server = start(MetricsServer.builder(src));
        InetSocketAddress address = server.address();
        assertTrue(address.getAddress().isLoopbackAddress(), "binds loopback by default: " + address);
        assertEquals("127.0.0.1", address.getAddress().getHostAddress());
        assertEquals(200, get(server, "/metrics").status());
        server.close();
        server.close();
        assertTrue(server.workersTerminated());
        assertThrows(IllegalStateException.class, server::start);
        try (ServerSocket again = new ServerSocket()) {
            again.setReuseAddress(true);
            again.bind(address); // throws BindException if the port were still held
        }
        MetricsServer never = MetricsServer.builder(src).port(0).build();
        never.close();
        never.close();
        assertThrows(IllegalStateException.class, never::start);
        assertThrows(IllegalStateException.class, never::port);
    }

    @Test
    void startTwiceIsAnError() throws Exception {
        try (MetricsServer server = start(MetricsServer.builder(new FixedSource()))) {
            assertThrows(IllegalStateException.class, server::start);
            assertTrue(server.port() > 0);
        }
    }

    @Test
    void builderValidates() {
        MetricsSource src = new FixedSource();
        assertThrows(NullPointerException.class, () -> MetricsServer.builder(null));
        MetricsServer.Builder b = MetricsServer.builder(src);
        assertThrows(IllegalArgumentException.class, () -> b.port(-1));
        assertThrows(IllegalArgumentException.class, () -> b.port(65536));
        assertThrows(IllegalArgumentException.class, () -> b.threads(0));
        assertThrows(IllegalArgumentException.class, () -> b.queueCapacity(0));
        assertThrows(NullPointerException.class, () -> b.bindAddress(null));
        assertThrows(IllegalArgumentException.class, () -> b.headerTimeLimit(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.headerTimeLimit(Duration.ofMillis(-1)));
        assertThrows(NullPointerException.class, () -> b.headerTimeLimit(null));
        assertThrows(IllegalArgumentException.class, () -> b.responseTimeLimit(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.exchangeTimeLimit(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> b.maxConnections(0));
        assertEquals(9400, MetricsServer.DEFAULT_PORT);
        assertEquals("127.0.0.1", MetricsServer.DEFAULT_BIND_ADDRESS);
    }

    @Test
    void theHeaderTimeLimitIsFiveSecondsUnlessGiven() {
        assertEquals(Duration.ofSeconds(5), MetricsServer.builder(new FixedSource()).build().headerTimeLimit());
        assertEquals(Duration.ofMillis(1500),
                MetricsServer.builder(new FixedSource()).headerTimeLimit(Duration.ofMillis(1500)).build().headerTimeLimit());
    }

    @Test
    void headerParsing() {
        assertTrue(MetricsRoutes.acceptsGzip(List.of("gzip, deflate, br")));
        assertTrue(MetricsRoutes.acceptsGzip(List.of("deflate", "gzip;q=0.1")));
        assertFalse(MetricsRoutes.acceptsGzip(List.of("gzip;q=0")));
        assertFalse(MetricsRoutes.acceptsGzip(List.of("gzip; q=0.000")));
        assertFalse(MetricsRoutes.acceptsGzip(List.of("*")));
        assertFalse(MetricsRoutes.acceptsGzip(null));
    }
}
