package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.Random;

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
