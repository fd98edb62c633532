package dev.statvar.export;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Clients that pipeline and never read (loopback only): each hostile connection keeps sending pipelined
 * {@code GET /metrics} and never reads a byte; one the server drops is replaced at once. Meanwhile a
 * well-behaved client scrapes on a new connection every 100 ms: each scrape must be answered in full within
 * 1 s. The fast tier runs 128 hostile connections for about 3 s; the thorough tier
 * (tag {@code thorough}) 1,000 for about 15 s.
 */
class MetricsServerHostileClientsTest {
    private static final long SCRAPE_BOUND_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final byte[] PIPELINE;

    static {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            sb.append("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
        }
        PIPELINE = sb.toString().getBytes(ISO_8859_1);
    }

    @Test
    @Timeout(60)
    void scrapesAnswerWithinOneSecondWhile128ConnectionsPipelineWithoutReading() throws Exception {
        hostileRun(128, 30);
    }

    @Test
    @Timeout(180)
    @Tag("thorough")
    void scrapesAnswerWithinOneSecondWhile1000ConnectionsPipelineWithoutReading() throws Exception {
        long need = 2L * 1000 + 200; // both ends of each connection live in this JVM, plus the JVM's own files
        long limit = openFileLimit();
        assumeTrue(limit < 0 || limit >= need, "the open-file limit (ulimit -n) is " + limit + ", below the " + need
                + " this test needs: raise it to run the 1,000-connection tier");
        hostileRun(1000, 150);
    }

