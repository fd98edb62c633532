package dev.statvar.export.internal.http;

import java.util.ArrayDeque;

/**
 * Which complete requests of an {@link HttpFrontEnd} go to the workers now and which wait, so that the
 * workers' queue never overflows and clients pipelining requests cannot fill it. A connection has at most
 * one request here, so at most {@code maxConnections} wait.
 *
 * <ul>
 * <li>At most {@code capacity} requests are with the workers (queued or being rendered): the workers plus
 *     their queue. A request beyond waits, first come first served.
 * <li>A <b>pipelined</b> request (sent before the previous response on its connection was written) goes
 *     to the workers only while fewer than {@code pipelinedShare} are there, and after every other waiting
 *     request: the rest of the capacity stays for requests that are not pipelined.
 * </ul>
 *
 * Not thread-safe: confined to the selector thread.
 */
final class WorkerAdmission {
    private final int capacity;
    private final int pipelinedShare;
    /** Requests dispatched whose response or abort has not come back. */
    private int inFlight;
    /** Connections with a waiting request, oldest first: not pipelined, and pipelined. */
    private final ArrayDeque<HttpConnection> waiting = new ArrayDeque<>();
    private final ArrayDeque<HttpConnection> waitingPipelined = new ArrayDeque<>();

    /**
     * @param capacity       most requests with the workers: their number plus their queue's capacity
     * @param pipelinedShare most requests with the workers at which a pipelined one is still dispatched
     */
    WorkerAdmission(int capacity, int pipelinedShare) {
        this.capacity = capacity;
        this.pipelinedShare = Math.min(capacity, pipelinedShare);
    }

    /**
     * Whether {@code c}'s complete request may go to the workers now (then counted as dispatched); else it
     * waits (its connection is then in state {@code DEFERRED}, set by the caller).
     */
    boolean admit(HttpConnection c, boolean pipelined) {
        if (pipelined ? waiting.isEmpty() && waitingPipelined.isEmpty() && inFlight < pipelinedShare
                : waiting.isEmpty() && inFlight < capacity) {
            inFlight++;
            return true;
        }
        (pipelined ? waitingPipelined : waiting).add(c);
        return false;
    }

    /** A dispatched request came back (its response or abort), or was never taken (rejected). */
    void done() {
        inFlight--;
    }

    /** The next waiting connection whose request may go to the workers now (counted as dispatched), or null. */
    HttpConnection next() {
        HttpConnection c = null;
        if (!waiting.isEmpty() && inFlight < capacity) {
            c = waiting.poll();
        } else if (waiting.isEmpty() && !waitingPipelined.isEmpty() && inFlight < pipelinedShare) {
            c = waitingPipelined.poll();
        }
        if (c != null) {
            inFlight++;
        }
        return c;
    }

    /** The connection whose pipelined request has waited longest, or null. */
    HttpConnection oldestPipelined() {
        return waitingPipelined.peek();
    }

    /** Forgets {@code c}'s waiting request (its connection is closing). */
    void remove(HttpConnection c) {
        if (!waiting.remove(c)) {
            waitingPipelined.remove(c);
        }
    }
}
