package dev.statvar.lab.soak;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The soak's scraper against a scripted endpoint: a total going back, an unreadable body, an HTTP error. */
@Timeout(30)
class ScraperTest {
    /** Status and body of each response in turn; the last one repeats. */
    private final ConcurrentLinkedQueue<Object[]> script = new ConcurrentLinkedQueue<>();
    private final CountDownLatch served = new CountDownLatch(4);
    private HttpServer server;
    private URI uri;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/metrics", x -> {
            Object[] r = script.size() > 1 ? script.poll() : script.peek();
            byte[] body = ((String) r[1]).getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders((Integer) r[0], body.length);
            try (OutputStream o = x.getResponseBody()) {
                o.write(body);
            }
            served.countDown();
        });
        server.start();
        uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/metrics");
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    @Test
    void countsScrapesATotalGoingBackAndTheFirstFailure() throws Exception {
        script.add(new Object[]{200, "# TYPE soak_ops_total counter\nsoak_ops_total 5\n"});
        script.add(new Object[]{200, "soak_ops_total 3\n"});
        script.add(new Object[]{200, "soak_ops_total{broken 1\n"});
        script.add(new Object[]{200, "soak_ops_total 18446744073709551615\n"});
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong ok = new AtomicLong();
        AtomicLong failed = new AtomicLong();
        AtomicLong backwards = new AtomicLong();
        Scraper s = new Scraper(uri, 0, running::get, ok, failed, backwards);
        s.start();
        assertTrue(served.await(20, TimeUnit.SECONDS), "4 scrapes served");
        running.set(false);
        s.join(20_000);
        assertFalse(s.isAlive());
        assertEquals(1, backwards.get(), "5 then 3");
        assertEquals(1, failed.get());
        assertEquals("java.lang.IllegalArgumentException: line 1, column 22: expected '=' after label name broken:"
                + " soak_ops_total{broken 1", s.firstFailure);
        assertTrue(ok.get() >= 3, ok + " scrapes ok");
    }

    @Test
    void theLastScrapeSaysWhatWentWrong() throws Exception {
        script.add(new Object[]{200, "soak_ops_total 9\n"});
        List<String> problems = new ArrayList<>();
        assertEquals(Map.of("soak_ops_total", "9"), Scraper.once(uri, problems));
        assertEquals(List.of(), problems);
        script.clear();
        script.add(new Object[]{500, "down\n"});
        assertEquals(Map.of(), Scraper.once(uri, problems));
        script.clear();
        script.add(new Object[]{200, "soak_ops_total nine\n"});
        assertEquals(Map.of(), Scraper.once(uri, problems));
        assertEquals(List.of("the last scrape got HTTP 500", "the last scrape could not be read: line 1, column 16:"
                + " expected a number for the value (or NaN, +Inf, -Inf), not 'nine': soak_ops_total nine"), problems);
    }
}