    /** The soft limit of open files of this process (from /proc/self/limits), or -1 if unknown. */
    private static long openFileLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return soft.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | RuntimeException unknown) {
            // not Linux: let the test run
        }
        return -1;
    }

    /** The exporter, counting its calls; counts down a latch per call. */
    private static final class CountingSource implements MetricsSource {
        final StatExporter exporter;
        final AtomicLong calls = new AtomicLong();
        final CountDownLatch firstCalls;

        CountingSource(StatExporter exporter, int first) {
            this.exporter = exporter;
            this.firstCalls = new CountDownLatch(first);
        }

        private void called() {
            calls.incrementAndGet();
            firstCalls.countDown();
        }

        @Override public String prometheusText() { called(); return exporter.prometheusText(); }
        @Override public String openMetricsText() { called(); return exporter.openMetricsText(); }
        @Override public String json() { called(); return exporter.json(); }
    }

    private static void hostileRun(int hostile, int scrapes) throws Exception {
        StatExporter exporter = RenderSharingTest.exporterOfAbout150KB();
        String expected = exporter.prometheusText();
        assertTrue(expected.length() > 100_000, "body of " + expected.length() + " chars");
        CountingSource source = new CountingSource(exporter, Math.min(hostile, MetricsServer.DEFAULT_MAX_CONNECTIONS));
        try (MetricsServer server = MetricsServer.builder(source).port(0).build().start();
             HostileClients h = new HostileClients(server.address(), hostile)) {
            h.start();
            h.awaitAllConnected();
            // Until the server has rendered as many requests as it has connections, the hostile connections'
            // first requests are requests being answered on every connection: a new connection is then
            // refused, as documented. The scrapes run beside the pipelining that follows.
            assertTrue(source.firstCalls.await(30, TimeUnit.SECONDS), "the hostile connections' first requests answered");
            List<Long> latencies = new ArrayList<>();
            for (int i = 0; i < scrapes; i++) {
                long t0 = System.nanoTime();
                String body;
                try {
                    body = MetricsServerSlowClientsTest.scrape(server.address());
                } catch (IOException | AssertionError e) { // reset or closed, or not a 200
                    throw new AssertionError("scrape " + i + " failed after " + (System.nanoTime() - t0) / 1_000_000
                            + " ms beside " + hostile + " hostile connections; so far: " + millis(latencies)
                            + "; " + h.report() + "; " + serverReport(server), e);
                }
                long took = System.nanoTime() - t0;
                latencies.add(took);
                assertEquals(expected, body, "scrape " + i);
                assertTrue(took <= SCRAPE_BOUND_NANOS, "scrape " + i + " took " + took / 1_000_000 + " ms beside "
                        + hostile + " hostile connections (bound 1000 ms); so far: " + millis(latencies));
                Thread.sleep(100); // the scrape interval, not a synchronisation
            }
            h.finish();
            assertTrue(h.requestsSent() > (long) hostile * 40, "the hostile clients pipelined: " + h.report());
            assertEquals(1, exporter.renders(), "one render for every response of the interval");
            System.out.printf(Locale.ROOT, "%d hostile connections pipelining without reading: %s; %s;"
                            + " %d responses rendered by the source, %d render(s); %d scrapes, latencies: %s%n",
                    hostile, h.report(), serverReport(server), source.calls.get(), exporter.renders(), scrapes,
                    millis(latencies));
        }
    }

    private static String serverReport(MetricsServer server) {
        return "server: " + server.openConnections() + " open, " + server.stalledResponsesClosed()
                + " closed for not reading, " + server.rejectedConnections() + " rejected";
    }

    private static String millis(List<Long> nanos) {
        StringBuilder sb = new StringBuilder();
        for (long n : nanos) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.1f", n / 1e6));
        }
        return sb.append(" ms").toString();
    }

    /**
     * A thread driving {@code count} hostile connections: each writes {@link #PIPELINE} (40 pipelined
     * requests) whenever its previous batch is all sent, and never reads; one whose write fails (the server
     * closed it) is replaced by a new one. Connects are non-blocking, so a full backlog does not stall the driver.
     */
    static final class HostileClients implements AutoCloseable {
        private final InetSocketAddress address;
        private final int count;
        /** Set by finish()/close(), read by the driver loop: volatile write/read pair. */
        private volatile boolean stopping;
        private final CountDownLatch connected = new CountDownLatch(1);
        // written by the driver only, read by the test: volatile
        private volatile long requestsSent;
        private volatile long connections;
        private volatile long dropped;
        /** The driver: its outcome (a failure included) is read through the task, after it ends. */
        private final FutureTask<Void> driver = new FutureTask<>(() -> {
            try {
                drive();
            } finally {
                connected.countDown(); // also on failure: the waiting test then sees it
            }
            return null;
        });

        HostileClients(InetSocketAddress address, int count) {
            this.address = address;
            this.count = count;
        }

        void start() {
            Thread t = new Thread(driver, "hostile-clients");
            t.setDaemon(true);
            t.start();
        }

        /** One hostile connection, confined to the driver thread. */
        private static final class Hostile {
            SocketChannel channel;
            ByteBuffer pending;
        }

        void awaitAllConnected() throws InterruptedException {
            assertTrue(connected.await(30, TimeUnit.SECONDS), "the hostile clients connected");
            if (driver.isDone()) {
                outcome();
            }
        }

        /** The driver's outcome once it ended: a failure is rethrown as an AssertionError. */
        private void outcome() throws InterruptedException {
            try {
                driver.get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new AssertionError("hostile driver failed", e.getCause());
            } catch (TimeoutException e) {
                throw new AssertionError("the hostile driver did not stop within 30 s", e);
            }
        }

        long requestsSent() {
            return requestsSent;
        }

        String report() {
            return String.format(Locale.ROOT, "clients: %d connections opened, %d dropped by the server, %d requests sent",
                    connections, dropped, requestsSent);
        }

        private void drive() throws IOException {
            Hostile[] all = new Hostile[count];
            for (int i = 0; i < count; i++) {
                all[i] = new Hostile();
            }
            int rounds = 0;
            while (!stopping) {
                int live = 0;
                for (Hostile h : all) {
                    if (step(h)) {
                        live++;
                    }
                }
                if (++rounds > 1 && live >= Math.min(count, MetricsServer.DEFAULT_MAX_CONNECTIONS)) {
                    connected.countDown();
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // pacing of the driver's rounds
            }
            for (Hostile h : all) {
                if (h.channel != null) {
                    h.channel.close();
                }
            }
        }

        /** Advances one connection; true if it is connected and has pipelined. */
        private boolean step(Hostile h) throws IOException {
            try {
                if (h.channel == null) {
                    h.channel = SocketChannel.open();
                    h.channel.configureBlocking(false);
                    h.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    if ((connections & 1) == 0) { // every other one: a small window, its responses block at once
                        h.channel.setOption(StandardSocketOptions.SO_RCVBUF, 4096);
                    }
                    h.channel.connect(address);
                    connections++;
                }
                if (h.channel.isConnectionPending() && !h.channel.finishConnect()) {
                    return false;
                }
                if (h.pending == null || !h.pending.hasRemaining()) {
                    h.pending = ByteBuffer.wrap(PIPELINE);
                }
                int before = h.pending.position();
                h.channel.write(h.pending);
                requestsSent += countRequests(before, h.pending.position());
                return true;
            } catch (IOException dropped) { // refused, reset or closed by the server: replace it
                this.dropped++;
                h.channel.close();
                h.channel = null;
                h.pending = null;
                return false;
            }
        }

        private static long countRequests(int from, int to) {
            int per = PIPELINE.length / 40;
            return to / per - from / per;
        }

        /** Stops the driver (which closes its connections) and rethrows its failure, if any. */
        void finish() throws InterruptedException {
            stopping = true;
            outcome();
        }

        @Override
        public void close() throws Exception {
            stopping = true;
            driver.cancel(false); // not started: it never will; started: it ends at its next round
        }
    }
}
