package dev.statvar;

import java.time.Duration;

/**
 * A running statistic engine: a daemon thread that closes an interval at a fixed rate and hands
 * it to a sink. See {@link StatRegistry#startCollector}.
 *
 * <h2>Threading contract</h2>
 * The collector's thread is the only one that calls the sink. {@code close} may be called from
 * any thread, any number of times: the first call asks the collector to stop; every call then
 * waits, at most its timeout, for the collector's thread to deliver the last interval and end.
 * If the thread has ended when {@code close} returns, every interval was delivered and the
 * registry accepts a new collector. If it has not (the sink did not return in time, or the
 * caller was interrupted), the collector is <b>abandoned</b>: the registry accepts a new
 * collector at once, and the old thread, once its sink returns, delivers nothing more and ends
 * (the updates of its last, undelivered interval go to the registry's next collect).
 */
public interface StatCollector extends AutoCloseable {
    /** How long {@link #close()} waits for the sink to return: 5 s. */
    Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(5);

    /**
     * {@link #close(Duration) close(DEFAULT_CLOSE_TIMEOUT)}: stops the engine and delivers the
     * last, partial interval, waiting at most 5 s for the sink.
     *
     * @throws IllegalStateException if the sink has not returned within 5 s (see {@link #close(Duration)})
     */
    @Override
    void close();

    /**
     * Stops the engine and delivers the last, partial interval to the sink before returning
     * (unless called from the sink itself, in which case it delivers it after the sink returns
     * and this returns at once). Waits at most {@code timeout} for the collector's thread;
     * an interrupt ends the wait at once, keeping the caller's interrupt status. Either way
     * the collector is then abandoned (see the class documentation) and the registry accepts a
     * new one. Idempotent: a later call returns at once if the thread has ended, else waits again.
     *
     * @param timeout longest wait for the sink, {@code >= 0}
     * @throws IllegalStateException    if the sink did not return within {@code timeout}: the message
     *                                  names the sink and the collector's thread, the cause carries
     *                                  that thread's stack as it was when the wait ended
     * @throws IllegalArgumentException if {@code timeout} is negative
     * @throws NullPointerException     if {@code timeout} is null
     */
    void close(Duration timeout);
}
