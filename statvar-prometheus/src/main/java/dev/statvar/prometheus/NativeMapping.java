package dev.statvar.prometheus;

import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/*
 * The rule
 * --------
 * statvar bucket 0 holds the value 0 only: its count is the zero bucket's (threshold 2^-128, below any
 * positive exposed value, 1e-9 at the least). Every other statvar bucket [lo, hi] moves whole to the native
 * bucket (schema s) that holds its middle m = lo + (w - 1) / 2 (the value statvar reports for it), m taken
 * in the exposed unit (m / 10^9 for nanoseconds shown in seconds), so native indices are those of the
 * exposed values. m is increasing in the statvar index, so the mapping is monotonic: the native bucket in
 * which the cumulative count reaches rank r is the one that received the statvar bucket holding the r-th
 * value v. Any estimate e in that native bucket (L, U], U = gamma L, gamma = 2^(2^-s), has
 * e / v <= U / lo <= gamma m / lo <= gamma (1 + eps) and v / e <= hi / L <= gamma hi / m <= gamma (1 + eps),
 * eps = 2^-(b+1) (statvar's bound, HistogramPrecision.maxRelativeError()). So
 *     |e - v| / v <= (1 + eps) * 2^(2^-s) - 1        (2.99 % at b = 6, s = 5)
 * Merging pairs (bucket limit) is the same rule at schema s - 1: the bound with the schema finally used.
 */

/** Native buckets of statvar histograms: the mapping table per layout, and the conversion. Thread-safe. */
final class NativeMapping {
    /** Native index of each statvar bucket index, per (subBucketBits, decimals, schema); made on first use. */
    private static final ConcurrentHashMap<Integer, int[]> TABLES = new ConcurrentHashMap<>();

    private NativeMapping() {
    }

    /** A histogram's native part: the schema used (lowered by the bucket limit), the zero count, the positive buckets. */
    record Result(int schema, long zeroCount, NativeHistogramBuckets positive) {
    }

    /**
     * The native buckets of {@code h} ({@code buckets}: its counts) at {@code schema}, lowered one step at a time (pairs merged) while
     * more than {@code maxBuckets} are populated, down to schema -4 at the least.
     */
    static Result convert(HistogramValue h, BucketRange buckets, Naming unit, int schema, int maxBuckets) {
        int[] table = table(h.precision(), unit, schema);
        long[] counts = buckets.counts();
        int[] index = new int[counts.length];
        long[] count = new long[counts.length];
        int n = 0;
        long zero = 0;
        for (int k = 0; k < counts.length; k++) {
            long c = counts[k];
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
        while (n > maxBuckets && s > NativeIndex.MIN_SCHEMA) {
            n = halve(index, count, n);
            s--;
        }
        NativeHistogramBuckets positive = n == 0 ? NativeHistogramBuckets.EMPTY
                : NativeHistogramBuckets.of(Arrays.copyOf(index, n), Arrays.copyOf(count, n));
        return new Result(s, zero, positive);
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

    /** Native index (at {@code schema}) of every statvar bucket of {@code p}, middles in {@code unit}; [0] unused. */
    static int[] table(HistogramPrecision p, Naming unit, int schema) {
        int key = (p.subBucketBits() << 16) | (unit.decimals() << 8) | (schema - NativeIndex.MIN_SCHEMA);
        return TABLES.computeIfAbsent(key, k -> {
            int[] t = new int[p.bucketCount()];
            for (int i = 1; i < t.length; i++) {
                t[i] = NativeIndex.of(unit.value(p.middle(i)), schema);
            }
            return t;
        });
    }
}
