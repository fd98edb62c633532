package dev.statvar;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ExponentialBuckets} on its own definitions: bucket {@code i} of schema {@code s} holds
 * {@code (2^((i-1) 2^-s), 2^(i 2^-s)]}; a statvar bucket goes whole to the bucket of its middle; the
 * limit lowers the schema; the quantile bound. statvar-prometheus' {@code NativeIndexTest} checks the
 * indices against client_java's own histogram, {@code NativeErrorBoundTest} the bound end to end.
 */
@Timeout(60)
class ExponentialBucketsTest {

    /**
     * Each test starts without the statvar-to-native tables, which are made on first use and then kept for
     * the JVM: it checks the tables made by the code under test, whichever test ran first. (Under PIT a kept
     * table would hide every change to the code that makes it: a mutant is swapped into the same JVM.)
     */
    @BeforeEach
    void forgetTheTablesMadeOnFirstUse() throws ReflectiveOperationException {
        java.lang.reflect.Field tables = ExponentialBuckets.class.getDeclaredField("TABLES");
        tables.setAccessible(true);
        ((Map<?, ?>) tables.get(null)).clear();
    }

    @Test
    void everyValueLiesInsideItsBucket() {
        Random rnd = new Random(35);
        for (int s = ExponentialBuckets.MIN_SCHEMA; s <= ExponentialBuckets.MAX_SCHEMA; s++) {
            for (int k = 0; k < 2_000; k++) {
                double x = Math.pow(10, -9 + 19 * rnd.nextDouble());
                int i = ExponentialBuckets.index(x, s);
                assertTrue(x <= ExponentialBuckets.upperBound(i, s) * (1 + 1e-12), x + " at schema " + s + " above bucket " + i);
                assertTrue(x > ExponentialBuckets.upperBound(i - 1, s) * (1 - 1e-12), x + " at schema " + s + " below bucket " + i);
            }
            assertEquals(0, ExponentialBuckets.index(1.0, s), "1 is the upper bound of bucket 0 at schema " + s);
            assertEquals(1 << Math.max(0, s), ExponentialBuckets.index(2.0, s), "2 ends bucket 2^s at schema " + s);
        }
    }

    @Test
    void aPowerOfTwoEndsItsBucketAndTheNextValueUpStartsTheNext() {
        for (int s = ExponentialBuckets.MIN_SCHEMA; s <= ExponentialBuckets.MAX_SCHEMA; s++) {
            for (int e = -40; e <= 40; e++) {
                double x = Math.scalb(1.0, e);
                // 2^e = 2^(i 2^-s) for i = e 2^s; at a negative schema it is a bound only when 2^-s divides e
                int i = s >= 0 ? e << s : -Math.floorDiv(-e, 1 << -s);
                boolean bound = s >= 0 || e % (1 << -s) == 0;
                String what = "2^" + e + " at schema " + s;
                assertEquals(i, ExponentialBuckets.index(x, s), what);
                assertEquals(i, ExponentialBuckets.index(Math.nextDown(x), s), "just below " + what);
                assertEquals(bound ? i + 1 : i, ExponentialBuckets.index(Math.nextUp(x), s), "just above " + what);
            }
        }
    }

    @Test
    void aMergedBucketHoldsTheTwoItMerges() {
        for (int s = ExponentialBuckets.MIN_SCHEMA + 1; s <= ExponentialBuckets.MAX_SCHEMA; s++) {
            for (int i = -300; i <= 300; i++) {
                int j = ExponentialBuckets.mergedIndex(i);
                String what = "bucket " + i + " of schema " + s + " in bucket " + j + " of " + (s - 1);
                assertTrue(ExponentialBuckets.upperBound(i - 1, s) >= ExponentialBuckets.upperBound(j - 1, s - 1) * (1 - 1e-12), what);
                assertTrue(ExponentialBuckets.upperBound(i, s) <= ExponentialBuckets.upperBound(j, s - 1) * (1 + 1e-12), what);
            }
        }
    }

    @Test
    void mergingIsCeilingOfHalf() {
        assertEquals(1, ExponentialBuckets.mergedIndex(1));
        assertEquals(1, ExponentialBuckets.mergedIndex(2));
        assertEquals(2, ExponentialBuckets.mergedIndex(3));
        assertEquals(0, ExponentialBuckets.mergedIndex(0));
        assertEquals(0, ExponentialBuckets.mergedIndex(-1));
        assertEquals(-1, ExponentialBuckets.mergedIndex(-2));
    }

    @Test
    void schemaAndBoundFollowThePrecision() {
        assertEquals(5, ExponentialBuckets.schemaFor(HistogramPrecision.DEFAULT));
        assertEquals(0, ExponentialBuckets.schemaFor(HistogramPrecision.ofSubBucketBits(1)));
        assertEquals(8, ExponentialBuckets.schemaFor(HistogramPrecision.ofSubBucketBits(10)));
        double bound = ExponentialBuckets.relativeErrorBound(HistogramPrecision.DEFAULT, 5);
        assertEquals((1 + 1.0 / 128) * Math.pow(2, 1.0 / 32) - 1, bound, 1e-15);
        assertEquals(0.0299, bound, 0.0001, "2.99 % at the defaults");
    }

