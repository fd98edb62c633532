package dev.statvar.export;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;

/**
 * Serves a {@link MetricsSource} over HTTP/1.1 on the JDK's built-in server
 * ({@code com.sun.net.httpserver}, module {@code jdk.httpserver}); no other dependency.
 *
 * <pre>{@code
 * try (MetricsServer server = MetricsServer.builder(source).build().start()) { // 127.0.0.1:9400
 *     ...
 * }
 * }</pre>
 *
 * <h2>Routes</h2>
 * Exact paths; the query string is ignored ({@code /metrics?x=1} is {@code /metrics}).
 * <ul>
 * <li>{@code /metrics}: {@link MetricsSource#openMetricsText()} as
 *     {@code application/openmetrics-text; version=1.0.0; charset=utf-8} when the {@code Accept}
 *     header contains {@code application/openmetrics-text}, else {@link MetricsSource#prometheusText()}
 *     as {@code text/plain; version=0.0.4; charset=utf-8}.
 * <li>{@code /stats.json}: {@link MetricsSource#json()} as {@code application/json; charset=utf-8}.
 * <li>{@code /-/healthy}: 200, {@code text/plain}, {@code "statvar is healthy\n"}; does not call the source.
 * <li>any other path: 404 with a short plain-text body.
 * </ul>
 * Methods GET and HEAD (HEAD: the headers of the GET, {@code Content-Length} included, and no body);
 * any other method gets 405 with {@code Allow: GET, HEAD}. A 200 body is gzip-compressed when
 * {@code Accept-Encoding} lists {@code gzip} with a non-zero quality ({@code Content-Encoding: gzip},
 * {@code Content-Length} of the compressed body). Every response has {@code Vary: Accept-Encoding}
 * ({@code /metrics}: {@code Vary: Accept, Accept-Encoding}). Requests the JDK server cannot parse or
 * route (a malformed request line, a target without a path) are answered (400, 404) or closed by the
 * JDK itself.
 *
 * <h2>Threading</h2>
 * The JDK's dispatcher thread accepts connections and waits for their bytes without using a worker.
 * Once a connection has bytes to read, its exchange (read the request line and headers, render, write
 * the response) runs on one of {@link Builder#threads(int) threads} daemon worker threads owned by this
 * server (default 2), behind a queue of at most {@link Builder#queueCapacity(int) queueCapacity}
 * exchanges (default 16). So the source is called by up to {@code threads} threads at once, never by
 * the dispatcher, and once per request: nothing is cached. Each server also has one watchdog thread
 * (see Time limits).
 *
 * <h2>Saturation: the connection is rejected, not answered 503</h2>
 * When every worker is busy and the queue is full, the executor rejects the new exchange and the JDK
 * server closes that connection without a response (the scraper sees a closed or reset connection, a
 * failed scrape, and tries again at its next interval). Nothing is queued beyond the bound and no
 * thread is spent writing a 503: the JDK gives a rejected exchange no thread, and writing a 503 would
 * need one to read the request first. {@link #rejectedConnections()} counts them; the first is logged.
 *
 * <h2>Time limits</h2>
 * The JDK server reads the request on a worker, so a client that sends half a request would pin that
 * worker until its connection closes, and by default the JDK never closes it. Two limits apply.
 *
 * <p><b>Per server, always:</b> no worker spends more than {@link Builder#exchangeTimeLimit(Duration)}
 * (default 40 s) on one exchange, counted from when it takes it: past that, a watchdog thread of this
 * server interrupts the worker, which closes the connection (its socket channel is interruptible) and
 * frees the worker ({@link #timedOutExchanges()} counts them). A render that ignores interrupts keeps its
 * worker until it returns, but its response is not sent.
 *
 * <p><b>JVM-wide, the JDK's own:</b> the JDK closes a connection whose request (first byte to end of
 * headers) takes more than {@code sun.net.httpserver.maxReqTime} seconds, or whose response (end of
 * headers to last byte, rendering included) more than {@code sun.net.httpserver.maxRspTime} seconds,
 * checked every second. The request clock starts at the first byte, time in the queue included, so a
 * scrape that waits behind stalled clients for longer than maxReqTime is closed too: give more
 * {@code threads} than the stalled clients you expect. These system properties are read once per JVM,
 * when its first {@code HttpServer} is created, and cannot be set per server. So {@link #start()}, before
 * it creates its server, sets each of them that is unset to
 * {@link Builder#requestTimeLimits(Duration, Duration)} (default 10 s and 30 s). Values given with
 * {@code -D} win; the first server of the JVM fixes them for every later one (a later builder asking
 * for other values gets a warning in the log); if other code created an {@code HttpServer} before the
 * first {@code MetricsServer}, the JDK keeps what it read then (no limit unless given with {@code -D}),
 * and only the per-server limit applies.
 *
 * <p>A connection that sends nothing holds no worker: the JDK closes it after min(maxReqTime,
 * {@code sun.net.httpserver.idleInterval}) seconds, and an idle keep-alive connection after
 * idleInterval (30 by default), both checked every {@code sun.net.httpserver.clockTick} ms (10,000 by
 * default): with the defaults a silent connection lasts 10 to 20 s (30 to 40 s without maxReqTime).
 *
 * <h2>Errors</h2>
 * A source that throws, or returns null, gets its request answered 500 with a short plain-text body;
 * no exception text or stack trace reaches any response. The failure is logged at WARNING with its
 * stack trace on the {@link System.Logger} {@code dev.statvar.export} once per distinct cause (route,
 * exception class and throwing frame), not per request.
 *
 * <p>Binds {@code 127.0.0.1:9400} by default: bind another address only on purpose. {@link #start()}
 * once; {@link #close()} stops the server and its workers, and frees the port; it is idempotent.
 * All methods are thread-safe.
 */
