package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntToLongFunction;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The bucket math of {@link HistogramPrecision} for every supported {@code subBucketBits}: the
 * buckets tile {@code 0 .. Long.MAX_VALUE}, {@code bucketIndex} finds the bucket holding a value,
 * the reported middle is within {@code maxRelativeError()} of every value of its bucket, and
 * the argument checks.
 */
class HistogramPrecisionTest {

    static IntStream allBits() {
        return IntStream.rangeClosed(HistogramPrecision.MIN_BITS, HistogramPrecision.MAX_BITS);
    }

    // ------------------------------------------------------------------------------------------
    // Tiling

    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void bucketsTileZeroToLongMaxValue(int bits) {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
        int n = p.bucketCount();
        assertEquals((64 - bits) << bits, n, "bucketCount");
        assertEquals(1 << bits, p.subBuckets(), "subBuckets");
        assertEquals(bits, p.subBucketBits());

        assertEquals(0, p.lowerBound(0), "lowerBound(0)");
        assertEquals(Long.MAX_VALUE, p.upperBound(n - 1), "upperBound(last)");
        long previousWidth = 1;
        for (int i = 0; i < n; i++) {
            long lo = p.lowerBound(i);
            long hi = p.upperBound(i);
            if (lo < 0 || lo > hi) {
                fail("bits " + bits + ", bucket " + i + ": " + lo + ".." + hi);
            }
            long width = hi - lo + 1; // hi - lo < Long.MAX_VALUE: no overflow
            if (width <= 0 || Long.bitCount(width) != 1) {
                fail("bits " + bits + ", bucket " + i + " (" + lo + ".." + hi + "): width " + width
                        + " is not a power of two");
            }
            if (width < previousWidth) {
                fail("bits " + bits + ", bucket " + i + ": width " + width + " < width " + previousWidth
                        + " of the bucket before");
            }
            previousWidth = width;
            if (i < 2 << bits && width != 1) {
                fail("bits " + bits + ", bucket " + i + ": the first 2^(b+1) buckets must be exact, width " + width);
            }
            if (i + 1 < n && p.lowerBound(i + 1) != hi + 1) {
                fail("bits " + bits + ": lowerBound(" + (i + 1) + ") = " + p.lowerBound(i + 1)
                        + ", expected upperBound(" + i + ") + 1 = " + (hi + 1));
            }
            long mid = p.middle(i);
            if (mid < lo || mid > hi) {
                fail("bits " + bits + ", bucket " + i + ": middle " + mid + " outside " + lo + ".." + hi);
            }
            assertEquals(lo + (width - 1) / 2, mid, "middle, rounded down");
        }
    }

    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void boundsOfEveryBucketMapBackToIt(int bits) {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
        for (int i = 0; i < p.bucketCount(); i++) {
            long lo = p.lowerBound(i);
            long hi = p.upperBound(i);
            assertEquals(i, p.bucketIndex(lo), "bucketIndex(lowerBound(" + i + ") = " + lo + ")");
            assertEquals(i, p.bucketIndex(hi), "bucketIndex(upperBound(" + i + ") = " + hi + ")");
            assertEquals(i, p.bucketIndex(p.middle(i)), "bucketIndex(middle(" + i + "))");
        }
    }

    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void indexOutsideTheBucketsThrows(int bits) {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
        int n = p.bucketCount();
        for (int bad : new int[]{-1, n, n + 1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThrows(IndexOutOfBoundsException.class, () -> p.lowerBound(bad), "lowerBound(" + bad + ")");
            assertThrows(IndexOutOfBoundsException.class, () -> p.upperBound(bad), "upperBound(" + bad + ")");
            assertThrows(IndexOutOfBoundsException.class, () -> p.middle(bad), "middle(" + bad + ")");
        }
    }

    // ------------------------------------------------------------------------------------------
    // bucketIndex

    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void bucketIndexHoldsTheValue(int bits) {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
        // exhaustive small values, with monotonicity
        int previous = -1;
        for (long v = 0; v <= 5000; v++) {
            int i = checkContains(p, v);
            if (i < previous || i > previous + 1) {
                fail("bits " + bits + ": bucketIndex(" + v + ") = " + i + " after bucketIndex(" + (v - 1) + ") = " + previous);
            }
            previous = i;
        }
        // every power of two and its neighbours
        for (int k = 0; k <= 62; k++) {
            long pow = 1L << k;
            checkContains(p, pow - 1);
            checkContains(p, pow);
            checkContains(p, pow + 1);
            assertTrue(p.bucketIndex(pow - 1) <= p.bucketIndex(pow) && p.bucketIndex(pow) <= p.bucketIndex(pow + 1),
                    "monotonic around 2^" + k);
        }
        // the top of the range
        checkContains(p, Long.MAX_VALUE);
        checkContains(p, Long.MAX_VALUE - 1);
        assertEquals(p.bucketCount() - 1, p.bucketIndex(Long.MAX_VALUE), "bucketIndex(Long.MAX_VALUE)");
        // random values of every magnitude
        SplittableRandom rnd = new SplittableRandom(0x5eed_0000L + bits);
        for (int r = 0; r < 50_000; r++) {
            long v = rnd.nextLong() >>> rnd.nextInt(1, 64); // 0 .. 2^63-1, magnitude uniform over the octaves
            int i = checkContains(p, v);
            if (v < Long.MAX_VALUE) {
                assertTrue(p.bucketIndex(v + 1) >= i, "monotonic at " + v);
            }
        }
    }

    /** Asserts bucketIndex(v) is a bucket whose bounds contain v; returns it. */
    private static int checkContains(HistogramPrecision p, long v) {
        int i = p.bucketIndex(v);
        if (i < 0 || i >= p.bucketCount()) {
            fail("bits " + p.subBucketBits() + ": bucketIndex(" + v + ") = " + i + " outside 0.." + (p.bucketCount() - 1));
        }
        long lo = p.lowerBound(i);
        long hi = p.upperBound(i);
        if (v < lo || v > hi) {
            fail("bits " + p.subBucketBits() + ": bucketIndex(" + v + ") = " + i + " whose bounds are " + lo + ".." + hi);
        }
        return i;
    }

    // ------------------------------------------------------------------------------------------
    // Relative error of the middle

    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void middleIsWithinMaxRelativeErrorOfTheWholeBucket(int bits) {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
        assertEquals(Math.scalb(1.0, -(bits + 1)), p.maxRelativeError(), "maxRelativeError = 2^-(b+1)");
        List<String> violations = middleViolations(p, p::middle);
        assertTrue(violations.isEmpty(), () -> violations.size() + " violations, first: " + violations.get(0));
    }

    /** Sanity check of the checker: reporting a bucket's lower bound is outside the bound for wide buckets. */
    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void errorCheckerCatchesTheLowerBoundAsEstimate(int bits) {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
        assertFalse(middleViolations(p, p::lowerBound).isEmpty(), "lower bound as estimate must be caught");
        assertFalse(middleViolations(p, p::upperBound).isEmpty(), "upper bound as estimate must be caught");
        // the middle plus one unit is wrong only in exact buckets with value 0 (relative error infinite)
        assertFalse(middleViolations(p, i -> p.middle(i) + 1).isEmpty(), "middle + 1 must be caught at 0");
    }

    /**
     * For every bucket, the estimate versus both ends of the bucket (every value in between lies
     * closer): {@code |estimate - x| <= maxRelativeError * x}, exactly (BigInteger; the error is a
     * power of two), and {@code estimate == 0} for {@code x == 0}.
     */
    private static List<String> middleViolations(HistogramPrecision p, IntToLongFunction estimate) {
        List<String> out = new ArrayList<>();
        int shift = p.subBucketBits() + 1; // maxRelativeError = 2^-shift
        for (int i = 0; i < p.bucketCount(); i++) {
            long e = estimate.applyAsLong(i);
            for (long x : new long[]{p.lowerBound(i), p.upperBound(i)}) {
                BigInteger diff = BigInteger.valueOf(e).subtract(BigInteger.valueOf(x)).abs();
                if (diff.shiftLeft(shift).compareTo(BigInteger.valueOf(x)) > 0) {
                    out.add("bucket " + i + ": estimate " + e + " vs value " + x + ", relative error "
                            + (x == 0 ? "inf" : (double) diff.longValue() / x) + " > " + p.maxRelativeError());
                }
            }
        }
        return out;
    }

    @Test
    void maxRelativeErrorOfTheDocumentedPrecisions() {
        assertEquals(0.0625, HistogramPrecision.ofSubBucketBits(3).maxRelativeError());
        assertEquals(0.03125, HistogramPrecision.ofSubBucketBits(4).maxRelativeError());
        assertEquals(0.0078125, HistogramPrecision.DEFAULT.maxRelativeError());
        assertEquals(6, HistogramPrecision.DEFAULT.subBucketBits());
        assertEquals(Math.scalb(1.0, -11), HistogramPrecision.ofSubBucketBits(10).maxRelativeError());
    }

    /**
     * The javadoc's memory table: 1 µs .. 10 s in ns spans 25 octaves at every documented
     * precision, each octave {@code 2^b} buckets of 8 bytes (the KiB column, as printed, rounded
     * to two significant digits).
     */
    @Test
    void theMemoryTableIsTwentyFiveOctavesOfBuckets() {
        int[] bits = {3, 4, 5, 6, 7, 8, 10};
        double[] kib = {1.6, 3.1, 6.3, 12.5, 25, 50, 200};
        for (int i = 0; i < bits.length; i++) {
            HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits[i]);
            int b = p.subBucketBits();
            int octaves = (p.bucketIndex(10_000_000_000L) >> b) - (p.bucketIndex(1_000) >> b) + 1;
            assertEquals(25, octaves, "octaves at " + b + " bits");
            double bytes = octaves * p.subBuckets() * (double) Long.BYTES;
            System.out.printf("precision %d: %,.0f bytes (%.2f KiB) for 1 us .. 10 s%n", b, bytes, bytes / 1024);
            assertEquals(kib[i], bytes / 1024, kib[i] * 0.05, "KiB at " + b + " bits");
        }
    }

