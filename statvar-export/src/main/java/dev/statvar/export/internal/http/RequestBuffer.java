package dev.statvar.export.internal.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * The bytes of one connection's requests as they arrive, from which whole request heads are cut: at most
 * {@link HttpRequestHead#MAX_HEAD_BYTES} bytes, held from the first read (1 KiB, doubled as needed). Bytes
 * after a head (a pipelined request) stay for the next one. Not thread-safe: confined to the selector
 * thread of {@link HttpFrontEnd}.
 */
final class RequestBuffer {
    private static final int FIRST_BYTES = 1024;

    /** Received bytes in write mode ({@code [0, position)}); null until the first read or after {@link #clear()}. */
    private ByteBuffer in;

    /** Bytes held. */
    int buffered() {
        return in == null ? 0 : in.position();
    }

    /** Reads what {@code ch} has, as far as the size limit allows; -1 at the end of its stream. */
    int readFrom(SocketChannel ch) throws IOException {
        if (in == null) {
            in = ByteBuffer.allocate(FIRST_BYTES);
        } else if (!in.hasRemaining() && in.capacity() < HttpRequestHead.MAX_HEAD_BYTES) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.min(in.capacity() * 2, HttpRequestHead.MAX_HEAD_BYTES));
            in.flip();
            bigger.put(in);
            in = bigger;
        }
        return ch.read(in);
    }

    /**
     * The next whole request head, cut from the buffer together with the empty lines before it (ignored, as
     * RFC 9112 2.2 allows); null while it has not all arrived.
     *
     * @throws HttpRequestHead.BadRequest 431 when the buffer is full without a whole head; the parser's others
     */
    HttpRequestHead next() throws HttpRequestHead.BadRequest {
        int len = buffered();
        if (len == 0) {
            return null;
        }
        byte[] a = in.array();
        int skip = 0;
        while (skip < len && (a[skip] == '\r' || a[skip] == '\n')) {
            skip++;
        }
        if (skip > 0) { // dropped at once: a connection holding only line ends holds no request bytes
            System.arraycopy(a, skip, a, 0, len - skip);
            len -= skip;
            in.position(len);
        }
        int end = headEnd(a, 0, len);
        if (end < 0) {
            if (len >= HttpRequestHead.MAX_HEAD_BYTES) {
                throw new HttpRequestHead.BadRequest(431, "request head over " + HttpRequestHead.MAX_HEAD_BYTES + " bytes");
            }
            return null;
        }
        HttpRequestHead head = HttpRequestHead.parse(a, 0, end);
        System.arraycopy(a, end, a, 0, len - end);
        in.position(len - end);
        return head;
    }

    /** Drops every byte held (and the buffer). */
    void clear() {
        in = null;
    }

    /** The index just past the blank line that ends a head in {@code a[from, len)}, or -1. */
    static int headEnd(byte[] a, int from, int len) {
        for (int i = from; i < len; i++) {
            if (a[i] == '\n') {
                if (i + 1 < len && a[i + 1] == '\n') {
                    return i + 2;
                }
                if (i + 2 < len && a[i + 1] == '\r' && a[i + 2] == '\n') {
                    return i + 3;
                }
            }
        }
        return -1;
    }
}
