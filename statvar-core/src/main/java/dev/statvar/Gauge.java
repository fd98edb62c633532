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
    /**
     * Reports one value.
     *
     * @param value the value, any long (negative values included)
     */
    void report(long value);

    /**
     * A handle bound to the calling thread (see {@link Counter#localView()}); correct, but slower,
     * from other threads. On a virtual thread it returns this gauge.
     *
     * @return the calling thread's view of this gauge, or this gauge on a virtual thread
     */
    Gauge localView();

    /**
     * The gauge's name.
     *
     * @return the name it was registered with (a family's name for a series of a {@link StatFamily})
     */
    String name();
}
