package dev.statvar;

/**
 * A gauge: per interval, the count, sum, min and max of the values reported
 * (queue lengths, request sizes, latencies).
 *
 * <p>Thread-safe, with the same update path as {@link Counter}: on a platform thread, plain
 * reads and opaque/release stores of cells only that thread writes.
 *
 * <p>Obtain gauges from {@link StatRegistry#gauge(String)}.
 */
public interface Gauge {
    /** Reports one value (any long). */
    void report(long value);

    /**
     * A handle bound to the calling thread (see {@link Counter#localView()}); correct, but slower,
     * from other threads.
     */
    Gauge localView();

    /** The gauge's name. */
    String name();
}
