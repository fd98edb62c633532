package dev.statvar;

import java.util.Arrays;

/**
 * Requested upper bounds of classic (explicit) histogram buckets, as the Prometheus exposition's
 * {@code le} and OpenTelemetry's explicit bucket bounds take them, and the bounds a histogram of a
 * given {@link HistogramPrecision} is shown with ({@link #at}): each requested boundary moved up to
 * the upper bound of the log-linear bucket that holds it, so the count at or below each boundary is
 * exact, not estimated.
 *
 * <p>Immutable; thread-safe.
 */
public final class BucketBoundaries {
    /** Most boundaries: each is a series per labelled histogram in Prometheus. */
    public static final int MAX = 64;

    private static final BucketBoundaries DEFAULTS = new BucketBoundaries(oneTwoFive(1, 10_000_000_000L));

    private final long[] requested;

    private BucketBoundaries(long[] requested) {
        this.requested = requested;
    }

    /**
     * Boundaries from a copy of {@code requested} (the array is not kept).
     *
     * @param requested increasing, each {@code >= 0}, at most {@link #MAX}
     * @return the boundaries
     * @throws NullPointerException     if {@code requested} is null
     * @throws IllegalArgumentException if a boundary is negative, they are not increasing, or there
     *                                  are more than {@link #MAX}
     */
    public static BucketBoundaries of(long... requested) {
        long[] b = requested.clone();
        if (b.length > MAX) {
            throw new IllegalArgumentException("at most " + MAX + " histogram boundaries, got " + b.length);
        }
        for (int i = 0; i < b.length; i++) {
            if (b[i] < 0 || (i > 0 && b[i] <= b[i - 1])) {
                throw new IllegalArgumentException("histogram boundaries must be >= 0 and increasing: "
                        + Arrays.toString(b));
            }
        }
        return new BucketBoundaries(b);
    }

    /**
     * The default boundaries: 1, 2, 5, 10, 20, 50, ... 10^10, 31 of them, e.g. nanoseconds up to
     * 10 s or bytes up to 10 GB.
     *
     * @return the defaults
     */
    public static BucketBoundaries defaults() {
        return DEFAULTS;
    }

    /**
     * 1, 2, 5 times each power of ten from {@code from} up to and including {@code to}.
     *
     * @param from the smallest value wanted
     * @param to   the largest value wanted
     * @return the values in {@code [from, to]}, increasing; empty when there are none
     */
    public static long[] oneTwoFive(long from, long to) {
        long[] out = new long[MAX];
        int n = 0;
        for (long p = 1; p > 0 && p <= to; p = p <= Long.MAX_VALUE / 10 ? p * 10 : -1) {
            for (long m : new long[]{1, 2, 5}) {
                long b = p * m;
                if (b >= from && b <= to && n < out.length) {
                    out[n++] = b;
                }
            }
        }
        return Arrays.copyOf(out, n);
    }

    /**
     * The boundaries as requested.
     *
     * @return a new array of them, increasing
     */
    public long[] requested() {
        return requested.clone();
    }

    /**
     * The boundaries a histogram of {@code precision} is shown with: each requested boundary moved
     * up to the upper bound of the bucket that holds it at that precision, so every bucket lies
     * wholly at or below a boundary or wholly above it and the count at or below each boundary is
     * exact; increasing, a boundary that lands on an earlier one's bucket dropped.
     *
     * @param precision the histogram's precision
     * @return a new array of the boundaries, increasing, each the upper bound of a bucket
     * @throws IllegalArgumentException if {@code precision} is null
     */
    public long[] at(HistogramPrecision precision) {
        if (precision == null) {
            throw new IllegalArgumentException("precision must not be null");
        }
        long[] les = new long[requested.length];
        int n = 0;
        for (long b : requested) {
            long le = precision.upperBound(precision.bucketIndex(b));
            if (n == 0 || le > les[n - 1]) {
                les[n++] = le;
            }
        }
        return Arrays.copyOf(les, n);
    }

    /**
     * Whether {@code o} requests the same boundaries.
     *
     * @param o the object to compare with
     * @return true if {@code o} is boundaries with the same requested values
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof BucketBoundaries b && Arrays.equals(requested, b.requested);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(requested);
    }

    @Override
    public String toString() {
        return "BucketBoundaries" + Arrays.toString(requested);
    }
}
