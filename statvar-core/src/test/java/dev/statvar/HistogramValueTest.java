package dev.statvar;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HistogramValue, the value of a histogram in a snapshot and the form exporters and merging code build
 * directly: argument checks and their messages, the normalisation of zero buckets at both ends, totals,
 * mean of an unsigned or count-less sum, the percentile edges at a bucket's bounds, merging of empty,
 * zero-valued and estimated values, toString and hashCode.
 */
class HistogramValueTest {

    private static final HistogramPrecision P = HistogramPrecision.DEFAULT; // 64 sub-buckets, 3712 buckets
    private static final int N = P.bucketCount();

    private static HistogramValue value(long sum, long min, long max, int firstIndex, long... counts) {
        return new HistogramValue("h", "", P, sum, min, max, firstIndex, counts);
    }

    @Test
    void bucketRangeIsCheckedAtBothEndsAndTheMessageNamesIt() {
        assertEquals(3712, N);
        // firstIndex == bucketCount is accepted for no counts (an empty tail), one more is not
        assertEquals(0, value(0, 0, 0, N).count());
        assertThrows(IllegalArgumentException.class, () -> value(0, 0, 0, N + 1));
        assertThrows(IllegalArgumentException.class, () -> value(0, 0, 0, -1));
        // the last bucket alone fits; two buckets from the last one do not
        assertEquals(4, value(0, 0, 0, N - 1, 4).bucketCount(N - 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> value(0, 0, 0, N - 1, 1, 1));
        assertEquals("buckets 3711..3712 outside 0..3711 of HistogramPrecision[subBucketBits=6]", e.getMessage());
        // a full-length array from 0 fits exactly
        long[] all = new long[N];
        all[N - 1] = 1;
        assertEquals(1, value(0, 0, 0, 0, all).bucketCount(N - 1));
    }

    @Test
    void negativeBucketCountIsRejectedNamingTheBucket() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> value(0, 0, 0, 10, 1, -1, 1));
        assertEquals("bucket 11 has a negative count: -1", e.getMessage());
    }

    @Test
    void zeroBucketsAtBothEndsAreDroppedSoEqualValuesAreEqual() {
        HistogramValue padded = value(30, 10, 12, 8, 0, 0, 5, 0, 7, 0, 0);
        HistogramValue tight = value(30, 10, 12, 10, 5, 0, 7);
        assertEquals(tight, padded);
        assertEquals(tight.hashCode(), padded.hashCode());
        assertEquals(12, padded.count());
        assertEquals(0, padded.bucketCount(9));
        assertEquals(5, padded.bucketCount(10));
        assertEquals(7, padded.bucketCount(12));
        assertEquals(0, padded.bucketCount(13));
        assertEquals(2, padded.buckets().size());
        assertNotEquals(tight, value(30, 10, 12, 10, 5, 0, 7, 1), "a bucket more is another value");
    }

    @Test
    void totalsAreTheValueItselfUntilSetAndMustShareThePrecision() {
        HistogramValue v = value(3, 3, 3, 3, 1);
        assertSame(v, v.totals());
        HistogramValue t = value(9, 3, 6, 3, 1, 0, 0, 1);
        HistogramValue withTotals = v.withTotals(t);
        assertSame(t, withTotals.totals());
        assertSame(t, withTotals.withLabels(Labels.of("a", "b")).totals(), "labels keep the totals");
        assertEquals(v, withTotals, "totals are not part of the interval value");
        HistogramValue coarse = new HistogramValue("h", "", HistogramPrecision.ofSubBucketBits(3), 3, 3, 3, 3, new long[]{1});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v.withTotals(coarse));
        assertEquals("totals of HistogramPrecision[subBucketBits=3] for a value of HistogramPrecision[subBucketBits=6]",
                e.getMessage());
    }

    @Test
    void meanOfACountlessValueIsNaNEvenWithASum() {
        // a record racing its switch: its value in this interval's sum, its bucket in the next one
        HistogramValue raced = value(5, 5, 5, 0);
        assertEquals(0, raced.count());
        assertTrue(Double.isNaN(raced.mean()));
        assertFalse(raced.isEmpty());
    }

    @Test
    void meanReadsALargeSumExactlyAsAPositiveLong() {
        // 2^54 + 3 is not a double: (double) rounds it to 2^54 + 4, the nearest one
        long sum = (1L << 54) + 3;
        HistogramValue v = value(sum, sum, sum, P.bucketIndex(sum), 1);
        assertEquals((double) sum, v.mean());
        assertEquals(1.8014398509481988E16, v.mean());
        // and an unsigned sum beyond Long.MAX_VALUE: 2^63 + 2^62 over 3 records
        long unsigned = Long.MIN_VALUE + (1L << 62);
        HistogramValue big = value(unsigned, 1L << 62, 1L << 62, P.bucketIndex(1L << 62), 3);
        assertEquals(((double) (1L << 62) * 3) / 3, big.mean());
    }

    @Test
    void aValueWithOnlyAMinOrOnlyAMaxIsNotEmpty() {
        assertTrue(value(0, 0, 0, 0).isEmpty());
        assertFalse(value(0, 0, 7, 0).isEmpty(), "max of a raced record");
        assertFalse(value(0, 7, 0, 0).isEmpty(), "min of a raced record");
        assertFalse(value(0, 0, 0, 0, 1).isEmpty(), "a record of 0");
        // merging keeps a lone max, exact
        HistogramValue merged = value(0, 0, 7, 0).merge(value(0, 0, 0, 0));
        assertEquals(7, merged.max());
        assertTrue(merged.isMinMaxExact());
    }

    @Test
    void percentilesAtTheEdgesOfAWideBucketAreTheExactMinAndMax() {
        // 256 and 259 share bucket [256, 259] (width 4 at 6 bits); its middle is 257
        int b = P.bucketIndex(256);
        assertEquals(b, P.bucketIndex(259));
        assertEquals(256, P.lowerBound(b));
        assertEquals(259, P.upperBound(b));
        HistogramValue v = value(515, 256, 259, b, 2);
        assertEquals(259, v.valueAtPercentile(100), "the last rank is the max, at the bucket's upper bound");
        assertEquals(256, v.valueAtPercentile(1), "the first rank is the min, at the bucket's lower bound");
        assertEquals(256, v.valueAtPercentile(50));
        // three records: the middle rank reports the bucket's middle
        HistogramValue three = value(772, 256, 259, b, 3);
        assertEquals(257, three.valueAtPercentile(60));
    }

    @Test
    void mergingValuesOfTheZeroBucketKeepsThem() {
        HistogramValue zeros = value(0, 0, 0, 0, 3);
        HistogramValue merged = zeros.merge(HistogramValue.empty("h", "", P));
        assertEquals(3, merged.count());
        assertEquals(3, merged.bucketCount(0));
        assertEquals(0, merged.valueAtPercentile(100));
        HistogramValue all = HistogramValue.mergeAll("h", "", List.of(zeros, zeros));
        assertEquals(6, all.bucketCount(0));
    }

    @Test
    void mergingOnlyEmptyValuesIsTheEmptyValueWhereverTheirBucketsStarted() {
        HistogramValue emptyAt8 = value(0, 0, 0, 8); // empty, its (unused) first index 8
        HistogramValue merged = HistogramValue.mergeAll("h", "", List.of(emptyAt8));
        assertEquals(HistogramValue.empty("h", "", P), merged);
        assertEquals(HistogramValue.empty("h", "", P), HistogramValue.mergeAll("h", "", List.of(emptyAt8, emptyAt8)));
        // an empty value next to a non-empty one does not widen it
        HistogramValue one = value(200, 200, 200, P.bucketIndex(200), 1);
        assertEquals(one, HistogramValue.mergeAll("h", "", List.of(value(0, 0, 0, 3000), one)));
    }

    @Test
    void exactnessOfMergedMinMax() {
        int b = P.bucketIndex(1000);
        HistogramValue exact1 = new HistogramValue("h", "", Labels.EMPTY, P, 1000, 1000, 1000, b, new long[]{1}, true);
        HistogramValue exact2 = new HistogramValue("h", "", Labels.EMPTY, P, 2000, 2000, 2000, P.bucketIndex(2000), new long[]{1}, true);
        // inexact values: min/max that also hold values of the previous interval (covering their records)
        HistogramValue inexact1 = new HistogramValue("h", "", Labels.EMPTY, P, 1000, 900, 1000, b, new long[]{1}, false);
        HistogramValue inexact2 = new HistogramValue("h", "", Labels.EMPTY, P, 5000, 4000, 5000, P.bucketIndex(5000), new long[]{1}, false);
        assertTrue(exact1.merge(exact2).isMinMaxExact(), "exact with exact");
        assertEquals(1000, exact1.merge(exact2).min());
        assertEquals(2000, exact1.merge(exact2).max());
        HistogramValue inexact = inexact1.merge(inexact2);
        assertFalse(inexact.isMinMaxExact(), "inexact with inexact");
        assertEquals(900, inexact.min());
        assertEquals(5000, inexact.max());
        HistogramValue mixed = inexact2.merge(exact1);
        assertFalse(mixed.isMinMaxExact(), "exact only when every part is");
        assertEquals(1000, mixed.min(), "every part's min and max count: they cover its records");
        assertEquals(5000, mixed.max());
        assertTrue(HistogramValue.mergeAll("h", "", List.of(value(0, 0, 0, 0))).isMinMaxExact(), "empty: exact");
    }

    @Test
    void toStringOfEmptyAndNonEmptyValues() {
        assertEquals("h count=0", HistogramValue.empty("h", "", P).toString());
        assertEquals("h{a=\"b\"} count=0", HistogramValue.empty("h", "", P).withLabels(Labels.of("a", "b")).toString());
        // records 100 (bucket 100, exact) and 200 (bucket 164: 200..201)
        int first = P.bucketIndex(100);
        long[] counts = new long[P.bucketIndex(200) - first + 1];
        counts[0] = 1;
        counts[counts.length - 1] = 1;
        HistogramValue v = value(300, 100, 200, first, counts);
        assertEquals("h count=2 sum=300 min=100 mean=" + String.format("%.1f", 150.0)
                + " p50=100 p90=200 p99=200 p99.9=200 max=200", v.toString());
    }

    @Test
    void aCountlessValueWithOnlyASumIsNotEmpty() {
        // a raced record whose value is in this interval's sum and nothing else
        assertFalse(value(5, 0, 0, 0).isEmpty());
        assertTrue(value(0, 0, 0, 0).isEmpty());
    }

    @Test
    void mergingWithAnEmptyValueChangesNoMinMax() {
        HistogramValue v = value(14, 5, 9, P.bucketIndex(5), 1, 0, 0, 0, 1);
        HistogramValue merged = v.merge(HistogramValue.empty("h", "", P));
        assertEquals(5, merged.min(), "an empty value has no min to merge");
        assertEquals(9, merged.max());
        assertTrue(merged.isMinMaxExact());
        assertEquals(5, HistogramValue.empty("h", "", P).merge(v).min());
        // an estimate merged with an empty (exact, but min/max-less) value stays the estimate
        int b = P.bucketIndex(1000);
        HistogramValue est = new HistogramValue("h", "", Labels.EMPTY, P, 1000, P.middle(b), P.middle(b), b, new long[]{1}, false);
        HistogramValue estAndEmpty = est.merge(HistogramValue.empty("h", "", P));
        assertFalse(estAndEmpty.isMinMaxExact());
        assertEquals(P.middle(b), estAndEmpty.min());
        assertEquals(P.middle(b), estAndEmpty.max());
    }

    @Test
    void recordsOfZeroHaveAMinMaxThatMergingKeeps() {
        HistogramValue zeros = value(0, 0, 0, 0, 3); // exact: three records of 0
        int b = P.bucketIndex(500);
        HistogramValue inexact = new HistogramValue("h", "", Labels.EMPTY, P, 500, 400, 500, b, new long[]{1}, false);
        HistogramValue merged = zeros.merge(inexact);
        assertFalse(merged.isMinMaxExact());
        assertEquals(0, merged.min(), "the zeros' min (0) is a min, not 'none'");
        assertEquals(500, merged.max());
        assertEquals(4, merged.count());
        assertTrue(zeros.merge(zeros).isMinMaxExact());
        assertEquals(0, zeros.merge(zeros).max());
    }

    @Test
    void aPercentileStaysInTheBucketOfItsRankWhenMinOrMaxLieElsewhere() {
        // a raced record: the bucket 1000..1007 counted here, min/max from a value of another interval
        int b = P.bucketIndex(1000);
        assertEquals(1000, P.lowerBound(b));
        assertEquals(1007, P.upperBound(b));
        assertEquals(1003, P.middle(b));
        for (long minMax : new long[]{500, 5000}) {
            HistogramValue one = value(1000, minMax, minMax, b, 1);
            assertEquals(1003, one.valueAtPercentile(100), "max " + minMax + " is not in the last rank's bucket");
            assertEquals(1003, one.valueAtPercentile(50), "min " + minMax);
            HistogramValue two = value(2000, minMax, minMax, b, 2);
            assertEquals(1003, two.valueAtPercentile(1), "min " + minMax + " is not in the first rank's bucket");
            assertEquals(1003, two.valueAtPercentile(100));
        }
        // min below and max above the bucket: the middle
        assertEquals(1003, value(3000, 500, 5000, b, 3).valueAtPercentile(50));
    }

    @Test
    void equalsComparesEveryField() {
        int b = P.bucketIndex(300);
        HistogramValue v = new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 300, 300, b, new long[]{2}, true);
        assertEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 300, 300, b, new long[]{2}, true));
        assertNotEquals(v, new HistogramValue("g", "help", Labels.of("k", "v"), P, 600, 300, 300, b, new long[]{2}, true), "name");
        assertNotEquals(v, new HistogramValue("h", "other", Labels.of("k", "v"), P, 600, 300, 300, b, new long[]{2}, true), "help");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "w"), P, 600, 300, 300, b, new long[]{2}, true), "labels");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), HistogramPrecision.ofSubBucketBits(7), 600, 300, 300,
                b, new long[]{2}, true), "precision");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 601, 300, 300, b, new long[]{2}, true), "sum");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 299, 300, b, new long[]{2}, true), "min");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 300, 301, b, new long[]{2}, true), "max");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 300, 300, b, new long[]{2}, false), "exact");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 300, 300, b + 1, new long[]{2}, true), "bucket");
        assertNotEquals(v, new HistogramValue("h", "help", Labels.of("k", "v"), P, 600, 300, 300, b, new long[]{3}, true), "count");
        // same count, same first and last bucket, another distribution
        HistogramValue spread = value(0, 0, 0, 10, 1, 2, 1);
        assertEquals(spread.count(), value(0, 0, 0, 10, 2, 0, 2).count());
        assertNotEquals(spread, value(0, 0, 0, 10, 2, 0, 2), "buckets");
        assertFalse(v.equals(null));
        assertFalse(v.equals("h"));
        assertEquals(v, v);
    }

    @Test
    void hashCodesTellValuesApart() {
        Set<Integer> hashes = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            hashes.add(value(i, 0, 0, 0, 1 + i).hashCode());
        }
        assertEquals(20, hashes.size(), "values differing in count and sum");
    }
}
