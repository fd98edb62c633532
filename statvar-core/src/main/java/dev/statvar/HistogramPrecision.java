package dev.statvar;

import dev.statvar.internal.LogLinear;

/**
 * The bucket layout of a {@link Histogram}: log-linear buckets over the whole range
 * {@code 0 .. Long.MAX_VALUE}, {@code 2^subBucketBits} linear sub-buckets per power of two.
 *
 * <pre>{@code
 * Buckets (b = subBucketBits, S = 2^b)
 * -------
 *   values 0 .. 2S-1          one bucket per value (exact)
 *   values [2^e, 2^(e+1)),    e >= b+1: S buckets of width 2^(e-b)
 * index(v)  = (s << b) + (v >>> s),  s = max(0, (63 - b) - numberOfLeadingZeros(v))
 * count     = (64 - b) * S buckets; index is monotonic in v and the buckets tile 0 .. Long.MAX_VALUE.
 * }</pre>
 *
 * A value is reported as the middle of its bucket, so the relative error of any reported
 * value is at most {@code 2^-(b+1)} ({@link #maxRelativeError()}). Memory grows with the value
 * range actually recorded, one power of two ("octave") at a time, at {@code 8 * 2^b} bytes per
 * octave and recording thread:
 *
 * <table>
 *   <caption>Precision and memory per recording thread</caption>
 *   <tr><th>subBucketBits</th><th>max relative error</th><th>bytes per octave</th>
 *       <th>1 µs .. 10 s in ns (25 octaves)</th></tr>
 *   <tr><td>3</td><td>6.25 %</td><td>64</td><td>1.6 KiB</td></tr>
 *   <tr><td>4</td><td>3.13 %</td><td>128</td><td>3.1 KiB</td></tr>
 *   <tr><td>5</td><td>1.56 %</td><td>256</td><td>6.3 KiB</td></tr>
 *   <tr><td>6 (default)</td><td>0.78 %</td><td>512</td><td>12.5 KiB</td></tr>
 *   <tr><td>7</td><td>0.39 %</td><td>1,024</td><td>25 KiB</td></tr>
 *   <tr><td>8</td><td>0.20 %</td><td>2,048</td><td>50 KiB</td></tr>
 *   <tr><td>10</td><td>0.05 %</td><td>8,192</td><td>200 KiB</td></tr>
 * </table>
 * (plus 384 bytes of header, padding, sum and min/max per histogram and thread that holds its own
 * buckets; a thread holds them once it is hot for the histogram: "Memory" in {@link StatRegistry}).
 * The table is checked by {@code HistogramPrecisionTest}, the 384 bytes by {@code LayoutTest},
 * the retained heap by {@code HistogramTest}.
 *
 * <p>Immutable; two precisions with the same {@code subBucketBits} are equal.
 *
 * @param subBucketBits log2 of the number of linear sub-buckets per power of two, 1..10
 */
public record HistogramPrecision(int subBucketBits) {
    /** Smallest supported {@code subBucketBits}. */
    public static final int MIN_BITS = 1;
    /** Largest supported {@code subBucketBits}. */
    public static final int MAX_BITS = 10;
    /** The default: 64 sub-buckets per power of two, every reported value within 0.78 %. */
    public static final HistogramPrecision DEFAULT = new HistogramPrecision(6);

    /**
     * The precision with {@code 2^subBucketBits} sub-buckets per power of two; as
     * {@link #ofSubBucketBits(int)}.
     *
     * @param subBucketBits log2 of the number of linear sub-buckets per power of two, 1..10
     * @throws IllegalArgumentException if {@code subBucketBits} is outside 1..10
     */
    public HistogramPrecision {
        if (subBucketBits < MIN_BITS || subBucketBits > MAX_BITS) {
            throw new IllegalArgumentException("subBucketBits must be in " + MIN_BITS + ".." + MAX_BITS
                    + ", was " + subBucketBits);
        }
    }

    /**
     * The precision with {@code 2^subBucketBits} sub-buckets per power of two.
     *
     * @param subBucketBits log2 of the number of linear sub-buckets per power of two,
     *                      {@value #MIN_BITS}..{@value #MAX_BITS}
     * @return that precision; every reported value within {@code 2^-(subBucketBits+1)}
     * @throws IllegalArgumentException if {@code subBucketBits} is outside 1..10
     */
    public static HistogramPrecision ofSubBucketBits(int subBucketBits) {
        return new HistogramPrecision(subBucketBits);
    }

