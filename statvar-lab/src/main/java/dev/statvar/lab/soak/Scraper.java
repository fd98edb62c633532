package dev.statvar.lab.soak;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A soak scraper: GETs a Prometheus text endpoint in a bounded loop (a 5 ms pause between scrapes, short timeouts)
 * while {@code running} says so, and counts the scrapes that succeed and those that fail (an HTTP status other than
 * 200, a body not ending in a line feed, an I/O error, a body {@link PrometheusText} cannot read); the exposed
 * {@link SoakStats#OPS} must never go backwards (unsigned).
 *
 * <p>Threads: the counters are shared by every scraper and read by the main thread at any time (atomics);
 * {@link #firstFailure} is written by this thread only and read after {@code join()}.
 */
final class Scraper extends Thread {
    private static final int MAX_SCRAPES = 10_000_000;
    private final URI uri;
    private final BooleanSupplier running;
    private final AtomicLong ok;
    private final AtomicLong failed;
    private final AtomicLong backwards;
    /** Written by this thread only; read after join(). */
    String firstFailure;

    Scraper(URI uri, int i, BooleanSupplier running, AtomicLong ok, AtomicLong failed, AtomicLong backwards) {
        super("soak-scraper-" + i);
        setDaemon(true);
        this.uri = uri;
        this.running = running;
        this.ok = ok;
        this.failed = failed;
        this.backwards = backwards;
    }

    @Override
    public void run() {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest get = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
        long last = 0;
        try {
            for (int i = 0; i < MAX_SCRAPES && running.getAsBoolean(); i++) {
                try {
                    HttpResponse<String> resp = client.send(get, HttpResponse.BodyHandlers.ofString());
                    String body = resp.body();
                    if (resp.statusCode() != 200 || !(body.isEmpty() || body.endsWith("\n"))) {
                        fail("HTTP " + resp.statusCode() + ", " + body.length() + " chars");
                    } else {
                        String v = PrometheusText.samples(body).get(SoakStats.OPS);
                        ok.incrementAndGet();
                        if (v != null) {
                            long now = Long.parseUnsignedLong(v);
                            if (Long.compareUnsigned(now, last) < 0) {
                                backwards.incrementAndGet();
                            }
                            last = now;
                        }
                    }
                } catch (IOException | RuntimeException e) {
                    fail(e.toString());
                }
                Thread.sleep(5); // a pause between scrapes: the CPU is mostly the workers'
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeClient(client);
        }
    }

    private void fail(String why) {
        failed.incrementAndGet();
        if (firstFailure == null) {
            firstFailure = why;
        }
    }

    /**
     * One more scrape, on the caller's thread: the samples, or an empty map with what went wrong added to
     * {@code problems}.
     */
    static Map<String, String> once(URI uri, List<String> problems) throws InterruptedException {
        HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY)
                .connectTimeout(Duration.ofSeconds(5)).build();
        try {
            HttpResponse<String> last = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (last.statusCode() == 200) {
                return PrometheusText.samples(last.body());
            }
            problems.add("the last scrape got HTTP " + last.statusCode());
        } catch (IOException e) {
            problems.add("the last scrape failed: " + e);
        } catch (IllegalArgumentException e) {
            problems.add("the last scrape could not be read: " + e.getMessage());
        } finally {
            closeClient(client);
        }
        return Map.of();
    }

    /** {@code HttpClient} is AutoCloseable from JDK 21 on: close it there, else let GC end it. */
    private static void closeClient(HttpClient client) {
        if (client instanceof AutoCloseable a) {
            try {
                a.close();
            } catch (Exception ignored) {
                // closing a client: nothing to do about it
            }
        }
    }
}
