package dev.statvar;

import dev.statvar.internal.NativeIndex;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A statvar histogram's counts in base-2 exponential buckets: Prometheus' native histograms (schema s,
 * bucket i holds {@code (2^((i-1) 2^-s), 2^(i 2^-s)]}) and OpenTelemetry's exponential histograms (scale s =
 * schema, OpenTelemetry index = i - 1), from one conversion, so both carry the same buckets. Immutable.
 *
 * <p>The rule, its error bound and the bucket limit are in the design comment at the top of the class;
 * the bound is {@link #relativeErrorBound}.
 */
public final class ExponentialBuckets {
    /*
     * The rule
     * --------
     * statvar bucket 0 holds the value 0 only: its count is the zero bucket's. Every other statvar bucket [lo, hi]
     * moves whole to the exponential bucket that holds its middle m = lo + (w - 1) / 2 (the value statvar reports
     * for it), m taken in the exposed unit (m / 10^decimals, e.g. nanoseconds shown in seconds), so the indices are
     * those of the exposed values. m is increasing in the statvar index, so the mapping is monotonic: the bucket in
     * which the cumulative count reaches rank r is the one that received the statvar bucket holding the r-th value
     * v. Any estimate e in that bucket (L, U], U = gamma L, gamma = 2^(2^-s), has e / v <= U / lo <= gamma m / lo
     * <= gamma (1 + eps) and v / e <= hi / L <= gamma hi / m <= gamma (1 + eps), eps = 2^-(b+1) (statvar's bound,
     * HistogramPrecision.maxRelativeError()). So
     *     |e - v| / v <= (1 + eps) * 2^(2^-s) - 1        (2.99 % at b = 6, s = 5)
     * Bucket limit: while more buckets than the limit are populated, the schema is lowered by one and pairs merged
     * (bucket i of schema s into ceil(i / 2) of schema s - 1, as client_java's histogram does), down to -4: the
     * bound is then that of the schema finally used. statvar histograms hold no negative value: no negative buckets.
     */

    /** The lowest schema (scale): 2^16 per bucket. */
    public static final int MIN_SCHEMA = NativeIndex.MIN_SCHEMA;
    /** The highest schema (scale): 256 buckets per power of two. */
    public static final int MAX_SCHEMA = NativeIndex.MAX_SCHEMA;
    /** The default limit on a histogram's populated buckets, client_java's (and OpenTelemetry's default is 160 too). */
    public static final int DEFAULT_MAX_BUCKETS = 160;

    /** Native index of each statvar bucket index, per (subBucketBits, decimals, schema); made on first use. */
    private static final ConcurrentHashMap<Integer, int[]> TABLES = new ConcurrentHashMap<>();

    private final int schema;
    private final long zeroCount;
    private final int[] indices;
    private final long[] counts;

    private ExponentialBuckets(int schema, long zeroCount, int[] indices, long[] counts) {
        this.schema = schema;
        this.zeroCount = zeroCount;
        this.indices = indices;
        this.counts = counts;
    }

    /**
     * The schema that follows a precision: {@code subBucketBits - 1}, within -4..8 (5 at the default
     * precision: a bucket spans 1.4 to 2.8 statvar buckets).
     *
     * @param precision a histogram's precision
     * @return its schema
     */
    public static int schemaFor(HistogramPrecision precision) {
        return Math.min(MAX_SCHEMA, Math.max(MIN_SCHEMA, precision.subBucketBits() - 1));
    }

    /**
     * The largest relative error of a quantile read anywhere in the bucket that holds its rank, against the
     * exact quantile of the values recorded: {@code (1 + e) * 2^(2^-schema) - 1}, {@code e =
     * precision.maxRelativeError()} (see the rule above).
     *
     * @param precision the histogram's precision
     * @param schema    the schema exposed (after any lowering)
     * @return the bound, e.g. 0.0299 for the default precision at schema 5
     */
    public static double relativeErrorBound(HistogramPrecision precision, int schema) {
        return (1 + precision.maxRelativeError()) * Math.pow(2, Math.scalb(1.0, -schema)) - 1;
    }

    /**
     * The exponential bucket (Prometheus' native index) of a value: client_golang's and client_java's
     * boundaries, so a value lands where their histograms put it.
     *
     * @param x      a positive, finite, normal value
     * @param schema -4..8
     * @return the index i of the bucket {@code (2^((i-1) 2^-schema), 2^(i 2^-schema)]} holding {@code x}
     * @throws IllegalArgumentException if {@code schema} is outside -4..8 or {@code x} not positive and finite
     */
    public static int index(double x, int schema) {
        checkSchema(schema);
        if (!(x > 0 && x < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("x must be positive and finite, was " + x);
        }
        return NativeIndex.of(x, schema);
    }

    /**
     * The upper bound of bucket {@code i} at {@code schema}: {@code 2^(i * 2^-schema)} (its lower bound is
     * that of bucket {@code i - 1}).
     *
     * @param i      a Prometheus bucket index
     * @param schema -4..8
     * @return the bound
     */
    public static double upperBound(int i, int schema) {
        checkSchema(schema);
        return NativeIndex.upperBound(i, schema);
    }

    /**
     * The bucket of schema {@code s - 1} that holds bucket {@code i} of schema {@code s}: {@code ceil(i / 2)},
     * as client_java merges when it lowers a schema.
     *
     * @param i a Prometheus bucket index
     * @return the merged bucket's index
     */
    public static int mergedIndex(int i) {
        return NativeIndex.halve(i);
    }

    /**
     * Converts {@code h}'s buckets by the rule above.
     *
     * @param h          the histogram value (an interval's, or its totals)
     * @param decimals   places the exposed unit moves the decimal point left: 0 (values as recorded), 6 or 9
     *                   (nanoseconds shown in seconds)
     * @param schema     -4..8 ({@link #schemaFor} follows the precision)
     * @param maxBuckets the most populated buckets, at least 1 ({@link #DEFAULT_MAX_BUCKETS})
     * @return the buckets, at {@code schema} or lower
     * @throws IllegalArgumentException if {@code decimals}, {@code schema} or {@code maxBuckets} is out of range
     * @throws NullPointerException     if {@code h} is null
     */
    public static ExponentialBuckets of(HistogramValue h, int decimals, int schema, int maxBuckets) {
        if (h == null) {
            throw new NullPointerException("h (the histogram value) is null");
        }
        if (decimals != 0 && decimals != 6 && decimals != 9) {
            throw new IllegalArgumentException("decimals must be 0, 6 or 9, was " + decimals);
        }
        checkSchema(schema);
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("the bucket limit must be at least 1, was " + maxBuckets);
        }
        BucketRange buckets = BucketRange.of(h);
        int[] table = table(h.precision(), decimals, schema);
        long[] statvarCounts = buckets.counts();
        int[] index = new int[statvarCounts.length];
        long[] count = new long[statvarCounts.length];
        int n = 0;
        long zero = 0;
        for (int k = 0; k < statvarCounts.length; k++) {
            long c = statvarCounts[k];
            int statvarIndex = buckets.first() + k;
            if (c == 0) {
                continue;
            }
            if (statvarIndex == 0) {
                zero = c; // statvar bucket 0: exactly the zeros
                continue;
            }
            int i = table[statvarIndex];
            if (n > 0 && index[n - 1] == i) {
                count[n - 1] += c;
            } else {
                index[n] = i;
                count[n++] = c;
            }
        }
        int s = schema;
        while (n > maxBuckets && s > MIN_SCHEMA) {
            n = halve(index, count, n);
            s--;
        }
        return new ExponentialBuckets(s, zero, Arrays.copyOf(index, n), Arrays.copyOf(count, n));
    }

    /**
     * The schema (OpenTelemetry: scale) of these buckets.
     *
     * @return the schema asked for, or lower after the bucket limit
     */
    public int schema() {
        return schema;
    }

    /**
     * The count of the zero bucket.
     *
     * @return the number of values 0
     */
    public long zeroCount() {
        return zeroCount;
    }

    /**
     * The number of populated buckets.
     *
     * @return how many buckets hold a count
     */
    public int size() {
        return indices.length;
    }

    /**
     * The populated buckets' Prometheus indices.
     *
     * @return the indices, increasing (a copy)
     */
    public int[] indices() {
        return indices.clone();
    }

    /**
     * The populated buckets' counts.
     *
     * @return the counts, in the order of {@link #indices()} (a copy)
     */
    public long[] counts() {
        return counts.clone();
    }

    /**
     * The counts of buckets {@code from, from + 1, ... to} (Prometheus indices), empty ones 0: OpenTelemetry's
     * dense layout, whose offset is {@code from - 1}.
     *
     * @return the counts; empty when no bucket is populated
     */
    public long[] denseCounts() {
        if (indices.length == 0) {
            return new long[0];
        }
        long[] dense = new long[indices[indices.length - 1] - indices[0] + 1];
        for (int k = 0; k < indices.length; k++) {
            dense[indices[k] - indices[0]] = counts[k];
        }
        return dense;
    }

    /**
     * The Prometheus index of the first populated bucket (OpenTelemetry's offset is this minus 1).
     *
     * @return that index; 1 when no bucket is populated
     */
    public int firstIndex() {
        return indices.length == 0 ? 1 : indices[0];
    }

    private static void checkSchema(int schema) {
        if (schema < MIN_SCHEMA || schema > MAX_SCHEMA) {
            throw new IllegalArgumentException("the schema must be in " + MIN_SCHEMA + ".." + MAX_SCHEMA + ", was " + schema);
        }
    }

    /** Merges pairs in place (schema s to s - 1, as client_java does); returns the new number of buckets. */
    private static int halve(int[] index, long[] count, int n) {
        int m = 0;
        for (int k = 0; k < n; k++) {
            int j = NativeIndex.halve(index[k]);
            if (m > 0 && index[m - 1] == j) {
                count[m - 1] += count[k];
            } else {
                index[m] = j;
                count[m++] = count[k];
            }
        }
        return m;
    }

    /** Native index (at {@code schema}) of every statvar bucket of {@code p}, middles shifted {@code decimals}; [0] unused. */
    private static int[] table(HistogramPrecision p, int decimals, int schema) {
        int key = (p.subBucketBits() << 16) | (decimals << 8) | (schema - MIN_SCHEMA);
        return TABLES.computeIfAbsent(key, k -> {
            double divisor = decimals == 0 ? 1 : decimals == 6 ? 1e6 : 1e9;
            int[] t = new int[p.bucketCount()];
            for (int i = 1; i < t.length; i++) {
                t[i] = NativeIndex.of(p.middle(i) / divisor, schema);
            }
            return t;
        });
    }
}