    /**
     * The coarsest (smallest) precision whose {@link #maxRelativeError()} is at most
     * {@code relativeError}, e.g. {@code 0.01} for 1 %.
     *
     * @param relativeError the largest acceptable relative error of a reported value
     * @return the precision with the fewest sub-buckets that meets it
     * @throws IllegalArgumentException if {@code relativeError} is not in
     *                                  {@code [2^-11, 1)} (0.049 % .. 100 %) or is NaN
     */
    public static HistogramPrecision ofMaxRelativeError(double relativeError) {
        if (!(relativeError >= Math.scalb(1.0, -(MAX_BITS + 1)) && relativeError < 1.0)) {
            throw new IllegalArgumentException("relative error must be in [" + Math.scalb(1.0, -(MAX_BITS + 1))
                    + ", 1), was " + relativeError);
        }
        for (int b = MIN_BITS; ; b++) {
            if (Math.scalb(1.0, -(b + 1)) <= relativeError) {
                return new HistogramPrecision(b);
            }
        }
    }

    /**
     * Largest relative error of a reported value (bucket middle) against any value in its bucket.
     *
     * @return {@code 2^-(subBucketBits+1)}, e.g. 0.0078125 for the default
     */
    public double maxRelativeError() {
        return Math.scalb(1.0, -(subBucketBits + 1));
    }

    /**
     * Number of linear sub-buckets per power of two.
     *
     * @return {@code 2^subBucketBits}
     */
    public int subBuckets() {
        return 1 << subBucketBits;
    }

    /**
     * Number of buckets covering {@code 0 .. Long.MAX_VALUE}; bucket indices run from 0 to
     * {@code bucketCount() - 1}.
     *
     * @return {@code (64 - subBucketBits) * 2^subBucketBits}
     */
    public int bucketCount() {
        return (64 - subBucketBits) << subBucketBits;
    }

    /**
     * The bucket holding {@code value}.
     *
     * @param value a value, {@code >= 0}
     * @return its bucket's index, {@code 0 .. bucketCount() - 1}, non-decreasing in {@code value}
     * @throws IllegalArgumentException if {@code value} is negative
     */
    public int bucketIndex(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("histogram values must be >= 0, was " + value);
        }
        return LogLinear.index(value, subBucketBits);
    }

    /**
     * Smallest value of bucket {@code index}.
     *
     * @param index a bucket index, {@code 0 .. bucketCount() - 1}
     * @return the bucket's smallest value
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code 0 .. bucketCount() - 1}
     */
    public long lowerBound(int index) {
        checkIndex(index);
        return LogLinear.lowerBound(index, subBucketBits);
    }

    /**
     * Largest value of bucket {@code index} (inclusive).
     *
     * @param index a bucket index, {@code 0 .. bucketCount() - 1}
     * @return the bucket's largest value; {@code Long.MAX_VALUE} for the last bucket
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code 0 .. bucketCount() - 1}
     */
    public long upperBound(int index) {
        checkIndex(index);
        return LogLinear.lowerBound(index, subBucketBits) + LogLinear.width(index, subBucketBits) - 1;
    }

    /**
     * The value reported for bucket {@code index}.
     *
     * @param index a bucket index, {@code 0 .. bucketCount() - 1}
     * @return the bucket's middle, rounded down
     * @throws IndexOutOfBoundsException if {@code index} is outside {@code 0 .. bucketCount() - 1}
     */
    public long middle(int index) {
        checkIndex(index);
        return LogLinear.lowerBound(index, subBucketBits) + (LogLinear.width(index, subBucketBits) - 1) / 2;
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= bucketCount()) {
            throw new IndexOutOfBoundsException("bucket index " + index + " outside 0.." + (bucketCount() - 1));
        }
    }

    // Explicit equals/hashCode/toString: the generated ones link through java.lang.runtime.ObjectMethods,
    // whose JDK-wide method handle cache then keeps this class, and so statvar's class loader, reachable.
    @Override
    public boolean equals(Object o) {
        return o instanceof HistogramPrecision p && p.subBucketBits == subBucketBits;
    }

    @Override
    public int hashCode() {
        return subBucketBits;
    }

    @Override
    public String toString() {
        return "HistogramPrecision[subBucketBits=" + subBucketBits + "]";
    }
}
