package dev.statvar;

import dev.statvar.internal.LogLinear;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The values a histogram recorded in one interval (or in several, {@link #merge merged}):
 * count, sum, exact min and max, percentiles, and the non-empty buckets. Immutable.
 *
 * <p>An interval without records has {@code count() == 0}, {@code sum() == 0}, {@code min() == 0},
 * {@code max() == 0}, {@code mean()} NaN and {@code valueAtPercentile(p) == 0};
 * {@link #isEmpty()} tells it apart from one whose only records were zeros.
 *
 * <p><b>Which fields may disagree within one interval.</b> {@code count()} and the bucket counts
 * always agree (count is their sum), and over consecutive intervals counts, buckets and sums
 * add up exactly to everything recorded. A record racing the interval switch in its thread may
 * have its bucket counted in one interval while its value is in the {@code sum()} of the
 * interval before. {@code min()} and {@code max()} always cover every value the interval
 * counts and are always values recorded; a record racing a switch may also widen the
 * neighbouring interval's. When the engine could not tell exactly which of a thread's records
 * an interval counts (a record in flight across a whole switch, rare), min and max still cover
 * the interval's records but may include values that thread recorded earlier, and
 * {@link #isMinMaxExact()} is false. {@link #merge} and {@link #mergeAll} take every value's
 * min and max, so merged min and max cover every record merged and are values recorded.
 */
public final class HistogramValue implements StatValue {
    private final String name;
    private final String help;
    private final Labels labels;
    private final HistogramPrecision precision;
    private final long count;
    private final long sum;
    private final long min;
    private final long max;
    /** Bucket index of {@code counts[0]}. */
    private final int firstIndex;
    /** Dense counts of buckets {@code firstIndex ..}; first and last non-zero (or empty). */
    private final long[] counts;
    /** False when min and max may include values the recording thread recorded earlier (see {@link #isMinMaxExact()}). */
    private final boolean minMaxExact;
    /** Everything recorded since registration, as of this interval's end ({@link #totals()}); null: this value itself. */
    private final HistogramValue totals;

    /**
     * A histogram value built from bucket counts.
     *
     * @param name       the histogram's name
     * @param help       its help text
     * @param precision  the bucket layout the indices refer to
     * @param sum        sum of the values (modulo 2^64)
     * @param min        smallest value (0 with {@code max} 0: none)
     * @param max        largest value (0 with {@code min} 0: none)
     * @param firstIndex bucket index of {@code counts[0]}
     * @param counts     counts of buckets {@code firstIndex, firstIndex + 1, ...}; copied
     * @throws IllegalArgumentException if a count is negative or a bucket index is out of range
     * @throws NullPointerException     if an argument is null
     */
    public HistogramValue(String name, String help, HistogramPrecision precision, long sum, long min, long max,
                          int firstIndex, long[] counts) {
        this(name, help, Labels.EMPTY, precision, sum, min, max, firstIndex, counts);
    }

    /**
     * As {@link #HistogramValue(String, String, HistogramPrecision, long, long, long, int, long[])},
     * for a series with labels.
     *
     * @param name       the histogram's name
     * @param help       its help text
     * @param labels     its labels ({@link Labels#EMPTY} unless it is a series of a {@link StatFamily})
     * @param precision  the bucket layout the indices refer to
     * @param sum        sum of the values (modulo 2^64)
     * @param min        smallest value (0 with {@code max} 0: none)
     * @param max        largest value (0 with {@code min} 0: none)
     * @param firstIndex bucket index of {@code counts[0]}
     * @param counts     counts of buckets {@code firstIndex, firstIndex + 1, ...}; copied
     * @throws IllegalArgumentException if a count is negative or a bucket index is out of range
     * @throws NullPointerException     if an argument is null
     */
    public HistogramValue(String name, String help, Labels labels, HistogramPrecision precision, long sum, long min,
                          long max, int firstIndex, long[] counts) {
        this(name, help, labels, precision, sum, min, max, firstIndex, counts, true);
    }

    /**
     * As {@link #HistogramValue(String, String, Labels, HistogramPrecision, long, long, long, int, long[])},
     * saying whether min and max hold only this value's records and racing neighbours, or may
     * hold values recorded earlier (see the class comment and {@link #isMinMaxExact()}).
     *
     * @param name       the histogram's name
     * @param help       its help text
     * @param labels     its labels ({@link Labels#EMPTY} unless it is a series of a {@link StatFamily})
     * @param precision  the bucket layout the indices refer to
     * @param sum        sum of the values (modulo 2^64)
     * @param min        smallest value (0 with {@code max} 0: none)
     * @param max        largest value (0 with {@code min} 0: none)
     * @param firstIndex bucket index of {@code counts[0]}
     * @param counts     counts of buckets {@code firstIndex, firstIndex + 1, ...}; copied
     * @param minMaxExact false when min and max may hold values recorded earlier
     * @throws IllegalArgumentException if a count is negative or a bucket index is out of range
     * @throws NullPointerException     if an argument is null
     */
    public HistogramValue(String name, String help, Labels labels, HistogramPrecision precision, long sum, long min,
                          long max, int firstIndex, long[] counts, boolean minMaxExact) {
        this.name = Objects.requireNonNull(name, "name");
        this.help = Objects.requireNonNull(help, "help");
        this.labels = Objects.requireNonNull(labels, "labels");
        this.precision = Objects.requireNonNull(precision, "precision");
        int n = precision.bucketCount();
        if (firstIndex < 0 || firstIndex > n || counts.length > n - firstIndex) {
            throw new IllegalArgumentException("buckets " + firstIndex + ".." + (firstIndex + counts.length - 1)
                    + " outside 0.." + (n - 1) + " of " + precision);
        }
        int lo = 0;
        int hi = counts.length;
        while (lo < hi && counts[lo] == 0) {
            lo++;
        }
        while (hi > lo && counts[hi - 1] == 0) {
            hi--;
        }
        long c = 0;
        for (int i = lo; i < hi; i++) {
            if (counts[i] < 0) {
                throw new IllegalArgumentException("bucket " + (firstIndex + i) + " has a negative count: " + counts[i]);
            }
            c += counts[i];
        }
        this.count = c;
        this.firstIndex = firstIndex + lo;
        this.counts = Arrays.copyOfRange(counts, lo, hi);
        this.sum = sum;
        this.min = min;
        this.max = max;
        this.minMaxExact = minMaxExact;
        this.totals = null;
    }

    private HistogramValue(HistogramValue v, Labels labels, HistogramValue totals) {
        this.name = v.name;
        this.help = v.help;
        this.labels = Objects.requireNonNull(labels, "labels");
        this.precision = v.precision;
        this.count = v.count;
        this.sum = v.sum;
        this.min = v.min;
        this.max = v.max;
        this.firstIndex = v.firstIndex;
        this.counts = v.counts;
        this.minMaxExact = v.minMaxExact;
        this.totals = totals;
    }

    /**
     * An empty value: what an interval without records delivers.
     *
     * @param name      the histogram's name
     * @param help      its help text
     * @param precision its bucket layout
     * @return a value without labels, counts, sum, min or max; {@link #isEmpty()} is true
     * @throws NullPointerException if an argument is null
     */
    public static HistogramValue empty(String name, String help, HistogramPrecision precision) {
        return new HistogramValue(name, help, precision, 0, 0, 0, 0, new long[0]);
    }

    /**
     * This value with other labels (its {@link #totals()} keep theirs).
     *
     * @param labels the new labels
     * @return a copy of this value with {@code labels}
     * @throws NullPointerException if {@code labels} is null
     */
    public HistogramValue withLabels(Labels labels) {
        return new HistogramValue(this, labels, totals);
    }

    /**
     * This value carrying {@code totals} as its {@link #totals()}: what the engine does for every
     * interval it closes.
     *
     * @param totals everything recorded since registration, at this value's precision
     * @return a copy of this value whose {@link #totals()} is {@code totals}
     * @throws IllegalArgumentException if {@code totals} is of another precision
     * @throws NullPointerException     if {@code totals} is null
     */
    public HistogramValue withTotals(HistogramValue totals) {
        Objects.requireNonNull(totals, "totals");
        if (!totals.precision.equals(precision)) {
            throw new IllegalArgumentException("totals of " + totals.precision + " for a value of " + precision);
        }
        return new HistogramValue(this, labels, totals);
    }

    /**
     * Everything this histogram recorded since it was registered, up to the end of this interval
     * (dead threads included; counts, sums and buckets exact modulo 2^64): what a Prometheus
     * {@code _count}, {@code _sum} and {@code _bucket} show, like {@link CounterValue#total()}.
     * Set on every value a collect delivers, whoever else consumed the earlier intervals; for a
     * value built otherwise (a constructor, {@link #mergeAll}), the value itself.
     *
     * @return the cumulative value, or this value when none was set
     */
    public HistogramValue totals() {
        return totals == null ? this : totals;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Labels labels() {
        return labels;
    }

    @Override
    public String help() {
        return help;
    }

    @Override
    public StatKind kind() {
        return StatKind.HISTOGRAM;
    }

    /**
     * The bucket layout.
     *
     * @return the precision the bucket indices of this value refer to
     */
    public HistogramPrecision precision() {
        return precision;
    }

    /**
     * Number of values recorded.
     *
     * @return the sum of the bucket counts
     */
    public long count() {
        return count;
    }

    /**
     * Sum of the values recorded, exact modulo 2^64. Values are non-negative, so read it
     * unsigned ({@link Long#toUnsignedString(long)}): exact while the true sum is below 2^64.
     *
     * @return the sum, as an unsigned 64-bit value
     */
    public long sum() {
        return sum;
    }

    /**
     * Smallest value recorded.
     *
     * @return the minimum, 0 when empty; see {@link #isMinMaxExact()}
     */
    public long min() {
        return min;
    }

    /**
     * Largest value recorded.
     *
     * @return the maximum, 0 when empty; see {@link #isMinMaxExact()}
     */
    public long max() {
        return max;
    }

    /**
     * Whether {@link #min()} and {@link #max()} hold only values counted in this value or
     * recorded while a switch next to it raced them (true, also when empty); false when they may
     * also hold values the recording thread recorded earlier (see the class comment). Either way they cover
     * every value counted and are values recorded. A merge is exact when all its parts are.
     *
     * @return false when min and max may hold values recorded earlier
     */
    public boolean isMinMaxExact() {
        return minMaxExact;
    }

    /**
     * The mean of the values recorded.
     *
     * @return {@code sum / count}, the sum read unsigned (exact while below 2^64, see {@link #sum()}),
     *         or NaN when the count is 0
     */
    public double mean() {
        if (count == 0) {
            return Double.NaN;
        }
        double unsignedSum = sum >= 0 ? sum : (double) (sum >>> 1) * 2.0 + (sum & 1);
        return unsignedSum / count;
    }

    /**
     * True when nothing of any record is in this value: no count, sum, min or max (see the class
     * comment for a count of 0 with a sum or min/max).
     *
     * @return true when count, sum, min and max are all 0
     */
    public boolean isEmpty() {
        return count == 0 && sum == 0 && !hasMinMax();
    }

    /** Whether min and max describe some record: a count, or a min/max of a record racing the switch. */
    private boolean hasMinMax() {
        return count > 0 || min != 0 || max != 0;
    }

    /**
     * The value at percentile {@code p}: the smallest recorded value v such that at least
     * {@code p} % of the values are &lt;= v, reported within the precision. Precisely: rank
     * {@code ceil(p / 100 * count)} is located in its bucket; the last rank reports
     * {@link #max()} and the first {@link #min()} (exact); any other rank reports the bucket's
     * middle, moved to min or max when they lie in that bucket and the middle is beyond them.
     * Every result is within {@link HistogramPrecision#maxRelativeError()} of the exact order
     * statistic (for an interval without a record racing its switch, see the class comment).
     * 0 when empty.
     *
     * @param p percentile, {@code 0 < p <= 100}
     * @return the value at that percentile, within the precision; 0 when empty
     * @throws IllegalArgumentException if p is outside (0, 100] or NaN
     */
    public long valueAtPercentile(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], was " + p);
        }
        if (count == 0) {
            return 0;
        }
        long rank = BigDecimal.valueOf(p).multiply(BigDecimal.valueOf(count))
                .divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING).longValueExact();
        rank = Math.max(1, Math.min(count, rank));
        long seen = 0;
        int i = 0;
        while (true) {
            seen += counts[i];
            if (seen >= rank) {
                break;
            }
            i++;
        }
        int b = precision.subBucketBits();
        int index = firstIndex + i;
        long lo = LogLinear.lowerBound(index, b);
        long hi = lo + (LogLinear.width(index, b) - 1);
        if (rank == count && max >= lo && max <= hi) {
            return max; // the largest value, exact
        }
        if (rank == 1 && min >= lo && min <= hi) {
            return min; // the smallest value, exact
        }
        long v = lo + (hi - lo) / 2;
        long floor = Math.max(lo, min);
        long ceiling = Math.min(hi, max);
        if (floor <= ceiling) {
            v = Math.max(floor, Math.min(ceiling, v));
        }
        return v;
    }

    /**
     * One bucket: the values {@code lowerBound .. upperBound} (inclusive), recorded {@code count}
     * times. Immutable.
     *
     * @param lowerBound the bucket's smallest value ({@link HistogramPrecision#lowerBound})
     * @param upperBound the bucket's largest value, inclusive ({@link HistogramPrecision#upperBound})
     * @param count      the number of values recorded in it
     */
    public record Bucket(long lowerBound, long upperBound, long count) {
        // Explicit: the generated methods would link through java.lang.runtime.ObjectMethods (see HistogramPrecision).
        @Override
        public boolean equals(Object o) {
            return o instanceof Bucket b && b.lowerBound == lowerBound && b.upperBound == upperBound && b.count == count;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(lowerBound) * 961 + Long.hashCode(upperBound) * 31 + Long.hashCode(count);
        }

        @Override
        public String toString() {
            return "Bucket[lowerBound=" + lowerBound + ", upperBound=" + upperBound + ", count=" + count + "]";
        }
    }

    /**
     * The non-empty buckets in increasing order (for exporters).
     *
     * @return a new list of every bucket with a count; empty when the count is 0
     */
    public List<Bucket> buckets() {
        ArrayList<Bucket> list = new ArrayList<>();
        int b = precision.subBucketBits();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] != 0) {
                int index = firstIndex + i;
                long lo = LogLinear.lowerBound(index, b);
                list.add(new Bucket(lo, lo + (LogLinear.width(index, b) - 1), counts[i]));
            }
        }
        return list;
    }

    /**
     * The count of bucket {@code index} of {@link #precision()}.
     *
     * @param index a bucket index ({@link HistogramPrecision#bucketIndex})
     * @return the number of values recorded in that bucket; 0 for an index with none, also one
     *         outside the precision's range
     */
    public long bucketCount(int index) {
        int i = index - firstIndex;
        return i < 0 || i >= counts.length ? 0 : counts[i];
    }

    /**
     * This value merged with {@code other}: counts, sums, buckets added; min and max combined;
     * name, help and labels of this one. Values of different precisions merge at the coarser one (its
     * bucket boundaries are a subset of the finer one's, so no count moves across a boundary).
     *
     * @param other the value to add to this one
     * @return a new value; its {@link #totals()} is the value itself
     * @throws NullPointerException if {@code other} is null
     */
    public HistogramValue merge(HistogramValue other) {
        return mergeAll(name, help, List.of(this, other)).withLabels(labels);
    }

    /**
     * Merges several values, e.g. twelve 5-second intervals into one minute, or the same
     * histogram of several registries. The result has the coarsest of their precisions.
     *
     * @param name   the name of the result
     * @param help   the help text of the result
     * @param values the values to merge, at least one
     * @return a new value without labels; exact min and max ({@link #isMinMaxExact()}) when every
     *         value's are
     * @throws IllegalArgumentException if {@code values} is empty
     * @throws NullPointerException     if an argument or one of the values is null
     */
    public static HistogramValue mergeAll(String name, String help, Collection<HistogramValue> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        int b = HistogramPrecision.MAX_BITS;
        for (HistogramValue v : values) {
            b = Math.min(b, v.precision.subBucketBits());
        }
        int lo = Integer.MAX_VALUE;
        int hi = -1;
        for (HistogramValue v : values) {
            if (v.count > 0) {
                lo = Math.min(lo, coarser(v.firstIndex, v.precision.subBucketBits(), b));
                hi = Math.max(hi, coarser(v.firstIndex + v.counts.length - 1, v.precision.subBucketBits(), b));
            }
        }
        HistogramPrecision precision = HistogramPrecision.ofSubBucketBits(b);
        long[] merged = new long[hi < 0 ? 0 : hi - lo + 1];
        long sum = 0;
        boolean exact = true;
        boolean has = false;
        long min = 0;
        long max = 0;
        for (HistogramValue v : values) {
            int vb = v.precision.subBucketBits();
            for (int i = 0; i < v.counts.length; i++) {
                merged[coarser(v.firstIndex + i, vb, b) - lo] += v.counts[i];
            }
            sum += v.sum;
            exact &= v.minMaxExact;
            if (v.hasMinMax()) {
                min = has ? Math.min(min, v.min) : v.min;
                max = has ? Math.max(max, v.max) : v.max;
                has = true;
            }
        }
        return new HistogramValue(name, help, Labels.EMPTY, precision, sum, min, max, hi < 0 ? 0 : lo, merged, exact);
    }

    /** The bucket at precision {@code to} (&lt;= {@code from}) containing bucket {@code index} of precision {@code from}. */
    private static int coarser(int index, int from, int to) {
        return from == to ? index : LogLinear.index(LogLinear.lowerBound(index, from), to);
    }

    /** Percentiles 50, 90, 99, 99.9 and 100 as {@code p50=.. p90=.. p99=.. p99.9=.. max=..}, with count, sum, min, mean. */
    @Override
    public String toString() {
        if (count == 0) {
            return name + labels + " count=0";
        }
        return String.format("%s count=%d sum=%d min=%d mean=%.1f p50=%d p90=%d p99=%d p99.9=%d max=%d",
                name + labels, count, sum, min, mean(), valueAtPercentile(50), valueAtPercentile(90),
                valueAtPercentile(99), valueAtPercentile(99.9), max);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof HistogramValue h && name.equals(h.name) && help.equals(h.help) && labels.equals(h.labels)
                && precision.equals(h.precision) && count == h.count && sum == h.sum && min == h.min
                && max == h.max && minMaxExact == h.minMaxExact && firstIndex == h.firstIndex
                && Arrays.equals(counts, h.counts);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, precision, count, sum, min, max, firstIndex) * 31 + Arrays.hashCode(counts);
    }
}
