package dev.statvar.export;

import dev.statvar.export.internal.http.HttpFrontEnd;
import dev.statvar.export.internal.http.HttpRequestHead;
import dev.statvar.export.internal.http.HttpResponse;
import dev.statvar.export.internal.http.Workers;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves a {@link MetricsSource} over HTTP/1.1, on the JDK alone: a non-blocking front end of its own
 * ({@code java.nio} selector, {@link HttpFrontEnd}) reads requests, a bounded pool of workers renders.
 *
 * <pre>{@code
 * try (MetricsServer server = MetricsServer.builder(source).build().start()) { // 127.0.0.1:9400
 *     ...
 * }
 * }</pre>
 *
 * <h2>Routes</h2>
 * Exact paths, compared as sent (percent-encoded); the query string is ignored ({@code /metrics?x=1} is
 * {@code /metrics}).
 * <ul>
 * <li>{@code /metrics}: {@link MetricsSource#openMetricsText()} as
 *     {@code application/openmetrics-text; version=1.0.0; charset=utf-8} or
 *     {@link MetricsSource#prometheusText()} as {@code text/plain; version=0.0.4; charset=utf-8}, chosen
 *     from the {@code Accept} header as RFC 9110 says: media ranges with q-values, the most specific
 *     range deciding, the scraper's preference first ({@code version} must match when given:
 *     OpenMetrics {@code 0.0.1} is not {@code 1.0.0}). Without a preferred one (no header, only unknown
 *     types, or only {@code *}{@code /*}) the text format; 406 when the header refuses the text format
 *     ({@code q=0}) and accepts nothing else offered. A malformed range is ignored, never a 500.
 * <li>{@code /stats.json}: {@link MetricsSource#json()} as {@code application/json; charset=utf-8}.
 * <li>{@code /-/healthy}: 200, {@code text/plain}, {@code "statvar is healthy\n"}; does not call the source.
 * <li>any other path: 404 with a short plain-text body.
 * </ul>
 * Methods GET and HEAD (HEAD: the headers of the GET, {@code Content-Length} included, and no body);
 * any other method gets 405 with {@code Allow: GET, HEAD}. A 200 body is gzip-compressed when
 * {@code Accept-Encoding} lists {@code gzip} with a non-zero quality ({@code Content-Encoding: gzip},
 * {@code Content-Length} of the compressed body). Every response has {@code Vary: Accept-Encoding}
 * ({@code /metrics}: {@code Vary: Accept, Accept-Encoding}). A request the front end cannot parse gets
 * 400 (431 when its head exceeds 16 KiB, 505 for an HTTP version other than 1.0 and 1.1) and its
 * connection is closed; so does a header value holding NUL, a bare CR or another control character but
 * HTAB, an HTTP/1.1 request without {@code Host}, and any request with two {@code Host} (RFC 9112 3.2). HTTP/1.1 connections are kept alive unless the request says
 * {@code Connection: close} or carries a body; HTTP/1.0 ones close after the response.
 *
 * <h2>Threading</h2>
 * One selector thread per server accepts connections and reads each request line and headers without
 * blocking; only a complete request goes to one of {@link Builder#threads(int) threads} daemon worker
 * threads (default 2), behind a queue of at most {@link Builder#queueCapacity(int) queueCapacity}
 * requests (default 16). A worker renders the response and hands it back; the selector thread writes
 * it without blocking. So no worker ever waits for a client, the source is called by up to
 * {@code threads} threads at once, never by the selector thread, and once per request. A 200 body is
 * encoded (and gzipped) once while the source returns the same {@code String}, which a
 * {@link StatExporter} does for every scrape of one interval and format (it renders each once): so a
 * scrape of an interval already served costs no render and no compression. Each server also has one
 * watchdog thread (see Time limits).
 *
 * <h2>Saturation: the connection is closed, not answered 503</h2>
 * A request beyond the workers and their queue waits in the front end, holding no worker, first come
 * first served (at most one per connection), for at most the header time limit; then its connection is
 * closed without a response (the scraper sees a failed scrape and tries again at its next interval).
 * Pipelined requests (sent before the previous response was written, or with another request behind
 * them) go to the workers only while fewer than {@code threads + queueCapacity / 2} are there, after
 * the others; at most 16 are answered in a row per connection, the 16th with {@code Connection: close}.
 * At most {@link Builder#maxConnections(int) maxConnections} connections are open (default 128); a new
 * one beyond closes, in this order, a connection whose client does not read its response (the least
 * recent progress first), the one whose pipelined request waited longest, the oldest one closing after
 * its last response, the oldest one still waiting for its request; if none is open, the new one is
 * itself closed without a response. {@link #rejectedConnections()} counts the connections closed for
 * want of capacity (the first of each cause is logged), {@link #stalledResponsesClosed()} those closed
 * for not reading.
 *
 * <h2>Time limits, per server</h2>
 * <ul>
 * <li><b>Headers:</b> a connection's request line and headers must arrive within
 *     {@link Builder#headerTimeLimit(Duration)} (default 5 s) of its accept, or of the end of its
 *     previous response; else it is closed without a response. Connections closed so with part of a
 *     request, or before their first request, are counted by {@link #slowClientsClosed()}; an idle
 *     keep-alive connection is closed at the same limit without being counted. Clients sending a byte at
 *     a time hold no worker meanwhile.
 * <li><b>Rendering:</b> no worker spends more than {@link Builder#exchangeTimeLimit(Duration)} (default
 *     40 s) on one request, counted from when it takes it: past that, the watchdog closes the connection
 *     without a response and interrupts the worker ({@link #timedOutExchanges()}). A render that ignores
 *     interrupts keeps its worker until it returns, but its response is not sent.
 * <li><b>Response:</b> a response must be written within {@link Builder#responseTimeLimit(Duration)}
 *     (default 30 s) of being rendered, and the client must take some of its bytes at least every header
 *     time limit (default 5 s; the response limit if shorter), else the connection is closed (a client
 *     that does not read). No worker waits for a client meanwhile.
 * </ul>
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
    /** The default {@link Builder#headerTimeLimit(Duration)}: 5 s. */
    public static final Duration DEFAULT_HEADER_TIME_LIMIT = Duration.ofSeconds(5);
    /** The default {@link Builder#responseTimeLimit(Duration)}: 30 s. */
    public static final Duration DEFAULT_RESPONSE_TIME_LIMIT = Duration.ofSeconds(30);
    /** The default {@link Builder#exchangeTimeLimit(Duration)}: 40 s. */
    public static final Duration DEFAULT_EXCHANGE_TIME_LIMIT = Duration.ofSeconds(40);
    /** The default {@link Builder#maxConnections(int)}: 128. */
    public static final int DEFAULT_MAX_CONNECTIONS = 128;

    private static final AtomicInteger SERVER_IDS = new AtomicInteger();

    private final MetricsRoutes routes;
    private final String bindAddress;
    private final int requestedPort;
    private final int threads;
    private final int queueCapacity;
    private final int maxConnections;
    private final Duration headerLimit;
    private final Duration responseLimit;
    private final long exchangeLimitNanos;

    private final Object lock = new Object();
    // guarded by lock
    private boolean started;
    private boolean closed;
    private HttpFrontEnd frontEnd;
    private Workers workers;
    private InetSocketAddress boundAddress;

    private MetricsServer(Builder b) {
        routes = new MetricsRoutes(b.source);
        bindAddress = b.bindAddress;
        requestedPort = b.port;
        threads = b.threads;
        queueCapacity = b.queueCapacity;
        maxConnections = b.maxConnections;
        headerLimit = b.headerLimit;
        responseLimit = b.responseLimit;
        exchangeLimitNanos = nanos(b.exchangeLimit);
    }

    /** {@code d} in nanoseconds, at most 2^61 (73 years): deadlines {@code nanoTime() + limit} then compare by difference. */
    private static long nanos(Duration d) {
        long cap = Long.MAX_VALUE / 4;
        try {
            return Math.min(d.toNanos(), cap);
        } catch (ArithmeticException tooLong) {
            return cap;
        }
    }

    /**
     * A builder of a server serving {@code source}, with the defaults.
     *
     * @param source what the server serves; called by up to {@link Builder#threads(int) threads}
     *               workers at once
     * @return a new builder
     * @throws NullPointerException if {@code source} is null
     */
    public static Builder builder(MetricsSource source) {
        return new Builder(source);
    }

    /**
     * Binds and starts serving: connections are accepted from when it returns.
     *
     * @return this server
     * @throws IOException if the address cannot be resolved or bound
     * @throws IllegalStateException if already started or closed
     */
    public MetricsServer start() throws IOException {
        synchronized (lock) {
            if (started || closed) {
                throw new IllegalStateException(closed ? "closed" : "already started");
            }
            String prefix = "statvar-export-" + SERVER_IDS.incrementAndGet() + "-";
            Workers w = new Workers(prefix, threads, queueCapacity, exchangeLimitNanos);
            HttpFrontEnd front = null;
            InetSocketAddress bound;
            try {
                InetSocketAddress address = new InetSocketAddress(InetAddress.getByName(bindAddress), requestedPort);
                try {
                    // pipelined requests may take the workers and half the queue: the rest stays for others
                    HttpFrontEnd.Limits limits = new HttpFrontEnd.Limits(maxConnections, nanos(headerLimit),
                            nanos(responseLimit), threads + queueCapacity, threads + queueCapacity / 2);
                    front = HttpFrontEnd.bind(address, limits, exchange -> w.submit(exchange, routes::respond),
                            prefix + "selector");
                } catch (java.net.BindException e) { // the JDK's message ("Address already in use") names no address
                    java.net.BindException named = new java.net.BindException("cannot bind " + bindAddress + ":"
                            + requestedPort + ": " + e.getMessage());
                    named.initCause(e);
                    throw named;
                }
                bound = front.address();
                front.start();
            } catch (IOException | RuntimeException | Error e) {
                if (front != null) {
                    front.close();
                }
                w.shutdown();
                throw e;
            }
            boundAddress = bound;
            frontEnd = front;
            workers = w;
            started = true;
            return this;
        }
    }

    /**
     * The bound port.
     *
     * @return the port the server listens on (the one chosen when built with port 0)
     * @throws IllegalStateException before {@link #start()}
     */
    public int port() {
        return address().getPort();
    }

    /**
     * The bound address.
     *
     * @return the address and port the server listens on
     * @throws IllegalStateException before {@link #start()}
     */
    public InetSocketAddress address() {
        synchronized (lock) {
            if (boundAddress == null) {
                throw new IllegalStateException("not started");
            }
            return boundAddress;
        }
    }

    /**
     * The header time limit of this server (see {@link Builder#headerTimeLimit(Duration)}).
     *
     * @return the limit the server was built with
     */
    public Duration headerTimeLimit() {
        return headerLimit;
    }

    /**
     * Connections closed without a response because the server was saturated: a request that waited the
     * header time limit for a worker, a pipelined request dropped to make room for a new connection, or a
     * new connection refused because {@code maxConnections} connections were open, each with a request
     * being answered or waiting.
     *
     * @return the count since {@link #start()}; 0 before
     */
    public long rejectedConnections() {
        synchronized (lock) {
            return workers == null ? 0 : workers.rejected() + frontEnd.refusedConnections();
        }
    }

    /**
     * Connections closed because their request line and headers did not all arrive within the header time
     * limit (or closed to make room for a new connection while still waiting for them), idle keep-alive
     * connections excepted.
     *
     * @return the count since {@link #start()}; 0 before
     */
    public long slowClientsClosed() {
        HttpFrontEnd f = front();
        return f == null ? 0 : f.slowClientsClosed();
    }

    /**
     * Connections closed because the client did not read a rendered response: not written within the
     * response time limit, no byte taken within the header time limit, or (at {@code maxConnections}) a
     * blocked write closed to make room for a new connection.
     *
     * @return the count since {@link #start()}; 0 before
     */
    public long stalledResponsesClosed() {
        HttpFrontEnd f = front();
        return f == null ? 0 : f.stalledResponsesClosed();
    }

    /**
     * Requests whose render exceeded the exchange time limit: connection closed, worker interrupted.
     *
     * @return the count since {@link #start()}; 0 before
     */
    public long timedOutExchanges() {
        synchronized (lock) {
            return workers == null ? 0 : workers.timedOut();
        }
    }

    /**
     * Connections open now.
     *
     * @return the open connections; 0 before {@link #start()}
     */
    public int openConnections() {
        HttpFrontEnd f = front();
        return f == null ? 0 : f.openConnections();
    }

    private HttpFrontEnd front() {
        synchronized (lock) {
            return frontEnd;
        }
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
            if (frontEnd != null) {
                frontEnd.close(); // closes the listening socket and all connections, joins the selector thread
            }
            if (workers != null) {
                workers.shutdown();
            }
        }
    }

    /** Requests waiting for a worker (tests). */
    int queuedExchanges() {
        synchronized (lock) {
            return workers == null ? 0 : workers.queued();
        }
    }

    /** Workers busy with a request (tests). */
    int activeExchanges() {
        synchronized (lock) {
            return workers == null ? 0 : workers.active();
        }
    }

    /** Whether the workers have all ended (tests). */
    boolean workersTerminated() {
        synchronized (lock) {
            return workers != null && workers.terminated();
        }
    }

    /** The executor requests go to: the workers, each task under the watchdog (tests). */
    Executor exchangeExecutor() {
        synchronized (lock) {
            return workers == null ? null : workers.executor();
        }
    }

    /** Configures a {@link MetricsServer}. Not thread-safe; {@link #build()} copies it. */
    public static final class Builder {
        private final MetricsSource source;
        private String bindAddress = DEFAULT_BIND_ADDRESS;
        private int port = DEFAULT_PORT;
        private int threads = 2;
        private int queueCapacity = 16;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private Duration headerLimit = DEFAULT_HEADER_TIME_LIMIT;
        private Duration responseLimit = DEFAULT_RESPONSE_TIME_LIMIT;
        private Duration exchangeLimit = DEFAULT_EXCHANGE_TIME_LIMIT;

        private Builder(MetricsSource source) {
            this.source = Objects.requireNonNull(source, "source");
        }

        /**
         * Host name or IP literal to bind; default {@code 127.0.0.1}. {@code 0.0.0.0} exposes every
         * interface. Resolved by {@link MetricsServer#start()}.
         *
         * @param host the address to bind
         * @return this builder
         * @throws NullPointerException if {@code host} is null
         */
        public Builder bindAddress(String host) {
            this.bindAddress = Objects.requireNonNull(host, "host");
            return this;
        }

        /**
         * TCP port; default 9400; 0 takes any free port (see {@link MetricsServer#port()}).
         *
         * @param port the port to bind, 0..65535
         * @return this builder
         * @throws IllegalArgumentException if {@code port} is not in 0..65535
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port " + port + " not in 0..65535");
            }
            this.port = port;
            return this;
        }

        /**
         * Worker threads; default 2. Also the most concurrent calls to the source.
         *
         * @param threads the number of workers, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code threads} is less than 1
         */
        public Builder threads(int threads) {
            if (threads < 1) {
                throw new IllegalArgumentException("threads " + threads + " < 1");
            }
            this.threads = threads;
            return this;
        }

        /**
         * Requests that may wait in the workers' queue; default 16. Beyond, requests wait in the front end
         * (at most one per connection) for at most the header time limit, then their connections are
         * closed unanswered. Pipelined requests may take at most half of it.
         *
         * @param queueCapacity the most waiting requests, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code queueCapacity} is less than 1
         */
        public Builder queueCapacity(int queueCapacity) {
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("queueCapacity " + queueCapacity + " < 1");
            }
            this.queueCapacity = queueCapacity;
            return this;
        }

        /**
         * Most connections open at once, at least 1; default 128. A new one beyond closes the oldest
         * connection waiting for its request, or is closed itself when none is (see the class documentation).
         *
         * @param maxConnections the most open connections, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code maxConnections} is less than 1
         */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections " + maxConnections + " < 1");
            }
            this.maxConnections = maxConnections;
            return this;
        }

        /**
         * The longest a connection may take to send a request line and headers, from its accept or the end
         * of its previous response; default 5 s ({@link #DEFAULT_HEADER_TIME_LIMIT}). Past it the connection
         * is closed without a response. Also the longest a request waits for a worker, and the longest a
         * client may go without taking a byte of its response (see the class documentation).
         *
         * @param limit the header time limit, positive
         * @return this builder
         * @throws NullPointerException     if {@code limit} is null
         * @throws IllegalArgumentException if not positive
         */
        public Builder headerTimeLimit(Duration limit) {
            this.headerLimit = positive(limit, "header");
            return this;
        }

        /**
         * The longest the server spends writing a rendered response to a client; default 30 s. Past it the
         * connection is closed.
         *
         * @param limit the response time limit, positive
         * @return this builder
         * @throws NullPointerException     if {@code limit} is null
         * @throws IllegalArgumentException if not positive
         */
        public Builder responseTimeLimit(Duration limit) {
            this.responseLimit = positive(limit, "response");
            return this;
        }

        /**
         * The longest a worker spends rendering one request, from when it takes it; default 40 s. Past it
         * the connection is closed without a response and the worker interrupted.
         *
         * @param limit the exchange time limit, positive
         * @return this builder
         * @throws NullPointerException     if {@code limit} is null
         * @throws IllegalArgumentException if not positive
         */
        public Builder exchangeTimeLimit(Duration limit) {
            this.exchangeLimit = positive(limit, "exchange");
            return this;
        }

        private static Duration positive(Duration d, String what) {
            Objects.requireNonNull(d, "limit");
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(what + " time limit must be positive: " + d);
            }
            return d;
        }

        /**
         * A server with this configuration, not started: call {@link MetricsServer#start()}.
         *
         * @return a new server; later changes to this builder do not affect it
         */
        public MetricsServer build() {
            return new MetricsServer(this);
        }
    }
}