public final class MetricsServer implements AutoCloseable {
    /** The default port: 9400. */
    public static final int DEFAULT_PORT = 9400;
    /** The default bind address: 127.0.0.1 (loopback only). */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";

    static final String MAX_REQ_TIME = "sun.net.httpserver.maxReqTime";
    static final String MAX_RSP_TIME = "sun.net.httpserver.maxRspTime";
    static final long DEFAULT_REQUEST_SECONDS = 10;
    static final long DEFAULT_RESPONSE_SECONDS = 30;

    private static final System.Logger LOG = System.getLogger("dev.statvar.export");
    private static final int MAX_LOGGED_CAUSES = 64;
    private static final AtomicInteger SERVER_IDS = new AtomicInteger();

    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final String OPENMETRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final String JSON_TYPE = "application/json; charset=utf-8";
    private static final String TEXT_TYPE = "text/plain; charset=utf-8";
    private static final String HEALTHY_BODY = "statvar is healthy\n";

    private enum Route { METRICS, JSON, HEALTHY }

    private final MetricsSource source;
    private final String bindAddress;
    private final int requestedPort;
    private final int threads;
    private final int queueCapacity;
    private final long requestSeconds;
    private final long responseSeconds;
    private final boolean timeLimitsGiven;
    private final long exchangeLimitNanos;

    private final Set<String> loggedCauses = ConcurrentHashMap.newKeySet();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong timedOut = new AtomicLong();

    private final Object lock = new Object();
    // guarded by lock
    private boolean started;
    private boolean closed;
    private HttpServer http;
    private ThreadPoolExecutor pool;
    private ScheduledThreadPoolExecutor watchdog;
    private Executor exchanges;
    private InetSocketAddress boundAddress;

    private MetricsServer(Builder b) {
        source = b.source;
        bindAddress = b.bindAddress;
        requestedPort = b.port;
        threads = b.threads;
        queueCapacity = b.queueCapacity;
        requestSeconds = b.requestSeconds;
        responseSeconds = b.responseSeconds;
        timeLimitsGiven = b.timeLimitsGiven;
        long nanos;
        try {
            nanos = b.exchangeLimit.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE;
        }
        exchangeLimitNanos = nanos;
    }

    /** A builder serving {@code source}. */
    public static Builder builder(MetricsSource source) {
        return new Builder(source);
    }

