package dev.statvar.export;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The HTTP/1.1 transport of a {@link MetricsServer}: one selector thread accepts connections, reads each
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
 * <li><b>Response time limit.</b> A response must be written within {@code responseLimit} of its worker
 *     handing it over; else the connection is closed ({@link #stalledResponsesClosed()}).
 * <li><b>Keep-alive.</b> HTTP/1.1 connections stay open for the next request unless the request says
 *     {@code Connection: close} or has a body; HTTP/1.0 connections close after one response. Requests
 *     sent before the previous response (pipelined) are answered in order, one at a time.
 * <li><b>Closing after a response</b> half-closes the connection and reads and discards what the client
 *     still sends (at most 1 MiB, for at most {@code headerLimit}) before closing it, so that unread
 *     request bytes do not turn the close into a reset that loses the response.
 * </ul>
 *
 * <h2>Open connections</h2>
 * At most {@code maxConnections}. A new connection beyond that closes the oldest connection that is
 * waiting for a request (counted as slow unless idle, as above); when none is (every connection has a
 * request being answered) the new connection is closed at once without a response
 * ({@link #refusedConnections()}).
 *
 * <h2>Threading</h2>
 * Connections are confined to the selector thread. A request goes to a worker as an immutable
 * {@link Exchange} through the dispatcher ({@code Executor.execute}, which orders the hand-over); the
 * worker renders and calls {@link Exchange#respond} or {@link Exchange#abort}, which put a command on a
 * concurrent queue (the queue orders it before the selector thread's poll) and wake the selector.
 */
final class HttpFrontEnd implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("dev.statvar.export");
    /** Most bytes read and discarded from a connection being closed after its response. */
    private static final long MAX_DRAIN_BYTES = 1 << 20;
    /** Most connections accepted in one wake of the selector: others wait in the backlog for the next. */
    private static final int MAX_ACCEPTS_PER_WAKE = 64;
    /** Pause of accepting after accept() failed (e.g. out of file descriptors): no spinning on a ready key. */
    private static final long ACCEPT_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * A complete request on its way to a worker, and the way back for its response. Immutable; the
     * connection is only passed back to the selector thread, never read by the worker.
     */
    static final class Exchange {
        private final HttpFrontEnd frontEnd;
        private final Connection connection;
        private final HttpRequestHead head;
        private final boolean keepAlive;

        private Exchange(HttpFrontEnd frontEnd, Connection connection, HttpRequestHead head, boolean keepAlive) {
            this.frontEnd = frontEnd;
            this.connection = connection;
            this.head = head;
            this.keepAlive = keepAlive;
        }

        HttpRequestHead head() {
            return head;
        }

        /** Sends {@code r} (encoded on the calling thread, written by the selector thread). Call once. */
        void respond(HttpResponse r) {
            frontEnd.command(new Command(connection, r.encode(keepAlive), !keepAlive));
        }

        /** Closes the connection without a response. */
        void abort() {
            frontEnd.command(new Command(connection, null, true));
        }
    }

    /** From a worker to the selector thread: a response to write ({@code out}; then close or not), or null to close. */
    private record Command(Connection connection, ByteBuffer[] out, boolean close) {
    }

    private enum State { READING, PROCESSING, WRITING, DRAINING }

    /** One client connection. Confined to the selector thread. */
    private static final class Connection {
        final SocketChannel channel;
        SelectionKey key;
        State state = State.READING;
        final RequestBuffer in = new RequestBuffer();
        ByteBuffer[] out;
        boolean closeAfterWrite;
        /** A response was written on this connection. */
        boolean served;
        long drained;
        boolean hasDeadline;
        long deadline;
        boolean closed;

        Connection(SocketChannel channel) {
            this.channel = channel;
        }
    }

    private final ServerSocketChannel server;
    private final Selector selector;
    private final int maxConnections;
    private final long headerLimitNanos;
    private final long responseLimitNanos;
    private final Consumer<Exchange> dispatcher;
    private final Thread thread;

    /** Worker to selector thread: the queue orders each command before its poll. */
    private final ConcurrentLinkedQueue<Command> commands = new ConcurrentLinkedQueue<>();
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
    private final LinkedHashSet<Connection> connections = new LinkedHashSet<>();
    /** Set by bind() before start(): Thread.start orders it before the selector thread's reads. */
    private SelectionKey serverKey;
    private boolean anyDeadline;
    private long nextDeadline;
    private boolean acceptPaused;
    private long acceptResumeAt;
    private final ByteBuffer scratch = ByteBuffer.allocate(8192);

    private HttpFrontEnd(ServerSocketChannel server, Selector selector, int maxConnections, long headerLimitNanos,
                         long responseLimitNanos, Consumer<Exchange> dispatcher, String threadName) {
        this.server = server;
        this.selector = selector;
        this.maxConnections = maxConnections;
        this.headerLimitNanos = headerLimitNanos;
        this.responseLimitNanos = responseLimitNanos;
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
    static HttpFrontEnd bind(InetSocketAddress address, int maxConnections, long headerLimitNanos,
                             long responseLimitNanos, Consumer<Exchange> dispatcher, String threadName)
            throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        Selector selector = null;
        try {
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(address, 128);
            server.configureBlocking(false);
            selector = Selector.open();
            HttpFrontEnd f = new HttpFrontEnd(server, selector, maxConnections, headerLimitNanos, responseLimitNanos,
                    dispatcher, threadName);
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
    void start() {
        thread.start();
    }

    /** The bound address. */
    InetSocketAddress address() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    /** Connections closed because their request line and headers did not arrive within the header time limit. */
    long slowClientsClosed() {
        return slowClosed.get();
    }

    /** New connections closed at once because {@code maxConnections} were open, each with a request being answered. */
    long refusedConnections() {
        return refused.get();
    }

    /** Connections closed because their response was not written within the response time limit. */
    long stalledResponsesClosed() {
        return stalledResponses.get();
    }

    /** Connections open now. */
    int openConnections() {
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

    private void command(Command c) {
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
                runCommands();
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (k == serverKey) {
                        if (k.isValid()) {
                            accept();
                        }
                    } else {
                        ready(k);
                    }
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
            for (Connection c : new ArrayList<>(connections)) {
                close(c);
            }
            closeQuietly(server);
            closeQuietly(selector);
        }
    }

    private void ready(SelectionKey k) {
        Connection c = (Connection) k.attachment();
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

    private void unexpected(Connection c, RuntimeException e) {
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
            if (connections.size() >= maxConnections && !evictOneWaiting()) {
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
                Connection c = new Connection(ch);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
                connections.add(c);
                openConnections = connections.size(); // volatile write: read by openConnections()
                waitForRequest(c, System.nanoTime());
            } catch (IOException e) {
                closeQuietly(ch);
            }
        }
    }

    /** Closes the oldest connection waiting for a request; false if every connection has one being answered. */
    private boolean evictOneWaiting() {
        for (Connection c : connections) {
            if (c.state == State.READING) {
                closeWaiting(c);
                return true;
            }
        }
        return false;
    }

    private void waitForRequest(Connection c, long now) {
        c.state = State.READING;
        c.key.interestOps(SelectionKey.OP_READ);
        setDeadline(c, now + headerLimitNanos);
    }

    private void readRequest(Connection c) throws IOException {
        if (c.in.readFrom(c.channel) < 0) {
            close(c); // the client closed (or half-closed) before a whole request
            return;
        }
        parseBuffered(c);
    }

    /** Hands the next complete buffered request to a worker; answers a bad one; else waits for more bytes. */
    private void parseBuffered(Connection c) {
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
        c.state = State.PROCESSING;
        c.key.interestOps(0);
        c.hasDeadline = false; // the workers' own time limit applies now
        try {
            dispatcher.accept(new Exchange(this, c, head, head.keepAlive() && !body));
        } catch (RejectedExecutionException saturated) {
            close(c);
        }
    }

    private void reject(Connection c, int status) {
        String body = switch (status) {
            case 431 -> "request headers too large\n";
            case 505 -> "HTTP version not supported: use HTTP/1.1\n";
            default -> "bad request\n";
        };
        HttpResponse r = new HttpResponse(status, Map.of("Content-Type", "text/plain; charset=utf-8"),
                body.getBytes(StandardCharsets.UTF_8), false);
        c.in.clear();
        startWrite(c, r.encode(false), true);
    }

    private void runCommands() {
        for (Command cmd; (cmd = commands.poll()) != null; ) {
            Connection c = cmd.connection();
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
    }

    private void startWrite(Connection c, ByteBuffer[] out, boolean closeAfter) {
        c.state = State.WRITING;
        c.out = out;
        c.closeAfterWrite = closeAfter;
        setDeadline(c, System.nanoTime() + responseLimitNanos);
        try {
            write(c);
        } catch (IOException e) {
            close(c);
        }
    }

    private void write(Connection c) throws IOException {
        c.channel.write(c.out);
        for (ByteBuffer b : c.out) {
            if (b.hasRemaining()) {
                c.key.interestOps(SelectionKey.OP_WRITE);
                return;
            }
        }
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
            parseBuffered(c); // a pipelined request already here
        }
    }

    private void drain(Connection c) throws IOException {
        scratch.clear();
        int n = c.channel.read(scratch);
        if (n < 0 || (c.drained += n) > MAX_DRAIN_BYTES) {
            close(c);
        }
    }

    private void setDeadline(Connection c, long deadline) {
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
        List<Connection> expired = new ArrayList<>();
        for (Connection c : connections) {
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
        for (Connection c : expired) {
            switch (c.state) {
                case READING -> closeWaiting(c);
                case WRITING -> {
                    stalledResponses.incrementAndGet();
                    close(c);
                }
                default -> close(c);
            }
        }
    }

    /** Closes a connection waiting for a request: counted as slow unless it is an idle keep-alive one. */
    private void closeWaiting(Connection c) {
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

    private void close(Connection c) {
        if (c.closed) {
            return;
        }
        c.closed = true;
        c.hasDeadline = false;
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
