package dev.statvar;

/**
 * A histogram: per interval, the distribution of recorded non-negative values (latencies,
 * sizes), with count, sum, exact min and max, and percentiles within the bucket precision
 * ({@link HistogramPrecision}, by default every reported value within 0.78 %).
 *
 * <p>Thread-safe, with the update path of {@link Counter}: on a platform thread, a record is a
 * plain read and an opaque/release store of a few cells only that thread writes (the bucket,
 * the sum, and the interval's min/max when it changes); no CAS, no lock, no fence. The
 * recording thread's buckets cover only the range of values it has recorded, grown one power
 * of two at a time (a rare slow path that takes a lock). On a virtual thread a record goes to a
 * shared stripe under its lock.
 *
 * <p>For the fastest records keep the histogram in a {@code static final} field, or take a
 * {@link #localView()} for a hot loop (figures per machine: docs/PERFORMANCE.md).
 *
 * <p>Obtain histograms from {@link StatRegistry#histogram(String)}.
 */
public interface Histogram {
    /**
     * Records one value.
     *
     * @param value the value, {@code >= 0}
     * @throws IllegalArgumentException if {@code value} is negative
     */
    void record(long value);

    /**
     * A handle bound to the calling thread: it holds that thread's buckets and skips the lookup
     * (see {@link Counter#localView()}). From any other thread it still records correctly,
     * through the ordinary path. On a virtual thread it returns this histogram.
     *
     * @return the calling thread's view of this histogram, or this histogram on a virtual thread
     */
    Histogram localView();

    /**
     * The histogram's name.
     *
     * @return the name it was registered with (a family's name for a series of a {@link StatFamily})
     */
    String name();

    /**
     * Its bucket layout.
     *
     * @return the precision it was registered with
     */
    HistogramPrecision precision();
}
