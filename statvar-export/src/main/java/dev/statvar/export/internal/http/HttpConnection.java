package dev.statvar.export.internal.http;

import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection of an {@link HttpFrontEnd}: where it is in its request/response cycle, its
 * buffered request bytes, the response being written, and its deadline. Not thread-safe: confined to the
 * selector thread (a worker holds one only to hand it back in a command).
 */
final class HttpConnection {
    /** Where a connection is. */
    enum State {
        /** Waiting for (the rest of) a request line and headers. */
        READING,
        /** A pipelined request waits for the workers' share of pipelined requests to free. */
        DEFERRED,
        /** A request is with a worker. */
        PROCESSING,
        /** A response is being written. */
        WRITING,
        /** Output shut down after the last response; reading and discarding what the client still sends. */
        DRAINING
    }

    final SocketChannel channel;
    SelectionKey key;
    State state = State.READING;
    final RequestBuffer in = new RequestBuffer();

    /** The response being written (WRITING). */
    ByteBuffer[] out;
    boolean closeAfterWrite;
    /** When the response being written was handed over, and when a write last took a byte of it. */
    long writeStart;
    long lastProgress;
    /** The last write left bytes unsent: the client is not reading fast enough (WRITING). */
    boolean blocked;

    /** Requests answered in a row on this connection without it waiting for bytes (1: not pipelined). */
    int inARow;
    /** The request waiting while DEFERRED, and whether its connection is kept alive after it. */
    HttpRequestHead deferredHead;
    boolean deferredKeepAlive;

    /** The selector wake in which the connection was accepted. */
    long acceptedInWake;
    /** A response was written on this connection. */
    boolean served;
    long drained;
    boolean hasDeadline;
    long deadline;
    boolean closed;

    HttpConnection(SocketChannel channel) {
        this.channel = channel;
    }

    /**
     * The connection to close to make room for a new one, in this order: the one whose response write is
     * blocked and progressed least recently (a client not reading), the one whose pipelined request has
     * waited longest for a worker ({@code oldestPipelined}), the oldest one draining after its last response,
     * the oldest one waiting for a request but accepted in an earlier wake (one accepted in this wake has had
     * no chance to send its request yet); null if none is open.
     *
     * @param connections the open connections, oldest first
     * @param wake        the selector wake now
     */
    static HttpConnection toEvict(Iterable<HttpConnection> connections, HttpConnection oldestPipelined, long wake) {
        HttpConnection blocked = null;
        HttpConnection draining = null;
        HttpConnection waiting = null;
        for (HttpConnection c : connections) {
            if (c.state == State.WRITING && c.blocked) {
                if (blocked == null || c.lastProgress - blocked.lastProgress < 0) {
                    blocked = c;
                }
            } else if (c.state == State.DRAINING && draining == null) {
                draining = c;
            } else if (c.state == State.READING && waiting == null && c.acceptedInWake != wake) {
                waiting = c;
            }
        }
        return blocked != null ? blocked
                : oldestPipelined != null ? oldestPipelined
                : draining != null ? draining
                : waiting;
    }

    /** Whether every byte of {@link #out} is written. */
    boolean outWritten() {
        for (ByteBuffer b : out) {
            if (b.hasRemaining()) {
                return false;
            }
        }
        return true;
    }
}
