package dev.statvar.internal;

/**
 * Log-linear bucket math (see {@code dev.statvar.HistogramPrecision} for the layout). No
 * argument checks: values are non-negative, indices in range, {@code b} in 1..10.
 */
public final class LogLinear {
    private LogLinear() {
    }

    /**
     * Bucket of a non-negative {@code v} with {@code b} sub-bucket bits: branch-free, one LZCNT.
     *
     * @param v a value, {@code >= 0}
     * @param b sub-bucket bits, 1..10
     * @return the bucket's index
     */
    public static int index(long v, int b) {
        int s = (63 - b) - Long.numberOfLeadingZeros(v | ((2L << b) - 1));
        return (s << b) + (int) (v >>> s);
    }

    /**
     * Smallest value of bucket {@code i}.
     *
     * @param i a bucket index, {@code 0 .. bucketCount(b) - 1}
     * @param b sub-bucket bits, 1..10
     * @return the bucket's smallest value
     */
    public static long lowerBound(int i, int b) {
        int s = (i >>> b) - 1;
        if (s <= 0) {
            return i; // the first 2^(b+1) buckets hold one value each
        }
        return (long) ((i & ((1 << b) - 1)) | (1 << b)) << s;
    }

    /**
     * Number of values in bucket {@code i}.
     *
     * @param i a bucket index, {@code 0 .. bucketCount(b) - 1}
     * @param b sub-bucket bits, 1..10
     * @return the bucket's width, a power of two
     */
    public static long width(int i, int b) {
        int s = (i >>> b) - 1;
        return s <= 0 ? 1 : 1L << s;
    }

    /**
     * Number of buckets covering 0 .. Long.MAX_VALUE.
     *
     * @param b sub-bucket bits, 1..10
     * @return {@code (64 - b) * 2^b}
     */
    public static int bucketCount(int b) {
        return (64 - b) << b;
    }
}
