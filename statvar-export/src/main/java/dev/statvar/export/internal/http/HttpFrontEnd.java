package dev.statvar.export.internal.http;

import dev.statvar.export.internal.http.HttpConnection.State;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The HTTP/1.1 transport of a {@link dev.statvar.export.MetricsServer}: one selector thread accepts connections, reads each
 * request line and headers without blocking, hands only complete requests to the server's workers, and
 * writes their responses without blocking. No worker ever waits for a client's bytes, so slow or stalled
 * clients cannot starve the workers.
 *
 * <h2>Per connection</h2>
 * <ul>
 * <li><b>Header time limit.</b> A connection's request line and headers must all arrive within
 *     {@code headerLimit} of it starting to wait for them (its accept, or the end of its previous
 *     response); else it is closed without a response. {@link #slowClientsClosed()} counts those closed
 *     with part of a request, or before their first request (a silent client); an idle keep-alive
 *     connection (a request answered, no byte of the next) is closed at the same limit without being
 *     counted.
 * <li><b>Head size.</b> At most {@link HttpRequestHead#MAX_HEAD_BYTES} bytes of request line and headers:
 *     beyond, 431 and close. A malformed head gets 400 (505 for another HTTP version) and close.
 * <li><b>Response time limits.</b> A response must be written within {@code responseLimit} of its worker
 *     handing it over, and the client must take some of its bytes at least every {@code headerLimit} (or
 *     {@code responseLimit} if shorter); else the connection is closed ({@link #stalledResponsesClosed()}).
 * <li><b>Keep-alive.</b> HTTP/1.1 connections stay open for the next request unless the request says
 *     {@code Connection: close} or has a body; HTTP/1.0 connections close after one response. Requests
 *     sent before the previous response (pipelined) are answered in order, one at a time: the connection is
 *     not read while one of its requests is with a worker or its response is being written, so a connection
 *     holds at most one request outside its buffer, and its pipelined requests wait in its
 *     {@link HttpRequestHead#MAX_HEAD_BYTES} buffer and the kernel's socket buffer.
 * <li><b>Pipelining bound.</b> At most {@link #MAX_PIPELINED} requests are answered in a row without the
 *     connection waiting for bytes; the last of them gets {@code Connection: close} and the connection is
 *     closed after it (a client resends the rest on a new connection, as RFC 9112 9.3.2 allows).
 * <li><b>Waiting for a worker.</b> A complete request goes to the workers only as {@link WorkerAdmission}
 *     lets it: at most {@code workerCapacity} are with them, and pipelined requests (sent before the previous
 *     response was written, or with another request behind them) only up to {@code pipelinedShare}, after
 *     every other waiting request. A request that waits holds no worker and no queue slot; if it waits
 *     {@code headerLimit}, its connection is closed without a response ({@link #refusedConnections()}).
 * <li><b>Closing after a response</b> half-closes the connection and reads and discards what the client
 *     still sends (at most 1 MiB, for at most {@code headerLimit}) before closing it, so that unread
 *     request bytes do not turn the close into a reset that loses the response.
 * </ul>
 *
 * <h2>Open connections</h2>
 * At most {@code maxConnections}. A new connection beyond that closes, in this order of preference: the
 * connection whose response write is blocked and has progressed least recently (a client not reading;
 * {@link #stalledResponsesClosed()}), the one whose pipelined request has waited longest for a worker
 * (dropped unanswered; {@link #refusedConnections()}), the oldest one closing after its last response, the
 * oldest one waiting for a request (counted as slow unless idle, as above) unless accepted in the same
 * wake of the selector (it had no chance to send its request yet). When none is open (every
 * connection has a request being answered or waiting for a worker that is not pipelined) the new
 * connection is closed at once without a response ({@link #refusedConnections()}). Connections not yet
 * accepted wait in a listen backlog of {@value #BACKLOG} (as the kernel caps it).
 *
 * <h2>Threading</h2>
 * Connections are confined to the selector thread. A request goes to a worker as an immutable
 * {@link HttpExchange} through the dispatcher ({@code Executor.execute}, which orders the hand-over); the
 * worker renders and calls {@link HttpExchange#respond} or {@link HttpExchange#abort}, which put a command on a
 * concurrent queue (the queue orders it before the selector thread's poll) and wake the selector.
 */
public final class HttpFrontEnd implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.statvar.export");
    /** Most bytes read and discarded from a connection being closed after its response. */
    private static final long MAX_DRAIN_BYTES = 1 << 20;
    /** Most requests answered in a row on one connection without it waiting for bytes: the last one closes it. */
    public static final int MAX_PIPELINED = 16;
    /** Most connections accepted in one wake of the selector: others wait in the backlog for the next. */
    private static final int MAX_ACCEPTS_PER_WAKE = 64;
    /**
     * The listen backlog asked for (Linux caps it at {@code net.core.somaxconn}, 4096 by default): connections
     * a flood opens wait there to be accepted (or refused) in turn, instead of their SYNs being dropped, which
     * would delay every new client, well-behaved ones included, by the 1 s SYN retransmission.
     */
    private static final int BACKLOG = 4096;
    /** Pause of accepting after accept() failed (e.g. out of file descriptors): no spinning on a ready key. */
    private static final long ACCEPT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * The bounds of a front end.
     *
     * @param maxConnections     most open connections
     * @param headerLimitNanos   the header time limit
     * @param responseLimitNanos the response time limit
     * @param workerCapacity     most requests with the workers (queued or being rendered); beyond, a request waits
     * @param pipelinedShare     most requests with the workers at which a pipelined one is still dispatched
     *                           (see {@link WorkerAdmission})
     */
    public record Limits(int maxConnections, long headerLimitNanos, long responseLimitNanos, int workerCapacity,
                  int pipelinedShare) {
    }

    private final ServerSocketChannel server;
    private final Selector selector;
    private final int maxConnections;
    private final long headerLimitNanos;
    private final long responseLimitNanos;
    /** No write progress for this long closes a response: the shorter of the header and response limits. */
    private final long progressLimitNanos;
    private final Consumer<HttpExchange> dispatcher;
    private final Thread thread;

    /** Worker to selector thread: the queue orders each command before its poll. */
    private final ConcurrentLinkedQueue<HttpExchange.Command> commands = new ConcurrentLinkedQueue<>();
    /** Set by close(), read by the selector loop: volatile write/read pair. */
    private volatile boolean closing;
    /** Written by the selector thread only, read by any thread (tests, metrics): volatile. */
    private volatile int openConnections;
    private final AtomicLong slowClosed = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong stalledResponses = new AtomicLong();
    private final AtomicBoolean slowLogged = new AtomicBoolean();
    private final AtomicBoolean refusedLogged = new AtomicBoolean();
    private final AtomicBoolean errorLogged = new AtomicBoolean();

    // ---- confined to the selector thread ----
    /** Open connections, oldest first. */
    private final LinkedHashSet<HttpConnection> connections = new LinkedHashSet<>();
    /** Set by bind() before start(): Thread.start orders it before the selector thread's reads. */
    private SelectionKey serverKey;
    private boolean anyDeadline;
    private long nextDeadline;
    private boolean acceptPaused;
    private long acceptResumeAt;
    private final ByteBuffer scratch = ByteBuffer.allocate(8192);
    private final WorkerAdmission admission;
    /** Wakes of the selector loop so far. */
    private long wakes;

    private HttpFrontEnd(ServerSocketChannel server, Selector selector, Limits limits, Consumer<HttpExchange> dispatcher,
                         String threadName) {
        this.server = server;
        this.selector = selector;
        this.maxConnections = limits.maxConnections();
        this.headerLimitNanos = limits.headerLimitNanos();
        this.responseLimitNanos = limits.responseLimitNanos();
        this.progressLimitNanos = Math.min(headerLimitNanos, responseLimitNanos);
        this.admission = new WorkerAdmission(limits.workerCapacity(), limits.pipelinedShare());
        this.dispatcher = dispatcher;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    /**
     * Binds {@code address}; {@link #start()} then serves it. {@code dispatcher} gets each complete request
     * on the selector thread and must not block; a {@link RejectedExecutionException} from it closes the
     * connection without a response.
     *
     * @throws IOException if the address cannot be bound (a {@link java.net.BindException} when in use)
     */
    public static HttpFrontEnd bind(InetSocketAddress address, Limits limits, Consumer<HttpExchange> dispatcher, String threadName)
            throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        Selector selector = null;
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(address, BACKLOG);
            server.configureBlocking(false);
            selector = Selector.open();
            HttpFrontEnd f = new HttpFrontEnd(server, selector, limits, dispatcher, threadName);
            f.serverKey = server.register(selector, SelectionKey.OP_ACCEPT);
            return f;
        } catch (IOException | RuntimeException e) {
            server.close();
            if (selector != null) {
                selector.close();
            }
            throw e;
        }
    }

    /** Starts the selector thread. */
    public void start() {
        thread.start();
    }

    /** The bound address. */
    public InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    /** Connections closed because their request line and headers did not arrive within the header time limit. */
    public long slowClientsClosed() {
        return slowClosed.get();
    }

    /**
     * Connections closed without a response for want of capacity: new ones refused at {@code maxConnections},
     * ones whose pipelined request was dropped to make room, ones whose request waited {@code headerLimit} for a worker.
     */
    public long refusedConnections() {
        return refused.get();
    }

    /**
     * Connections closed because the client did not read its response: not written within the response time
     * limit, no progress within the progress limit, or a blocked write closed to make room for a new connection.
     */
    public long stalledResponsesClosed() {
        return stalledResponses.get();
    }

    /** Connections open now. */
    public int openConnections() {
        return openConnections; // volatile read: pairs with the selector thread's writes
    }

    /**
     * Stops the selector thread, closing every connection and the listening socket; waits for it up to
     * 10 s. Idempotent.
     */
    @Override
    public void close() {
        closing = true; // volatile write: pairs with the loop's read
        selector.wakeup();
        if (Thread.currentThread() != thread && thread.getState() != Thread.State.NEW) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (thread.getState() == Thread.State.NEW) {
            closeQuietly(selector);
        }
        closeQuietly(server); // channel close is thread-safe; a no-op once the loop closed it
    }

    private void command(HttpExchange.Command c) {
        commands.add(c); // the queue orders this before the selector thread's poll
        selector.wakeup();
    }

    // ---- the selector loop ----

    private void run() {
        try {
            while (!closing) { // volatile read: pairs with close()
                long wait = anyDeadline ? nextDeadline - System.nanoTime() : 0;
                if (!anyDeadline) {
                    selector.select();
                } else if (wait <= 0) {
                    selector.selectNow();
                } else {
                    selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wait + 999_999)));
                }
                wakes++;
                runCommands();
                boolean acceptable = false;
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (k == serverKey) {
                        acceptable = k.isValid();
                    } else {
                        ready(k);
                    }
                }
                if (acceptable) { // after the reads: a connection whose request has arrived is no longer waiting
                    accept();
                }
                if (anyDeadline && System.nanoTime() - nextDeadline >= 0) {
                    sweep(System.nanoTime());
                }
            }
        } catch (IOException | RuntimeException | Error e) {
            if (!closing) {
                LOG.log(Level.ERROR, "statvar-export: the HTTP front end stopped; the endpoint no longer answers", e);
            }
            if (e instanceof Error err) {
                throw err;
            }
        } finally {
            for (HttpConnection c : new ArrayList<>(connections)) {
                close(c);
            }
            closeQuietly(server);
            closeQuietly(selector);
        }
    }

    private void ready(SelectionKey k) {
        HttpConnection c = (HttpConnection) k.attachment();
        try {
            if (k.isValid() && k.isReadable()) {
                if (c.state == State.READING) {
                    readRequest(c);
                } else if (c.state == State.DRAINING) {
                    drain(c);
                }
            }
            if (k.isValid() && k.isWritable() && c.state == State.WRITING) {
                write(c);
            }
        } catch (IOException e) {
            close(c); // reset or closed by the client
        } catch (RuntimeException e) {
            unexpected(c, e);
        }
    }

    private void unexpected(HttpConnection c, RuntimeException e) {
        if (errorLogged.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "statvar-export: unexpected error on a connection; closed it (logged once)", e);
        }
        close(c);
    }

    private void accept() throws IOException {
        for (int i = 0; i < MAX_ACCEPTS_PER_WAKE; i++) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (IOException e) { // e.g. out of file descriptors: pause, do not spin on the ready key
                if (errorLogged.compareAndSet(false, true)) {
                    LOG.log(Level.WARNING, "statvar-export: accept failed; pausing accepting for 100 ms (logged once)", e);
                }
                serverKey.interestOps(0);
                acceptPaused = true;
                acceptResumeAt = System.nanoTime() + ACCEPT_PAUSE_NANOS;
                arm(acceptResumeAt);
                return;
            }
            if (ch == null) {
                return;
            }
            if (connections.size() >= maxConnections && !evictOne()) {
                refused.incrementAndGet();
                if (refusedLogged.compareAndSet(false, true)) {
                    LOG.log(Level.WARNING, "statvar-export: {0} connections open, each with a request being answered:"
                            + " closing new connections without a response (logged once)", maxConnections);
                }
                closeQuietly(ch);
                continue;
            }
            try {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                HttpConnection c = new HttpConnection(ch);
                c.acceptedInWake = wakes;
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                connections.add(c);
                openConnections = connections.size(); // volatile write: read by openConnections()
                waitForRequest(c, System.nanoTime());
            } catch (IOException e) {
                closeQuietly(ch);
            }
        }
    }

    /** Makes room for a new connection by closing one ({@link HttpConnection#toEvict}); false if none may go. */
    private boolean evictOne() {
        HttpConnection c = HttpConnection.toEvict(connections, admission.oldestPipelined(), wakes);
        if (c == null) {
            return false;
        }
        switch (c.state) {
            case WRITING -> {
                stalledResponses.incrementAndGet();
                close(c);
            }
            case DEFERRED -> {
                refused.incrementAndGet(); // its pipelined request is dropped unanswered
                close(c);
            }
            case READING -> closeWaiting(c);
            default -> close(c); // draining after its last response
        }
        return true;
    }

    private void waitForRequest(HttpConnection c, long now) {
        c.state = State.READING;
        c.key.interestOps(SelectionKey.OP_READ);
        setDeadline(c, now + headerLimitNanos);
    }

    private void readRequest(HttpConnection c) throws IOException {
        if (c.in.readFrom(c.channel) < 0) {
            close(c); // the client closed (or half-closed) before a whole request
            return;
        }
        parseBuffered(c, false);
    }

    /**
     * Hands the next complete buffered request to a worker, or defers it; answers a bad one; else waits for
     * more bytes. {@code pipelined}: the request was buffered before the previous response was written.
     */
    private void parseBuffered(HttpConnection c, boolean pipelined) {
        HttpRequestHead head;
        try {
            head = c.in.next();
        } catch (HttpRequestHead.BadRequest e) {
            reject(c, e.status);
            return;
        }
        if (head == null) {
            return;
        }
        boolean body = head.hasBody();
        if (body) {
            c.in.clear(); // the connection closes after the response; what follows is drained then
        }
        c.inARow = pipelined ? c.inARow + 1 : 1;
        boolean keepAlive = head.keepAlive() && !body && c.inARow < MAX_PIPELINED;
        c.key.interestOps(0);
        // pipelined: sent before the previous response was written, or with another request behind it
        if (admission.admit(c, pipelined || c.in.buffered() > 0)) {
            dispatch(c, head, keepAlive);
        } else { // not rejected: it waits for the workers, holding no worker and no queue slot
            c.state = State.DEFERRED;
            c.deferredHead = head;
            c.deferredKeepAlive = keepAlive;
            setDeadline(c, System.nanoTime() + headerLimitNanos);
        }
    }

    /** Hands a request the admission let through to a worker. */
    private void dispatch(HttpConnection c, HttpRequestHead head, boolean keepAlive) {
        c.state = State.PROCESSING;
        c.hasDeadline = false; // the workers' own time limit applies now
        try {
            dispatcher.accept(new HttpExchange(this::command, c, head, keepAlive));
        } catch (RejectedExecutionException saturated) {
            admission.done();
            close(c);
        }
    }

    /** Dispatches waiting requests as far as the admission lets them through. */
    private void dispatchWaiting() {
        for (HttpConnection c; (c = admission.next()) != null; ) {
            HttpRequestHead head = c.deferredHead;
            c.deferredHead = null;
            dispatch(c, head, c.deferredKeepAlive);
        }
    }

    private void reject(HttpConnection c, int status) {
        c.in.clear();
        startWrite(c, HttpResponse.badHead(status).encode(false), true);
    }

    private void runCommands() {
        for (HttpExchange.Command cmd; (cmd = commands.poll()) != null; ) {
            admission.done(); // each dispatched request ends in exactly one command
            HttpConnection c = cmd.connection();
            if (c.closed || c.state != State.PROCESSING) {
                continue; // closed meanwhile (server closing): nothing to answer
            }
            try {
                if (cmd.out() == null) {
                    close(c); // the worker gave up on it (time limit, failure)
                } else {
                    startWrite(c, cmd.out(), cmd.close());
                }
            } catch (RuntimeException e) {
                unexpected(c, e);
            }
        }
        dispatchWaiting();
    }

    private void startWrite(HttpConnection c, ByteBuffer[] out, boolean closeAfter) {
        c.state = State.WRITING;
        c.out = out;
        c.closeAfterWrite = closeAfter;
        c.writeStart = System.nanoTime();
        c.lastProgress = c.writeStart;
        setDeadline(c, c.writeStart + responseLimitNanos);
        try {
            write(c);
        } catch (IOException e) {
            close(c);
        }
    }

    private void write(HttpConnection c) throws IOException {
        long n = c.channel.write(c.out);
        if (!c.outWritten()) {
            long now = System.nanoTime();
            if (n > 0) {
                c.lastProgress = now;
            }
            c.blocked = true;
            c.key.interestOps(SelectionKey.OP_WRITE);
            // closed at the response limit, or earlier when no byte is taken for the progress limit
            long byProgress = c.lastProgress + progressLimitNanos;
            long byResponse = c.writeStart + responseLimitNanos;
            setDeadline(c, byProgress - byResponse < 0 ? byProgress : byResponse);
            return;
        }
        c.blocked = false;
        c.out = null;
        c.served = true;
        if (c.closeAfterWrite) {
            c.channel.shutdownOutput();
            c.state = State.DRAINING;
            c.in.clear();
            c.key.interestOps(SelectionKey.OP_READ);
            setDeadline(c, System.nanoTime() + headerLimitNanos);
        } else {
            waitForRequest(c, System.nanoTime());
            parseBuffered(c, true); // a pipelined request already here
        }
    }

    private void drain(HttpConnection c) throws IOException {
        scratch.clear();
        int n = c.channel.read(scratch);
        if (n < 0 || (c.drained += n) > MAX_DRAIN_BYTES) {
            close(c);
        }
    }

    private void setDeadline(HttpConnection c, long deadline) {
        c.hasDeadline = true;
        c.deadline = deadline;
        arm(deadline);
    }

    private void arm(long deadline) {
        if (!anyDeadline || deadline - nextDeadline < 0) {
            anyDeadline = true;
            nextDeadline = deadline;
        }
    }

    /** Closes the connections past their deadline, resumes accepting, and finds the next deadline. */
    private void sweep(long now) {
        anyDeadline = false;
        List<HttpConnection> expired = new ArrayList<>();
        for (HttpConnection c : connections) {
            if (c.hasDeadline) {
                if (now - c.deadline >= 0) {
                    expired.add(c);
                } else {
                    arm(c.deadline);
                }
            }
        }
        if (acceptPaused) {
            if (now - acceptResumeAt >= 0) {
                acceptPaused = false;
                serverKey.interestOps(SelectionKey.OP_ACCEPT);
            } else {
                arm(acceptResumeAt);
            }
        }
        for (HttpConnection c : expired) {
            switch (c.state) {
                case READING -> closeWaiting(c);
                case DEFERRED -> {
                    refused.incrementAndGet(); // waited the header time limit for a worker
                    close(c);
                }
                case WRITING -> {
                    stalledResponses.incrementAndGet();
                    close(c);
                }
                default -> close(c);
            }
        }
    }

    /** Closes a connection waiting for a request: counted as slow unless it is an idle keep-alive one. */
    private void closeWaiting(HttpConnection c) {
        if (c.in.buffered() > 0 || !c.served) {
            slowClosed.incrementAndGet();
            if (slowLogged.compareAndSet(false, true)) {
                LOG.log(Level.INFO, "statvar-export: closed a connection whose request headers did not arrive within"
                        + " {0} ms (logged once; MetricsServer.slowClientsClosed() counts them)",
                        TimeUnit.NANOSECONDS.toMillis(headerLimitNanos));
            }
        }
        close(c);
    }

    private void close(HttpConnection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        c.hasDeadline = false;
        if (c.state == State.DEFERRED) {
            admission.remove(c);
        }
        if (c.key != null) {
            c.key.cancel();
        }
        closeQuietly(c.channel);
        connections.remove(c);
        openConnections = connections.size(); // volatile write: read by openConnections()
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}
