package dev.statvar.lab;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatCollector;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.LogReporter;
import dev.statvar.export.MetricsServer;
import dev.statvar.export.StatExporter;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A small workload that shows statvar end to end: worker threads play a request handler
 * (labelled request counters, an in-flight gauge, a labelled latency histogram, response sizes),
 * a collector closes an interval every so often and hands it to the {@link StatExporter} (and
 * to extra sinks, e.g. a {@link LogReporter}), and a {@link MetricsServer} serves
 * {@code /metrics}, {@code /stats.json} and {@code /-/healthy}. Run by {@code ./statvar demo}.
 *
 * <p>Every request also touches a shared session table under one lock, made by a factory the
 * caller may pass (the lab's {@code ./statvar demo} passes statvar-probes' contention-counting lock,
 * so that the lock's contention is among the demo's stats; by default a {@link ReentrantLock}).
 *
 * <p>Each worker also counts its own requests in a plain field; {@link #finish()} joins them and
 * closes the collector, which delivers the last interval, after which {@link #handled()} is the
 * exact number the exporter must show; the endpoint keeps serving until {@link #close()}.
 *
 * <p>Threading: the endpoint and the collector run on their own threads. {@link #handled()} reads
 * the workers' counts after {@link #finish()} joined them, so call it on the thread that called
 * {@code finish()}; the other methods from any thread.
 */
public final class Demo implements AutoCloseable {
    /** Counter family of the requests handled, labelled {@code method} and {@code code} (the status). */
    public static final String REQUESTS = "demo_requests_total";
    /** Gauge of the requests being handled, reported when one starts or ends. */
    public static final String IN_FLIGHT = "demo_in_flight";
    /**
     * Histogram family of the time to handle a request, labelled {@code method}: recorded in
     * nanoseconds, exposed in seconds ({@link ExportOptions#withNanosecondsAsSeconds}).
     */
    public static final String DURATION = "demo_request_duration";
    /** Histogram of the size of a response body, bytes. */
    public static final String RESPONSE_BYTES = "demo_response_bytes";
    /** Counter of the requests that failed (status 5xx). */
    public static final String ERRORS = "demo_errors_total";

    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};

    private final StatRegistry registry = StatRegistry.create();
    private final StatExporter exporter;
    private final StatCollector collector;
    private final MetricsServer server;
    private final List<Worker> workers = new ArrayList<>();
    private volatile boolean running = true;

    /** The sessions each worker touches per request: a small table under one shared lock. */
    private final Map<Integer, Long> sessions = new HashMap<>();
    private final Lock sessionLock;

    private Demo(String bind, int port, int threads, Duration interval, Consumer<dev.statvar.Snapshot> extraSink,
                 Function<StatRegistry, Lock> sessionLock, String[] nanosecondHistograms) throws IOException {
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("threads must be 1..1024, was " + threads);
        }
        StatFamily<Counter> requests = registry.counterFamily(REQUESTS, "requests handled, by method and status code",
                "method", "code");
        Gauge inFlight = registry.gauge(IN_FLIGHT, "requests being handled when one starts or ends");
        StatFamily<Histogram> latency = registry.histogramFamily(DURATION, "time to handle a request",
                dev.statvar.HistogramPrecision.DEFAULT, "method");
        Histogram bytes = registry.histogram(RESPONSE_BYTES, "size of a response body, bytes");
        Counter errors = registry.counter(ERRORS, "requests that failed (status 5xx)");
        this.sessionLock = java.util.Objects.requireNonNull(sessionLock.apply(registry), "the session lock");
        exporter = new StatExporter(registry, ExportOptions.defaults().withNanosecondsAsSeconds(DURATION)
                .withNanosecondsAsSeconds(nanosecondHistograms));
        collector = registry.startCollector(interval, extraSink == null ? exporter : exporter.andThen(extraSink));
        MetricsServer s;
        try {
            s = MetricsServer.builder(exporter).bindAddress(bind).port(port).build().start();
        } catch (IOException | RuntimeException e) {
            collector.close();
            throw e;
        }
        server = s;
        AtomicInteger inFlightNow = new AtomicInteger();
        for (int i = 0; i < threads; i++) {
            Worker w = new Worker(requests, inFlight, latency, bytes, errors, inFlightNow);
            w.setName("demo-handler-" + i);
            w.setDaemon(true);
            workers.add(w);
            w.start();
        }
    }

    /**
     * Starts the demo: the workers, the collector every {@code interval}, and the endpoint on
     * {@code bind:port} (port 0: any free port, see {@link #port()}).
     *
     * @param bind      host name or IP literal the endpoint binds
     * @param port      the endpoint's port, 0..65535; 0 for any free port
     * @param threads   worker threads, 1..1024
     * @param interval  how often the collector closes an interval, positive
     * @param extraSink another sink of every interval (e.g. a {@link LogReporter}), or null
     * @return the running demo
     * @throws IOException              if the address cannot be resolved or bound
     * @throws IllegalArgumentException if {@code threads}, {@code port} or {@code interval} is out of range
     */
    public static Demo start(String bind, int port, int threads, Duration interval,
                             Consumer<dev.statvar.Snapshot> extraSink) throws IOException {
        return new Demo(bind, port, threads, interval, extraSink, r -> new ReentrantLock(), new String[0]);
    }

    /**
     * Starts the demo as {@link #start(String, int, int, Duration, Consumer)} does, with the shared
     * session lock made by {@code sessionLock} from the demo's registry, and more histograms of
     * nanoseconds to expose in seconds (stats the caller registers in {@link #registry()}, e.g. a
     * lock's wait histogram or a hiccup meter's).
     *
     * @param bind                 host name or IP literal the endpoint binds
     * @param port                 the endpoint's port, 0..65535; 0 for any free port
     * @param threads              worker threads, 1..1024
     * @param interval             how often the collector closes an interval, positive
     * @param extraSink            another sink of every interval, or null
     * @param sessionLock          makes the shared session lock from the demo's registry; called once
     * @param nanosecondHistograms names of more stats to expose in seconds
     * @return the running demo
     * @throws IOException              if the address cannot be resolved or bound
     * @throws IllegalArgumentException if {@code threads}, {@code port} or {@code interval} is out of
     *                                  range, or a name in {@code nanosecondHistograms} is invalid
     * @throws NullPointerException     if {@code sessionLock} is null or returns null
     */
    public static Demo start(String bind, int port, int threads, Duration interval, Consumer<dev.statvar.Snapshot> extraSink,
                             Function<StatRegistry, Lock> sessionLock, String... nanosecondHistograms) throws IOException {
        return new Demo(bind, port, threads, interval, extraSink, java.util.Objects.requireNonNull(sessionLock, "sessionLock"),
                nanosecondHistograms.clone());
    }

    /**
     * The port the endpoint listens on.
     *
     * @return the bound port (the one chosen when started with port 0)
     */
    public int port() {
        return server.port();
    }

    /**
     * The exporter the collector feeds and the endpoint serves.
     *
     * @return the demo's exporter, bound to {@link #registry()}
     */
    public StatExporter exporter() {
        return exporter;
    }

    /**
     * The registry of the demo's stats; stats registered here are exported too.
     *
     * @return the demo's registry
     */
    public StatRegistry registry() {
        return registry;
    }

    /**
     * Stops the workers, waits for them (each finishes its current request) and closes the
     * collector, which hands the last interval to the exporter; the endpoint goes on serving.
     *
     * @throws InterruptedException  if interrupted while waiting for a worker; the collector then runs on
     * @throws IllegalStateException if a worker did not stop within 10 s
     */
    public void finish() throws InterruptedException {
        stopWorkers();
        collector.close();
    }

    private void stopWorkers() throws InterruptedException {
        running = false; // volatile write: pairs with the read in Worker.run
        for (Worker w : workers) {
            w.join(10_000);
            if (w.isAlive()) {
                throw new IllegalStateException(w.getName() + " did not stop within 10 s");
            }
        }
    }

    /**
     * Requests the workers handled.
     *
     * @return the number of requests all workers handled
     * @throws IllegalStateException before {@link #finish()}: the counts are read after join (happens-before)
     */
    public long handled() {
        if (running) {
            throw new IllegalStateException("stop the workers first");
        }
        long n = 0;
        for (Worker w : workers) {
            n += w.handled;
        }
        return n;
    }

    /** Stops the workers, the collector (delivering the last interval) and the endpoint. */
    @Override
    public void close() {
        running = false;
        for (Worker w : workers) {
            try {
                w.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        collector.close();
        server.close();
    }

    /** One fake request handler thread. */
    private final class Worker extends Thread {
        private final StatFamily<Counter> requests;
        private final Gauge inFlight;
        private final StatFamily<Histogram> latency;
        private final Histogram bytes;
        private final Counter errors;
        private final AtomicInteger inFlightNow;
        /** Written by this thread only; read by others after join(). */
        long handled;

        Worker(StatFamily<Counter> requests, Gauge inFlight, StatFamily<Histogram> latency, Histogram bytes,
               Counter errors, AtomicInteger inFlightNow) {
            this.requests = requests;
            this.inFlight = inFlight;
            this.latency = latency;
            this.bytes = bytes;
            this.errors = errors;
            this.inFlightNow = inFlightNow;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            while (running) {
                String method = METHODS[r.nextInt(METHODS.length)];
                long t0 = System.nanoTime();
                inFlight.report(inFlightNow.incrementAndGet());
                // the "work": a short pause, log-normal-ish, 20 µs .. a few ms
                LockSupport.parkNanos((long) (20_000 * Math.exp(r.nextGaussian() * 1.2)));
                sessionLock.lock();
                try {
                    sessions.merge(r.nextInt(64), 1L, Long::sum); // guarded by sessionLock
                } finally {
                    sessionLock.unlock();
                }
                int roll = r.nextInt(1000);
                String code = roll < 2 ? "500" : roll < 30 ? "404" : "200";
                if (code.equals("500")) {
                    errors.add();
                }
                requests.labels(method, code).add();
                bytes.record(code.equals("200") ? 200 + r.nextInt(64 * 1024) : 120);
                inFlight.report(inFlightNow.decrementAndGet());
                latency.labels(method).record(System.nanoTime() - t0);
                handled++;
            }
        }
    }
}