    @Test
    void aHistogramConvertsWholeAndItsQuantilesStayWithinTheBound() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h", "");
        Random rnd = new Random(7);
        long[] values = new long[10_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 100 == 0 ? 0 : (long) Math.pow(10, 9 * rnd.nextDouble());
            h.record(values[i]);
        }
        Arrays.sort(values);
        HistogramValue v = r.collect().histogram("h");
        int schema = ExponentialBuckets.schemaFor(v.precision());
        ExponentialBuckets b = ExponentialBuckets.of(v, 0, schema, Integer.MAX_VALUE);
        assertEquals(schema, b.schema());
        assertEquals(100, b.zeroCount());
        assertEquals(b.indices().length, b.size());
        assertEquals(values.length, b.zeroCount() + Arrays.stream(b.counts()).sum(), "every value in one bucket");
        int[] idx = b.indices();
        for (int k = 1; k < idx.length; k++) {
            assertTrue(idx[k] > idx[k - 1], "indices increasing");
        }
        long[] dense = b.denseCounts();
        assertEquals(idx[idx.length - 1] - idx[0] + 1, dense.length);
        assertEquals(idx[0], b.firstIndex());
        assertEquals(Arrays.stream(b.counts()).sum(), Arrays.stream(dense).sum());
        double bound = ExponentialBuckets.relativeErrorBound(v.precision(), schema);
        for (double q : new double[]{0.05, 0.25, 0.5, 0.9, 0.99, 1.0}) {
            long rank = (long) Math.ceil(q * values.length);
            long exact = values[(int) rank - 1];
            long seen = b.zeroCount();
            int k = 0;
            while (seen + b.counts()[k] < rank) {
                seen += b.counts()[k++];
            }
            double hi = ExponentialBuckets.upperBound(idx[k], b.schema());
            double lo = ExponentialBuckets.upperBound(idx[k] - 1, b.schema());
            assertTrue(hi / exact - 1 <= bound + 1e-12 && 1 - lo / exact <= bound + 1e-12,
                    "q" + q + ": exact " + exact + ", bucket (" + lo + ", " + hi + "], bound " + bound);
        }
    }

    @Test
    void theLimitLowersTheSchemaAndDecimalsShiftTheIndices() {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h", "");
        for (long x = 1; x < 1_000_000_000L; x = x * 11 / 10 + 1) {
            h.record(x);
        }
        HistogramValue v = r.collect().histogram("h");
        ExponentialBuckets full = ExponentialBuckets.of(v, 0, 5, Integer.MAX_VALUE);
        ExponentialBuckets limited = ExponentialBuckets.of(v, 0, 5, 20);
        assertTrue(full.size() > 20, "many buckets at schema 5: " + full.size());
        assertTrue(limited.size() <= 20 && limited.schema() < 5, limited.size() + " at schema " + limited.schema());
        assertEquals(Arrays.stream(full.counts()).sum(), Arrays.stream(limited.counts()).sum());
        ExponentialBuckets one = ExponentialBuckets.of(v, 0, 5, 1);
        assertEquals(ExponentialBuckets.MIN_SCHEMA, one.schema(), "lowered to the bottom, even if still over the limit");
        ExponentialBuckets seconds = ExponentialBuckets.of(v, 9, 0, Integer.MAX_VALUE);
        assertTrue(seconds.indices()[0] < 0, "nanoseconds shown in seconds: values below 1 s, negative indices");
        ExponentialBuckets empty = ExponentialBuckets.of(emptyValue(), 0, 5, 10);
        assertEquals(0, empty.size());
        assertEquals(1, empty.firstIndex());
        assertArrayEquals(new long[0], empty.denseCounts());
    }

    private static HistogramValue emptyValue() {
        StatRegistry r = StatRegistry.create();
        r.histogram("e", "");
        return r.collect().histogram("e");
    }

    /** A histogram of {@code precision} holding {@code values}. */
    private static HistogramValue recorded(HistogramPrecision precision, long... values) {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h", "", precision);
        for (long v : values) {
            h.record(v);
        }
        return r.collect().histogram("h");
    }

    /** Zeros, and values spread log-uniformly over 1 .. 10^12 with gaps between them wider than a bucket. */
    private static long[] spread(long seed) {
        Random rnd = new Random(seed);
        long[] values = new long[400];
        for (int i = 0; i < values.length; i++) {
            values[i] = i % 50 == 0 ? 0 : (long) Math.pow(10, 12 * rnd.nextDouble());
        }
        return values;
    }

    /** The rule on its own: each statvar bucket's count goes to the bucket of its middle over 10^decimals. */
    private static Map<Integer, Long> byTheRule(HistogramValue v, int decimals, int schema) {
        Map<Integer, Long> expected = new TreeMap<>();
        HistogramPrecision p = v.precision();
        for (HistogramValue.Bucket b : v.buckets()) {
            if (b.lowerBound() > 0) {
                double middle = p.middle(p.bucketIndex(b.lowerBound())) / Math.pow(10, decimals);
                expected.merge(ExponentialBuckets.index(middle, schema), b.count(), Long::sum);
            }
        }
        return expected;
    }

    private static Map<Integer, Long> asMap(ExponentialBuckets b) {
        Map<Integer, Long> got = new TreeMap<>();
        for (int k = 0; k < b.size(); k++) {
            got.put(b.indices()[k], b.counts()[k]);
        }
        return got;
    }

    @Test
    void eachStatvarBucketMovesWholeToTheBucketOfItsMiddleInTheExposedUnit() {
        // every precision, unit and schema below converts the same values: none may be given another's buckets
        for (int bits : new int[]{3, 6, 8}) {
            HistogramValue v = recorded(HistogramPrecision.ofSubBucketBits(bits), spread(bits));
            for (int decimals : new int[]{0, 6, 9}) {
                for (int schema : new int[]{ExponentialBuckets.MIN_SCHEMA, 0, 3, 5, ExponentialBuckets.MAX_SCHEMA}) {
                    String what = bits + " sub-bucket bits, " + decimals + " decimals, schema " + schema;
                    ExponentialBuckets b = ExponentialBuckets.of(v, decimals, schema, Integer.MAX_VALUE);
                    assertEquals(schema, b.schema(), what);
                    assertEquals(8, b.zeroCount(), what);
                    assertEquals(byTheRule(v, decimals, schema), asMap(b), what);
                    assertTrue(Arrays.stream(b.counts()).allMatch(c -> c > 0), what + ": only populated buckets");
                }
            }
        }
    }

    @Test
    void denseCountsRunFromTheFirstPopulatedBucketToTheLast() {
        HistogramValue v = recorded(HistogramPrecision.DEFAULT, 3, 100, 100); // exact at the default precision
        ExponentialBuckets b = ExponentialBuckets.of(v, 0, 0, Integer.MAX_VALUE); // bucket i: (2^(i-1), 2^i]
        assertArrayEquals(new int[]{2, 7}, b.indices());
        assertArrayEquals(new long[]{1, 2}, b.counts());
        assertEquals(2, b.firstIndex());
        assertArrayEquals(new long[]{1, 0, 0, 0, 0, 2}, b.denseCounts(), "buckets 2 .. 7");

        ExponentialBuckets seconds = ExponentialBuckets.of(v, 9, 0, Integer.MAX_VALUE); // 3e-9 and 1e-7
        assertArrayEquals(new int[]{-28, -23}, seconds.indices(), "2^-29 < 3e-9 <= 2^-28, 2^-24 < 1e-7 <= 2^-23");
        assertEquals(-28, seconds.firstIndex());
        assertArrayEquals(new long[]{1, 0, 0, 0, 0, 2}, seconds.denseCounts(), "buckets -28 .. -23");
    }

    @Test
    void theLimitLowersTheSchemaOnlyAsFarAsItMustAndMergesAsIfTheLowerSchemaHadBeenAsked() {
        HistogramValue v = recorded(HistogramPrecision.DEFAULT, spread(5));
        int full = ExponentialBuckets.of(v, 9, 5, Integer.MAX_VALUE).size();
        for (int limit : new int[]{full, full - 1, 60, 20, 5, 1}) {
            ExponentialBuckets limited = ExponentialBuckets.of(v, 9, 5, limit);
            int s = 5;
            while (s > ExponentialBuckets.MIN_SCHEMA && ExponentialBuckets.of(v, 9, s, Integer.MAX_VALUE).size() > limit) {
                s--;
            }
            ExponentialBuckets asked = ExponentialBuckets.of(v, 9, s, Integer.MAX_VALUE);
            assertEquals(s, limited.schema(), "limit " + limit + " (" + full + " buckets at schema 5)");
            assertArrayEquals(asked.indices(), limited.indices(), "limit " + limit);
            assertArrayEquals(asked.counts(), limited.counts(), "limit " + limit);
            assertEquals(8, limited.zeroCount(), "limit " + limit);
        }
        assertEquals(5, ExponentialBuckets.of(v, 9, 5, full).schema(), "a limit met exactly keeps the schema");
        assertEquals(4, ExponentialBuckets.of(v, 9, 5, full - 1).schema(), "one bucket over it lowers it");
    }

    @Test
    void misuseFailsWithItsReason() {
        HistogramValue v = emptyValue();
        assertEquals("the schema must be in -4..8, was 9",
                assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.index(1.0, 9)).getMessage());
        assertEquals("the schema must be in -4..8, was -5",
                assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.upperBound(1, -5)).getMessage());
        assertEquals("x must be positive and finite, was 0.0",
                assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.index(0.0, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.index(Double.POSITIVE_INFINITY, 0));
        assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.index(Double.NaN, 0));
        assertEquals("decimals must be 0, 6 or 9, was 3",
                assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.of(v, 3, 0, 1)).getMessage());
        assertEquals("the bucket limit must be at least 1, was 0",
                assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.of(v, 0, 0, 0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ExponentialBuckets.of(v, 0, 9, 1));
        assertEquals("h (the histogram value) is null",
                assertThrows(NullPointerException.class, () -> ExponentialBuckets.of(null, 0, 0, 1)).getMessage());
    }
}