    // ------------------------------------------------------------------------------------------
    // Argument checks

    @ParameterizedTest(name = "value {0}")
    @ValueSource(longs = {-1, -2, -12345, -(1L << 40), Long.MIN_VALUE, Long.MIN_VALUE + 1})
    void negativeValueThrowsWithTheValueInTheMessage(long v) {
        for (int bits = HistogramPrecision.MIN_BITS; bits <= HistogramPrecision.MAX_BITS; bits++) {
            HistogramPrecision p = HistogramPrecision.ofSubBucketBits(bits);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.bucketIndex(v));
            assertTrue(e.getMessage() != null && e.getMessage().contains(Long.toString(v)),
                    "message should name " + v + ": " + e.getMessage());
        }
    }

    @ParameterizedTest(name = "bits {0}")
    @ValueSource(ints = {0, 11, -1, 12, 64, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void outOfRangeBitsThrow(int bits) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HistogramPrecision.ofSubBucketBits(bits));
        assertTrue(e.getMessage().contains(Integer.toString(bits)), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new HistogramPrecision(bits));
    }

    @ParameterizedTest(name = "bits {0}")
    @MethodSource("allBits")
    void validBitsAndEquality(int bits) {
        HistogramPrecision a = HistogramPrecision.ofSubBucketBits(bits);
        HistogramPrecision b = new HistogramPrecision(bits);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        if (bits > 1) {
            assertNotEquals(a, HistogramPrecision.ofSubBucketBits(bits - 1));
        }
        // the precision asked for by its own error is itself
        assertEquals(a, HistogramPrecision.ofMaxRelativeError(a.maxRelativeError()));
    }

    @Test
    void ofMaxRelativeErrorPicksTheCoarsestPrecisionWithinTheError() {
        assertEquals(6, HistogramPrecision.ofMaxRelativeError(0.01).subBucketBits(), "1 %");
        assertEquals(6, HistogramPrecision.ofMaxRelativeError(0.0078125).subBucketBits(), "0.78125 % exactly");
        assertEquals(7, HistogramPrecision.ofMaxRelativeError(Math.nextDown(0.0078125)).subBucketBits(), "just under 2^-7");
        assertEquals(5, HistogramPrecision.ofMaxRelativeError(0.02).subBucketBits(), "2 %");
        assertEquals(4, HistogramPrecision.ofMaxRelativeError(0.05).subBucketBits(), "5 %");
        assertEquals(1, HistogramPrecision.ofMaxRelativeError(0.25).subBucketBits(), "25 %");
        assertEquals(1, HistogramPrecision.ofMaxRelativeError(0.5).subBucketBits(), "50 %");
        assertEquals(1, HistogramPrecision.ofMaxRelativeError(Math.nextDown(1.0)).subBucketBits(), "just under 100 %");
        assertEquals(2, HistogramPrecision.ofMaxRelativeError(Math.nextDown(0.25)).subBucketBits(), "just under 25 %");
        assertEquals(10, HistogramPrecision.ofMaxRelativeError(Math.scalb(1.0, -11)).subBucketBits(), "2^-11");
        assertEquals(10, HistogramPrecision.ofMaxRelativeError(0.0005).subBucketBits(), "0.05 %");
        // coarsest: for errors across the range, the result is within the error and one bit fewer is not
        SplittableRandom rnd = new SplittableRandom(42);
        for (int r = 0; r < 10_000; r++) {
            double err = Math.scalb(1.0, -11) * Math.pow(2, rnd.nextDouble() * 11);
            if (err >= 1.0) {
                continue;
            }
            HistogramPrecision p = HistogramPrecision.ofMaxRelativeError(err);
            assertTrue(p.maxRelativeError() <= err, () -> err + " -> " + p);
            if (p.subBucketBits() > HistogramPrecision.MIN_BITS) {
                HistogramPrecision coarser = HistogramPrecision.ofSubBucketBits(p.subBucketBits() - 1);
                assertTrue(coarser.maxRelativeError() > err, () -> err + " -> " + p + ", but " + coarser + " suffices");
            }
        }
    }

    @ParameterizedTest(name = "error {0}")
    @ValueSource(doubles = {Double.NaN, 0.0, -0.0, 1.0, -0.01, -1.0, 1.5, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 0.0004, 0.00048828124})
    void ofMaxRelativeErrorRejectsOutOfRange(double err) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HistogramPrecision.ofMaxRelativeError(err));
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
    }

    @Test
    void ofMaxRelativeErrorJustBelowTheFinestThrows() {
        assertThrows(IllegalArgumentException.class,
                () -> HistogramPrecision.ofMaxRelativeError(Math.nextDown(Math.scalb(1.0, -11))));
    }
}