    /**
     * Binds and starts serving; returns this server.
     *
     * @throws IOException if the address cannot be resolved or bound
     * @throws IllegalStateException if already started or closed
     */
    public MetricsServer start() throws IOException {
        synchronized (lock) {
            if (started || closed) {
                throw new IllegalStateException(closed ? "closed" : "already started");
            }
            applyJdkTimeLimits();
            HttpServer server;
            try {
                server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(bindAddress), requestedPort), 0);
            } catch (java.net.BindException e) { // the JDK's message ("Address already in use") names no address
                java.net.BindException named = new java.net.BindException("cannot bind " + bindAddress + ":" + requestedPort
                        + ": " + e.getMessage());
                named.initCause(e);
                throw named;
            }
            String prefix = "statvar-export-" + SERVER_IDS.incrementAndGet() + "-";
            ThreadPoolExecutor workers = newPool(prefix);
            ScheduledThreadPoolExecutor dog = new ScheduledThreadPoolExecutor(1, daemonThreads(prefix + "watchdog-"));
            dog.setRemoveOnCancelPolicy(true);
            Executor watched = exchange -> workers.execute(new Watched(exchange, dog));
            try {
                server.setExecutor(watched);
                server.createContext("/", this::handle);
                server.start();
            } catch (RuntimeException | Error e) {
                server.stop(0);
                workers.shutdownNow();
                dog.shutdownNow();
                throw e;
            }
            http = server;
            pool = workers;
            watchdog = dog;
            exchanges = watched;
            boundAddress = server.getAddress();
            started = true;
            return this;
        }
    }

    /** The bound port (the actual one when built with port 0); IllegalStateException before {@link #start()}. */
    public int port() {
        return address().getPort();
    }

    /** The bound address; IllegalStateException before {@link #start()}. */
    public InetSocketAddress address() {
        synchronized (lock) {
            if (boundAddress == null) {
                throw new IllegalStateException("not started");
            }
            return boundAddress;
        }
    }

    /** Connections closed without a response because the workers and the queue were full. */
    public long rejectedConnections() {
        return rejected.get();
    }

    /** Exchanges whose worker was interrupted (closing the connection) for exceeding the exchange time limit. */
    public long timedOutExchanges() {
        return timedOut.get();
    }

    /**
     * Stops accepting, closes every connection, stops the workers (interrupting them, waiting at most
     * 10 s for a render that ignores interrupts) and frees the port. Idempotent; before
     * {@link #start()} it only prevents a later start.
     */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            if (http != null) {
                http.stop(0); // closes the listening socket and all connections, joins the dispatcher
            }
            if (watchdog != null) {
                watchdog.shutdownNow();
            }
            if (pool != null) {
                pool.shutdownNow();
                try {
                    pool.awaitTermination(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /** Exchanges waiting for a worker (tests). */
    int queuedExchanges() {
        synchronized (lock) {
            return pool == null ? 0 : pool.getQueue().size();
        }
    }

    /** Workers busy with an exchange (tests). */
    int activeExchanges() {
        synchronized (lock) {
            return pool == null ? 0 : pool.getActiveCount();
        }
    }

    /** Whether the workers have all ended (tests). */
    boolean workersTerminated() {
        synchronized (lock) {
            return pool != null && pool.isTerminated();
        }
    }

    /** The executor given to the JDK server: the workers, each exchange under the watchdog (tests). */
    Executor exchangeExecutor() {
        synchronized (lock) {
            return exchanges;
        }
    }

    // ---- pool and time limits ----

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return task -> {
            Thread t = new Thread(task, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    private ThreadPoolExecutor newPool(String prefix) {
        return new ThreadPoolExecutor(threads, threads, 0L, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(queueCapacity), daemonThreads(prefix),
                (task, executor) -> {
                    // The JDK dispatcher catches this and closes the connection without a response.
                    if (!executor.isShutdown() && rejected.getAndIncrement() == 0) {
                        LOG.log(Level.WARNING, "statvar-export: {0} workers and {1} queued exchanges busy:"
                                + " closing new connections without a response (logged once)", threads, queueCapacity);
                    }
                    throw new RejectedExecutionException("statvar-export saturated");
                });
    }

    /**
     * One exchange of the JDK server (read the request, handle it, write the response) on a worker, under
     * the per-server time limit: past it, the watchdog interrupts the worker, which closes the connection
     * (its channel is interruptible) and frees the worker. The lock makes the interrupt land only while
     * the exchange runs, never on the worker's next task.
     */
    private final class Watched implements Runnable {
        private final Runnable exchange;
        private final ScheduledThreadPoolExecutor dog;
        private Thread worker; // guarded by this
        private boolean done; // guarded by this

        Watched(Runnable exchange, ScheduledThreadPoolExecutor dog) {
            this.exchange = exchange;
            this.dog = dog;
        }

        @Override
        public void run() {
            synchronized (this) {
                worker = Thread.currentThread();
            }
            ScheduledFuture<?> timeout = null;
            try {
                timeout = dog.schedule(this::expire, exchangeLimitNanos, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closing) {
                // close() is stopping everything: the connection is closed anyway
            }
            try {
                exchange.run();
            } finally {
                if (timeout != null) {
                    timeout.cancel(false);
                }
                synchronized (this) {
                    done = true;
                }
                // an expire() that interrupted us did so holding the lock: clear it before the next task
                Thread.interrupted();
            }
        }

        private synchronized void expire() {
            if (!done) {
                timedOut.incrementAndGet();
                worker.interrupt();
            }
        }
    }

    private void applyJdkTimeLimits() {
        String req;
        String rsp;
        synchronized (MetricsServer.class) {
            Properties props = System.getProperties();
            setIfUnset(props, MAX_REQ_TIME, requestSeconds);
            setIfUnset(props, MAX_RSP_TIME, responseSeconds);
            req = props.getProperty(MAX_REQ_TIME);
            rsp = props.getProperty(MAX_RSP_TIME);
        }
        if (timeLimitsGiven && !(Long.toString(requestSeconds).equals(req) && Long.toString(responseSeconds).equals(rsp))) {
            LOG.log(Level.WARNING, "statvar-export: requestTimeLimits({0} s, {1} s) not applied: {2}={3} and {4}={5}"
                    + " are in force JVM-wide", requestSeconds, responseSeconds, MAX_REQ_TIME, req, MAX_RSP_TIME, rsp);
        }
    }

    /** Sets {@code key} to {@code seconds} unless it is already set; returns whether it set it. */
    static boolean setIfUnset(Properties props, String key, long seconds) {
        if (props.getProperty(key) != null) {
            return false;
        }
        props.setProperty(key, Long.toString(seconds));
        return true;
    }

    // ---- HTTP ----

    private void handle(HttpExchange ex) throws IOException {
        try {
            respond(ex);
        } finally {
            ex.close();
        }
    }

    private void respond(HttpExchange ex) throws IOException {
        String path = ex.getRequestURI().getRawPath();
        Route route = route(path);
        String method = ex.getRequestMethod();
        boolean head = "HEAD".equals(method);
        Headers out = ex.getResponseHeaders();
        out.set("Vary", route == Route.METRICS ? "Accept, Accept-Encoding" : "Accept-Encoding");
        if (route == null) {
            send(ex, head, 404, TEXT_TYPE, "not found: try /metrics, /stats.json or /-/healthy\n", false);
            return;
        }
        if (!head && !"GET".equals(method)) {
            out.set("Allow", "GET, HEAD");
            send(ex, false, 405, TEXT_TYPE, "method not allowed: GET or HEAD\n", false);
            return;
        }
        Headers in = ex.getRequestHeaders();
        boolean openMetrics = route == Route.METRICS && wantsOpenMetrics(in.get("Accept"));
        String type;
        String body;
        try {
            switch (route) {
                case METRICS:
                    type = openMetrics ? OPENMETRICS_TYPE : PROMETHEUS_TYPE;
                    body = openMetrics ? source.openMetricsText() : source.prometheusText();
                    break;
                case JSON:
                    type = JSON_TYPE;
                    body = source.json();
                    break;
                default:
                    type = TEXT_TYPE;
                    body = HEALTHY_BODY;
                    break;
            }
            Objects.requireNonNull(body, "the MetricsSource returned null");
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError) {
                throw e;
            }
            logOnce(path + (openMetrics ? " (OpenMetrics)" : ""), e);
            send(ex, head, 500, TEXT_TYPE, "internal error: rendering failed, see the server log\n", false);
            return;
        }
        send(ex, head, 200, type, body, acceptsGzip(in.get("Accept-Encoding")));
    }

    private static Route route(String rawPath) {
        if (rawPath == null) {
            return null;
        }
        switch (rawPath) {
            case "/metrics": return Route.METRICS;
            case "/stats.json": return Route.JSON;
            case "/-/healthy": return Route.HEALTHY;
            default: return null;
        }
    }

    private static void send(HttpExchange ex, boolean head, int code, String type, String body, boolean gzip)
            throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Headers out = ex.getResponseHeaders();
        out.set("Content-Type", type);
        if (gzip) {
            bytes = gzip(bytes);
            out.set("Content-Encoding", "gzip");
        }
        if (head) {
            // The JDK sends no body for HEAD and leaves Content-Length to us.
            out.set("Content-Length", Integer.toString(bytes.length));
            ex.sendResponseHeaders(code, -1);
        } else if (bytes.length == 0) {
            ex.sendResponseHeaders(code, -1); // -1: Content-Length 0 (0 would mean chunked)
        } else {
            ex.sendResponseHeaders(code, bytes.length);
            try (OutputStream os = ex.getResponseBody()) {
                os.write(bytes);
            }
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(bytes.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(buf, 8192)) {
            gz.write(bytes);
        }
        return buf.toByteArray();
    }

    /** Whether an {@code Accept} header contains {@code application/openmetrics-text}. */
    static boolean wantsOpenMetrics(List<String> accept) {
        if (accept != null) {
            for (String value : accept) {
                if (value.toLowerCase(Locale.ROOT).contains("application/openmetrics-text")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether {@code Accept-Encoding} lists gzip (or x-gzip) with a quality other than 0. */
    static boolean acceptsGzip(List<String> acceptEncoding) {
        if (acceptEncoding != null) {
            for (String value : acceptEncoding) {
                for (String item : value.split(",")) {
                    String[] parts = item.split(";");
                    String coding = parts[0].trim();
                    if (coding.equalsIgnoreCase("gzip") || coding.equalsIgnoreCase("x-gzip")) {
                        return nonZeroQuality(parts);
                    }
                }
            }
        }
        return false;
    }

    private static boolean nonZeroQuality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            if (p.length() >= 2 && p.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    return Double.parseDouble(p.substring(2).trim()) > 0;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return true;
    }

    private void logOnce(String where, Throwable t) {
        StackTraceElement[] frames = t.getStackTrace();
        String cause = t.getClass().getName() + (frames.length > 0 ? " at " + frames[0] : "");
        // bounded: at most MAX_LOGGED_CAUSES (+ one per worker racing the check) causes remembered
        if (loggedCauses.size() < MAX_LOGGED_CAUSES && loggedCauses.add(where + ": " + cause)) {
            LOG.log(Level.WARNING, "statvar-export: the MetricsSource failed serving " + where
                    + "; answered 500 (logged once per cause: " + cause + ")", t);
        }
    }

    /** Configures a {@link MetricsServer}. Not thread-safe; {@link #build()} copies it. */
    public static final class Builder {
        private final MetricsSource source;
        private String bindAddress = DEFAULT_BIND_ADDRESS;
        private int port = DEFAULT_PORT;
        private int threads = 2;
        private int queueCapacity = 16;
        private long requestSeconds = DEFAULT_REQUEST_SECONDS;
        private long responseSeconds = DEFAULT_RESPONSE_SECONDS;
        private boolean timeLimitsGiven;
        private Duration exchangeLimit = Duration.ofSeconds(DEFAULT_REQUEST_SECONDS + DEFAULT_RESPONSE_SECONDS);

        private Builder(MetricsSource source) {
            this.source = Objects.requireNonNull(source, "source");
        }

        /** Host name or IP literal to bind; default {@code 127.0.0.1}. {@code 0.0.0.0} exposes every interface. */
        public Builder bindAddress(String host) {
            this.bindAddress = Objects.requireNonNull(host, "host");
            return this;
        }

        /** TCP port, 0..65535; default 9400; 0 takes any free port (see {@link MetricsServer#port()}). */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " not in 0..65535");
            }
            this.port = port;
            return this;
        }

        /** Worker threads, at least 1; default 2. Also the most concurrent calls to the source. */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads " + threads + " < 1");
            }
            this.threads = threads;
            return this;
        }

        /** Exchanges that may wait for a worker, at least 1; default 16. Beyond, connections are rejected. */
        public Builder queueCapacity(int queueCapacity) {
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("queueCapacity " + queueCapacity + " < 1");
            }
            this.queueCapacity = queueCapacity;
            return this;
        }

        /**
         * The JDK server's request and response time limits, rounded up to whole seconds; default
         * 10 s and 30 s. JVM-wide, not per server: applied only to those of
         * {@code sun.net.httpserver.maxReqTime} / {@code maxRspTime} that are unset when the server
         * starts, and effective only if no {@code HttpServer} was created in this JVM before (see the
         * class documentation). A warning is logged when the values in force differ.
         */
        public Builder requestTimeLimits(Duration request, Duration response) {
            this.requestSeconds = seconds(request, "request");
            this.responseSeconds = seconds(response, "response");
            this.timeLimitsGiven = true;
            return this;
        }

        /**
         * Per server, whatever the JDK's settings: the longest a worker spends on one exchange (reading
         * the request, rendering, writing the response), from when it takes it; default 40 s. Past it the
         * worker is interrupted, which closes the connection, and is free again.
         */
        public Builder exchangeTimeLimit(Duration limit) {
            Objects.requireNonNull(limit, "limit");
            if (limit.isNegative() || limit.isZero()) {
                throw new IllegalArgumentException("exchange time limit must be positive: " + limit);
            }
            this.exchangeLimit = limit;
            return this;
        }

        private static long seconds(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " time limit must be positive: " + d);
            }
            long s = d.getSeconds();
            return d.getNano() > 0 ? s + 1 : s;
        }

        /** A server with this configuration, not started: call {@link MetricsServer#start()}. */
        public MetricsServer build() {
            return new MetricsServer(this);
        }
    }
}
