package dev.statvar.export.internal.http;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * A complete request of an {@link HttpFrontEnd} on its way to a worker, and the way back for its response.
 * Immutable; the connection is only passed back to the selector thread in a {@link Command}, never read by
 * the worker. Each exchange ends in exactly one command (the front end counts on it): call
 * {@link #respond} or {@link #abort} once.
 */
public final class HttpExchange {
    /** From a worker to the selector thread: a response to write ({@code out}; then close or not), or null to close. */
    record Command(HttpConnection connection, ByteBuffer[] out, boolean close) {
    }

    private final Consumer<Command> back;
    private final HttpConnection connection;
    private final HttpRequestHead head;
    private final boolean keepAlive;

    /** {@code back} queues a command for the selector thread and wakes it; any thread. */
    HttpExchange(Consumer<Command> back, HttpConnection connection, HttpRequestHead head, boolean keepAlive) {
        this.back = back;
        this.connection = connection;
        this.head = head;
        this.keepAlive = keepAlive;
    }

    HttpRequestHead head() {
        return head;
    }

    /** Sends {@code r} (encoded on the calling thread, written by the selector thread). Call once. */
    void respond(HttpResponse r) {
        back.accept(new Command(connection, r.encode(keepAlive), !keepAlive));
    }

    /** Closes the connection without a response. */
    void abort() {
        back.accept(new Command(connection, null, true));
    }
}
