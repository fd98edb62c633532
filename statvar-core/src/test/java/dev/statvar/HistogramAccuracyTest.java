package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.DoubleToLongFunction;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Percentiles of histograms recorded through a real registry (one thread, then collect())
 * against the exact order statistic: {@code sorted[ceil(p/100 * n) - 1]}. Every reported value
 * must be within 1 % and within {@link HistogramPrecision#maxRelativeError()} of it; count, sum,
 * min and max are exact; bucket counts equal the exact histogram; merging intervals is exact.
 */
class HistogramAccuracyTest {

    static final int N = 200_000;
    static final String NAME = "lat";

    /** Fixed percentiles plus 50 random ones (fixed seed), all in (0, 100]. */
    static final double[] PERCENTILES = percentiles();

    private static double[] percentiles() {
        double[] fixed = {0.001, 0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100};
        double[] ps = Arrays.copyOf(fixed, fixed.length + 50);
        SplittableRandom rnd = new SplittableRandom(20240611);
        for (int i = fixed.length; i < ps.length; i++) {
            double p;
            do {
                p = rnd.nextDouble() * 100;
            } while (p <= 0);
            ps[i] = p;
        }
        return ps;
    }

    // ------------------------------------------------------------------------------------------
    // Data sets (fixed seeds), generated once

    static final List<String> DATA_SETS = List.of("uniform", "exponential", "lognormal", "bimodal",
            "zeros", "ones", "small", "nearMax");

    private static final Map<String, long[]> CACHE = new ConcurrentHashMap<>();

    static Stream<String> dataSets() {
        return DATA_SETS.stream();
    }

    /** The values of a data set, in recording order (do not modify). */
    static long[] data(String name) {
        return CACHE.computeIfAbsent(name, HistogramAccuracyTest::generate);
    }

    private static long[] generate(String name) {
        long[] v = new long[N];
        Random rnd = new Random(name.hashCode() * 31L + 7);
        switch (name) {
            case "uniform" -> {
                for (int i = 0; i < N; i++) {
                    v[i] = (long) (rnd.nextDouble() * 1_000_000); // [0, 10^6)
                }
            }
            case "exponential" -> {
                for (int i = 0; i < N; i++) {
                    v[i] = Math.round(-Math.log(1 - rnd.nextDouble()) * 100_000); // mean 10^5 ns
                }
            }
            case "lognormal" -> {
                double mu = Math.log(100_000);
                for (int i = 0; i < N; i++) {
                    v[i] = Math.round(Math.exp(mu + 1.5 * rnd.nextGaussian()));
                }
            }
            case "bimodal" -> {
                for (int i = 0; i < N; i++) {
                    double x = rnd.nextInt(10) < 9
                            ? 1_000_000 + 100_000 * rnd.nextGaussian()      // 1 ms +- 0.1 ms
                            : 50_000_000 + 5_000_000 * rnd.nextGaussian();  // 50 ms +- 5 ms
                    v[i] = Math.max(0, Math.round(x));
                }
            }
            case "zeros" -> Arrays.fill(v, 0);
            case "ones" -> Arrays.fill(v, 1);
            case "small" -> {
                for (int i = 0; i < N; i++) {
                    v[i] = rnd.nextInt(101); // 0..100
                }
            }
            case "nearMax" -> {
                for (int i = 0; i < N; i++) {
                    v[i] = rnd.nextBoolean()
                            ? Long.MAX_VALUE - rnd.nextInt(1000)                        // MAX - k, k < 1000
                            : (1L << 62) + (rnd.nextLong() & ((1L << 62) - 1));         // [2^62, 2^63)
                }
                v[N / 2] = Long.MAX_VALUE;
                v[N / 3] = 1L << 62;
            }
            default -> throw new IllegalArgumentException(name);
        }
        return v;
    }

    private static long[] sorted(long[] values) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s;
    }

    // ------------------------------------------------------------------------------------------
    // Recording through a registry

    /** Records all values in one interval of a fresh registry; returns the collected value. */
    static HistogramValue recordAll(long[] values, HistogramPrecision precision) {
        return recordAll(values, 0, values.length, precision);
    }

    static HistogramValue recordAll(long[] values, int from, int to, HistogramPrecision precision) {
        StatRegistry reg = StatRegistry.create();
        Histogram h = reg.histogram(NAME, "", precision);
        for (int i = from; i < to; i++) {
            h.record(values[i]);
        }
        return reg.collect().histogram(NAME);
    }

    // ------------------------------------------------------------------------------------------
    // The exact order statistic and the error checker

    /** Rank {@code ceil(p/100 * n)}, computed exactly, clamped to [1, n]. */
    static long exactRank(double p, long n) {
        long rank = BigDecimal.valueOf(p).multiply(BigDecimal.valueOf(n))
                .divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING).longValueExact();
        return Math.max(1, Math.min(n, rank));
    }

    static long exact(long[] sorted, double p) {
        return sorted[(int) exactRank(p, sorted.length) - 1];
    }

    /**
     * Every percentile where {@code |estimate(p) - exact(p)| > bound * exact(p)} (exactly, in
     * BigDecimal; for exact 0 the estimate must be 0).
     */
    static List<String> violations(long[] sorted, double[] ps, DoubleToLongFunction estimate, double bound) {
        List<String> out = new ArrayList<>();
        BigDecimal b = new BigDecimal(bound); // exact binary value of the bound
        if (bound == 0.01) {
            b = new BigDecimal("0.01");
        }
        for (double p : ps) {
            long x = exact(sorted, p);
            long e = estimate.applyAsLong(p);
            BigDecimal diff = new BigDecimal(BigInteger.valueOf(e).subtract(BigInteger.valueOf(x)).abs());
            if (diff.compareTo(b.multiply(BigDecimal.valueOf(x))) > 0) {
                out.add("p" + p + ": reported " + e + ", exact " + x + " (rank " + exactRank(p, sorted.length)
                        + "), relative error " + (x == 0 ? "inf" : diff.divide(BigDecimal.valueOf(x), MathContext.DECIMAL64))
                        + " > " + bound);
            }
        }
        return out;
    }

    static void assertNoViolations(String what, List<String> violations) {
        if (!violations.isEmpty()) {
            fail(what + ": " + violations.size() + " percentiles out of bounds:\n  "
                    + String.join("\n  ", violations.subList(0, Math.min(10, violations.size()))));
        }
    }

    // ------------------------------------------------------------------------------------------
    // Percentiles

    @ParameterizedTest(name = "{0}")
    @MethodSource("dataSets")
    void percentilesAtDefaultPrecision(String dataSet) {
        long[] values = data(dataSet);
        long[] sorted = sorted(values);
        HistogramValue hv = recordAll(values, HistogramPrecision.DEFAULT);
        assertEquals(HistogramPrecision.DEFAULT, hv.precision());
        assertEquals(0.0078125, hv.precision().maxRelativeError());

        assertNoViolations(dataSet + " within 1 %", violations(sorted, PERCENTILES, hv::valueAtPercentile, 0.01));
        assertNoViolations(dataSet + " within maxRelativeError",
                violations(sorted, PERCENTILES, hv::valueAtPercentile, hv.precision().maxRelativeError()));
        assertExactFields(dataSet, values, sorted, hv);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dataSets")
    void percentilesAtSubBucketBits4(String dataSet) {
        long[] values = data(dataSet);
        long[] sorted = sorted(values);
        HistogramPrecision four = HistogramPrecision.ofSubBucketBits(4);
        HistogramValue hv = recordAll(values, four);
        assertEquals(four, hv.precision());
        assertEquals(0.03125, four.maxRelativeError());

        assertNoViolations(dataSet + " at bits 4 within 3.125 %",
                violations(sorted, PERCENTILES, hv::valueAtPercentile, four.maxRelativeError()));
        assertExactFields(dataSet, values, sorted, hv);
    }

    /** count, sum, min, max exact; p100 == max; mean; bucket counts equal the exact histogram. */
    private static void assertExactFields(String dataSet, long[] values, long[] sorted, HistogramValue hv) {
        long n = values.length;
        long sum = 0;
        BigInteger bigSum = BigInteger.ZERO;
        for (long v : values) {
            sum += v; // modulo 2^64, as documented
            bigSum = bigSum.add(BigInteger.valueOf(v));
        }
        assertEquals(n, hv.count(), dataSet + " count");
        assertEquals(sum, hv.sum(), dataSet + " sum");
        assertEquals(sorted[0], hv.min(), dataSet + " min");
        assertEquals(sorted[sorted.length - 1], hv.max(), dataSet + " max");
        assertEquals(hv.max(), hv.valueAtPercentile(100), dataSet + " p100 == max");
        assertEquals(hv.min(), hv.valueAtPercentile(Double.MIN_VALUE), dataSet + " first rank == min");
        assertEquals(hv.min(), hv.valueAtPercentile(0.0001), dataSet + " p0.0001 (rank 1) == min");
        assertReportedWithinMinMax(dataSet, hv);
        assertFalse(hv.isEmpty());
        if (bigSum.bitLength() <= 64) { // below 2^64: the unsigned sum is exact, and so is the mean
            double exactMean = new BigDecimal(bigSum).divide(BigDecimal.valueOf(n), MathContext.DECIMAL64).doubleValue();
            assertEquals(exactMean, hv.mean(), Math.abs(exactMean) * 1e-12, dataSet + " mean");
        } else {
            // the sum wrapped (documented: modulo 2^64); mean is defined as the unsigned sum / count
            double unsignedSum = new BigDecimal(Long.toUnsignedString(hv.sum())).doubleValue();
            assertEquals(unsignedSum / hv.count(), hv.mean(), dataSet + " mean = unsigned sum / count");
        }
        assertEquals(NAME, hv.name());
        assertEquals(StatKind.HISTOGRAM, hv.kind());

        assertBucketsMatch(dataSet, values, hv);
    }

    /** Every reported value lies in [min, max] (the middle is moved to min/max when beyond them). */
    private static void assertReportedWithinMinMax(String what, HistogramValue hv) {
        for (double p : PERCENTILES) {
            long r = hv.valueAtPercentile(p);
            if (r < hv.min() || r > hv.max()) {
                fail(what + ": p" + p + " reported " + r + " outside min " + hv.min() + " .. max " + hv.max());
            }
        }
    }

    /** buckets(): non-empty, increasing, the precision's buckets, counts equal to the exact histogram. */
    private static void assertBucketsMatch(String dataSet, long[] values, HistogramValue hv) {
        HistogramPrecision p = hv.precision();
        Map<Integer, Long> expected = new HashMap<>();
        for (long v : values) {
            expected.merge(p.bucketIndex(v), 1L, Long::sum);
        }
        List<HistogramValue.Bucket> buckets = hv.buckets();
        assertFalse(buckets.isEmpty(), dataSet + " buckets non-empty");
        long total = 0;
        long previousUpper = -1;
        Map<Integer, Long> actual = new HashMap<>();
        for (HistogramValue.Bucket b : buckets) {
            assertTrue(b.count() > 0, () -> dataSet + " empty bucket listed: " + b);
            assertTrue(b.lowerBound() > previousUpper, () -> dataSet + " buckets not increasing at " + b);
            previousUpper = b.upperBound();
            int index = p.bucketIndex(b.lowerBound());
            assertEquals(p.lowerBound(index), b.lowerBound(), () -> dataSet + " bucket lower bound " + b);
            assertEquals(p.upperBound(index), b.upperBound(), () -> dataSet + " bucket upper bound " + b);
            assertEquals(b.count(), hv.bucketCount(index), () -> dataSet + " bucketCount(" + index + ")");
            actual.put(index, b.count());
            total += b.count();
        }
        assertEquals(hv.count(), total, dataSet + " bucket counts sum to count()");
        for (long v : values) {
            int index = p.bucketIndex(v);
            if (!actual.containsKey(index)) {
                fail(dataSet + ": the bucket of recorded value " + v + " (" + p.lowerBound(index) + ".."
                        + p.upperBound(index) + ") is not in buckets()");
            }
        }
        assertEquals(expected, actual, dataSet + " bucket counts equal the exact histogram");
    }

    /**
     * Values below 2^(b+1) have buckets of one value: every percentile is then exactly the order
     * statistic, for small counts where the rank rounding (ceil, clamped to [1, n]) decides.
     */
    @ParameterizedTest(name = "bits {0}")
    @ValueSource(ints = {1, 4, 6, 10})
    void exactBucketsReportTheExactOrderStatistic(int bits) {
        HistogramPrecision precision = HistogramPrecision.ofSubBucketBits(bits);
        long exactLimit = 2L << bits;
        SplittableRandom rnd = new SplittableRandom(99 + bits);
        for (int n = 1; n <= 40; n++) {
            long[] values = rnd.longs(n, 0, exactLimit).toArray();
            long[] sorted = sorted(values);
            HistogramValue hv = recordAll(values, precision);
            List<Double> ps = new ArrayList<>();
            for (double p : PERCENTILES) {
                ps.add(p);
            }
            for (int k = 1; k <= n; k++) {
                double p = k * 100.0 / n; // at a rank boundary, and just above and below it
                ps.add(p);
                ps.add(Math.nextUp(p));
                if (Math.nextDown(p) > 0) {
                    ps.add(Math.nextDown(p));
                }
            }
            for (double p : ps) {
                if (p > 100) {
                    continue;
                }
                long x = exact(sorted, p);
                long r = hv.valueAtPercentile(p);
                if (r != x) {
                    fail("bits " + bits + ", values " + Arrays.toString(sorted) + ": p" + p + " (rank "
                            + exactRank(p, n) + ") reported " + r + ", exact " + x);
                }
            }
        }
    }

    /** All values equal: every percentile is that value exactly (min == max, in whatever bucket). */
    @ParameterizedTest(name = "value {0}")
    @ValueSource(longs = {0, 1, 127, 128, 1000, 1_000_001, 123_456_789_012L, 1L << 62, Long.MAX_VALUE - 1, Long.MAX_VALUE})
    void constantValueIsReportedExactly(long v) {
        for (int bits : new int[]{1, 4, 6, 10}) {
            StatRegistry reg = StatRegistry.create();
            Histogram h = reg.histogram(NAME, "", HistogramPrecision.ofSubBucketBits(bits));
            for (int i = 0; i < 1000; i++) {
                h.record(v);
            }
            HistogramValue hv = reg.collect().histogram(NAME);
            assertEquals(1000, hv.count());
            assertEquals(v, hv.min());
            assertEquals(v, hv.max());
            assertEquals(v * 1000, hv.sum(), "sum (modulo 2^64)");
            for (double p : PERCENTILES) {
                assertEquals(v, hv.valueAtPercentile(p), "bits " + bits + ", p" + p);
            }
            assertEquals(1, hv.buckets().size());
        }
    }

    /**
     * Min and max anywhere in wide buckets (in particular above the middle): the first rank
     * reports min and the last max, exactly; every other percentile lies in [min, max] and within
     * the precision.
     */
    @ParameterizedTest(name = "bits {0}")
    @ValueSource(ints = {1, 2, 4, 6, 8, 10})
    void extremesInWideBucketsAreExact(int bits) {
        HistogramPrecision precision = HistogramPrecision.ofSubBucketBits(bits);
        SplittableRandom rnd = new SplittableRandom(1234 + bits);
        for (int round = 0; round < 200; round++) {
            // a few values from two or three wide buckets (width >= 4), anywhere in them
            int n = rnd.nextInt(1, 30);
            long[] values = new long[n];
            int[] picks = new int[rnd.nextInt(1, 4)];
            int firstWide = (bits + 3) << bits; // buckets from here on have width >= 4
            for (int j = 0; j < picks.length; j++) {
                picks[j] = rnd.nextInt(firstWide, precision.bucketCount());
            }
            for (int i = 0; i < n; i++) {
                int b = picks[rnd.nextInt(picks.length)];
                long lo = precision.lowerBound(b);
                long hi = precision.upperBound(b);
                values[i] = rnd.nextInt(4) == 0 ? hi - rnd.nextInt(2) : lo + (long) (rnd.nextDouble() * (hi - lo));
            }
            long[] sorted = sorted(values);
            HistogramValue hv = recordAll(values, precision);
            String what = "bits " + bits + ", values " + Arrays.toString(sorted);
            assertEquals(sorted[n - 1], hv.max(), what);
            assertEquals(sorted[0], hv.min(), what);
            assertEquals(sorted[n - 1], hv.valueAtPercentile(100), what + ": p100 == max");
            assertEquals(sorted[0], hv.valueAtPercentile(Double.MIN_VALUE), what + ": first rank == min");
            assertReportedWithinMinMax(what, hv);
            assertNoViolations(what, violations(sorted, PERCENTILES, hv::valueAtPercentile, precision.maxRelativeError()));
        }
    }

    /**
     * valueAtPercentile is exactly the documented estimator: rank ceil(p/100 * count) in its
     * bucket; the last rank reports max, the first min; any other rank the bucket's middle
     * ({@link HistogramPrecision#middle}, rounded down), moved to min or max when they lie in that
     * bucket and the middle is beyond them.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dataSets")
    void percentilesFollowTheDocumentedEstimator(String dataSet) {
        for (HistogramPrecision precision : List.of(HistogramPrecision.DEFAULT, HistogramPrecision.ofSubBucketBits(4))) {
            HistogramValue hv = recordAll(data(dataSet), precision);
            for (double p : PERCENTILES) {
                assertEquals(documentedEstimate(hv, p), hv.valueAtPercentile(p),
                        dataSet + " bits " + precision.subBucketBits() + " p" + p);
            }
        }
    }

    /** The documented estimator, from buckets(), min() and max() only. */
    static long documentedEstimate(HistogramValue hv, double p) {
        long rank = exactRank(p, hv.count());
        if (rank == hv.count()) {
            return hv.max();
        }
        if (rank == 1) {
            return hv.min();
        }
        long seen = 0;
        for (HistogramValue.Bucket b : hv.buckets()) {
            seen += b.count();
            if (seen >= rank) {
                HistogramPrecision precision = hv.precision();
                long middle = precision.middle(precision.bucketIndex(b.lowerBound()));
                if (hv.min() >= b.lowerBound() && hv.min() <= b.upperBound() && middle < hv.min()) {
                    return hv.min();
                }
                if (hv.max() >= b.lowerBound() && hv.max() <= b.upperBound() && middle > hv.max()) {
                    return hv.max();
                }
                return middle;
            }
        }
        throw new AssertionError("rank " + rank + " beyond count " + hv.count());
    }

    // ------------------------------------------------------------------------------------------
    // The checker can fail

    /** The bucket's lower bound instead of its middle: wrong by up to 1/64 in wide buckets. */
    @Test
    void checkerCatchesLowerBoundEstimator() {
        long[] sorted = sorted(data("uniform"));
        HistogramValue hv = recordAll(data("uniform"), HistogramPrecision.DEFAULT);
        DoubleToLongFunction lowerBound = p -> {
            long rank = exactRank(p, hv.count());
            long seen = 0;
            for (HistogramValue.Bucket b : hv.buckets()) {
                seen += b.count();
                if (seen >= rank) {
                    return b.lowerBound();
                }
            }
            throw new AssertionError("rank " + rank + " beyond count " + hv.count());
        };
        // control: the same walk reporting the middle (clamped to min/max) is within bounds
        assertTrue(violations(sorted, PERCENTILES, hv::valueAtPercentile, hv.precision().maxRelativeError()).isEmpty());
        assertFalse(violations(sorted, PERCENTILES, lowerBound, hv.precision().maxRelativeError()).isEmpty(),
                "the checker must report the lower-bound estimator");
        assertFalse(violations(sorted, PERCENTILES, lowerBound, 0.01).isEmpty(),
                "the checker must report the lower-bound estimator at 1 %");
    }

    /** An off-by-one rank (floor instead of ceil, minus one) and a non-zero estimate of 0 are caught. */
    @Test
    void checkerCatchesOffByOneRankAndNonZeroForZero() {
        long[] sorted = sorted(data("uniform"));
        DoubleToLongFunction offByOne = p -> sorted[(int) Math.max(0, exactRank(p, sorted.length) - 2)];
        assertTrue(violations(sorted, PERCENTILES, p -> exact(sorted, p), 0.0).isEmpty(), "control: exact");
        assertFalse(violations(sorted, PERCENTILES, offByOne, 0.01).isEmpty(),
                "the checker must report the off-by-one rank");

        long[] zeros = sorted(data("zeros"));
        assertFalse(violations(zeros, PERCENTILES, p -> 1, 0.01).isEmpty(), "1 for exact 0 must be reported");
        assertTrue(violations(zeros, PERCENTILES, p -> 0, 0.0).isEmpty(), "control: 0 for exact 0");
    }

    @Test
    void exactRankIsTheCeiling() {
        assertEquals(1, exactRank(0.001, 100), "clamped up to 1");
        assertEquals(2, exactRank(0.001, 200_000), "0.001 % of 200000 = 2 exactly (no floating point rounding up)");
        assertEquals(20_000, exactRank(10, 200_000));
        assertEquals(20_001, exactRank(10.0005, 200_000));
        assertEquals(199_999, exactRank(99.9995, 200_000));
        assertEquals(200_000, exactRank(100, 200_000));
        assertEquals(1, exactRank(50, 1));
        assertEquals(3, exactRank(50, 5));
    }

    // ------------------------------------------------------------------------------------------
    // Argument checks and the empty histogram

    @ParameterizedTest(name = "p = {0}")
    @ValueSource(doubles = {0, -0.0, -1, 100.0001, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e9})
    void badPercentileThrows(double p) {
        HistogramValue full = recordAll(data("small"), 0, 1000, HistogramPrecision.DEFAULT);
        HistogramValue empty = recordAll(new long[0], HistogramPrecision.DEFAULT);
        assertThrows(IllegalArgumentException.class, () -> full.valueAtPercentile(p));
        assertThrows(IllegalArgumentException.class, () -> empty.valueAtPercentile(p));
    }

    @Test
    void negativeRecordThrowsWithTheValueInTheMessage() {
        StatRegistry reg = StatRegistry.create();
        Histogram h = reg.histogram(NAME);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.record(-42));
        assertTrue(e.getMessage().contains("-42"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> h.record(Long.MIN_VALUE));
        h.record(7);
        HistogramValue hv = reg.collect().histogram(NAME);
        assertEquals(1, hv.count(), "the rejected values are not counted");
        assertEquals(7, hv.sum());
    }

    @Test
    void emptyHistogram() {
        StatRegistry reg = StatRegistry.create();
        Histogram h = reg.histogram(NAME);
        assertEmpty(reg.collect().histogram(NAME), HistogramPrecision.DEFAULT);
        // an interval after one with records is empty again
        h.record(1234);
        h.record(0);
        HistogramValue first = reg.collect().histogram(NAME);
        assertEquals(2, first.count());
        assertEquals(1234, first.sum());
        assertEquals(0, first.min());
        assertEquals(1234, first.max());
        assertEmpty(reg.collect().histogram(NAME), HistogramPrecision.DEFAULT);
        assertEmpty(HistogramValue.empty(NAME, "", HistogramPrecision.ofSubBucketBits(4)), HistogramPrecision.ofSubBucketBits(4));
    }

    private static void assertEmpty(HistogramValue hv, HistogramPrecision precision) {
        assertEquals(precision, hv.precision());
        assertEquals(0, hv.count());
        assertEquals(0, hv.sum());
        assertEquals(0, hv.min());
        assertEquals(0, hv.max());
        assertTrue(hv.isEmpty());
        assertTrue(Double.isNaN(hv.mean()), "mean of empty is NaN, was " + hv.mean());
        assertEquals(0, hv.valueAtPercentile(50));
        assertEquals(0, hv.valueAtPercentile(100));
        assertEquals(0, hv.valueAtPercentile(0.001));
        assertTrue(hv.buckets().isEmpty());
    }

    // ------------------------------------------------------------------------------------------
    // Merge

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lognormal", "bimodal", "small", "nearMax"})
    void mergeOfFiveIntervalsEqualsOneInterval(String dataSet) {
        long[] values = data(dataSet);
        StatRegistry split = StatRegistry.create();
        Histogram h = split.histogram(NAME);
        List<HistogramValue> intervals = new ArrayList<>();
        int fifth = values.length / 5;
        for (int part = 0; part < 5; part++) {
            int to = part == 4 ? values.length : (part + 1) * fifth;
            for (int i = part * fifth; i < to; i++) {
                h.record(values[i]);
            }
            HistogramValue iv = split.collect().histogram(NAME);
            assertEquals(to - part * fifth, iv.count(), "interval " + part + " count");
            intervals.add(iv);
        }
        HistogramValue merged = HistogramValue.mergeAll(NAME, "", intervals);
        HistogramValue whole = recordAll(values, HistogramPrecision.DEFAULT);

        assertSameDistribution(dataSet, whole, merged);
        assertEquals(whole, merged, "merged equals the single interval");
        assertEquals(whole.hashCode(), merged.hashCode());
        assertNoViolations(dataSet + " merged", violations(sorted(values), PERCENTILES, merged::valueAtPercentile,
                merged.precision().maxRelativeError()));

        // pairwise merge, in another order, gives the same
        HistogramValue acc = intervals.get(4);
        for (int i = 3; i >= 0; i--) {
            acc = acc.merge(intervals.get(i));
        }
        assertSameDistribution(dataSet + " pairwise", whole, acc);
    }

    @Test
    void mergeWithEmptyIsIdentityOnCounts() {
        long[] values = data("exponential");
        HistogramValue hv = recordAll(values, HistogramPrecision.DEFAULT);
        HistogramValue emptyCollected = recordAll(new long[0], HistogramPrecision.DEFAULT);
        HistogramValue empty = HistogramValue.empty(NAME, "", HistogramPrecision.DEFAULT);

        assertSameDistribution("v + empty", hv, hv.merge(empty));
        assertSameDistribution("empty + v", hv, empty.merge(hv));
        assertSameDistribution("v + collected empty", hv, hv.merge(emptyCollected));
        assertSameDistribution("collected empty + v", hv, emptyCollected.merge(hv));
        assertSameDistribution("mergeAll(v)", hv, HistogramValue.mergeAll(NAME, "", List.of(hv)));
        assertSameDistribution("mergeAll(empty, v, empty)", hv,
                HistogramValue.mergeAll(NAME, "", List.of(empty, hv, emptyCollected)));
        assertEmpty(empty.merge(emptyCollected), HistogramPrecision.DEFAULT);
        assertEmpty(HistogramValue.mergeAll(NAME, "", List.of(empty, empty, empty)), HistogramPrecision.DEFAULT);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"uniform", "lognormal", "bimodal", "small", "nearMax"})
    void mergeOfBits6AndBits4IsBits4(String dataSet) {
        long[] values = data(dataSet);
        int half = values.length / 2;
        HistogramPrecision four = HistogramPrecision.ofSubBucketBits(4);
        HistogramValue fine = recordAll(values, 0, half, HistogramPrecision.DEFAULT);
        HistogramValue coarse = recordAll(values, half, values.length, four);
        HistogramValue allAtFour = recordAll(values, four);

        HistogramValue merged = fine.merge(coarse);
        assertEquals(four, merged.precision(), "the coarser precision");
        assertSameDistribution(dataSet + " 6+4", allAtFour, merged);
        HistogramValue reversed = coarse.merge(fine);
        assertEquals(four, reversed.precision());
        assertSameDistribution(dataSet + " 4+6", allAtFour, reversed);
        // also a bits-6 value alone converted by merging with an empty bits-4 value
        HistogramValue firstHalfAtFour = recordAll(values, 0, half, four);
        HistogramValue converted = fine.merge(HistogramValue.empty(NAME, "", four));
        assertEquals(four, converted.precision());
        assertSameDistribution(dataSet + " 6 -> 4", firstHalfAtFour, converted);

        assertNoViolations(dataSet + " merged at bits 4", violations(sorted(values), PERCENTILES,
                merged::valueAtPercentile, four.maxRelativeError()));
    }

    @Test
    void mergeAllOfNothingThrows() {
        assertThrows(IllegalArgumentException.class, () -> HistogramValue.mergeAll(NAME, "", List.of()));
    }

    /** count, sum, min, max, precision and every bucket equal; so are the percentiles. */
    private static void assertSameDistribution(String what, HistogramValue expected, HistogramValue actual) {
        assertEquals(expected.precision(), actual.precision(), what + " precision");
        assertEquals(expected.count(), actual.count(), what + " count");
        assertEquals(expected.sum(), actual.sum(), what + " sum");
        assertEquals(expected.min(), actual.min(), what + " min");
        assertEquals(expected.max(), actual.max(), what + " max");
        assertEquals(expected.buckets(), actual.buckets(), what + " buckets");
        for (int i = 0; i < expected.precision().bucketCount(); i++) {
            if (expected.bucketCount(i) != actual.bucketCount(i)) {
                fail(what + ": bucketCount(" + i + ") expected " + expected.bucketCount(i) + ", was " + actual.bucketCount(i));
            }
        }
        for (double p : PERCENTILES) {
            assertEquals(expected.valueAtPercentile(p), actual.valueAtPercentile(p), what + " p" + p);
        }
    }
}
