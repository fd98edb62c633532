package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link BucketRange#of}: the dense bucket counts equal {@link HistogramValue#buckets()}; they run from the bucket
 * of min to the bucket of max when min and max cover the count, from the first to the last listed bucket when they
 * do not (a value built by hand), and are empty when nothing was counted.
 */
@Timeout(30)
class BucketRangeTest {
    private static void assertSame(HistogramValue h) {
        BucketRange r = BucketRange.of(h);
        long total = 0;
        for (HistogramValue.Bucket b : h.buckets()) {
            int i = h.precision().bucketIndex(b.lowerBound());
            assertEquals(b.count(), r.counts()[i - r.first()], "bucket " + i);
            total += b.count();
        }
        long dense = 0;
        for (long c : r.counts()) {
            dense += c;
        }
        assertEquals(total, dense);
    }

    @Test
    void recordedValues() {
        StatRegistry reg = StatRegistry.create();
        var h = reg.histogram("h");
        for (long v = 0; v < 10_000_000; v = v * 3 + 1) {
            h.record(v);
        }
        assertSame(reg.collect().histogram("h").totals());
    }

    @Test
    void minAndMaxThatDoNotCoverTheBuckets() {
        HistogramPrecision p = HistogramPrecision.DEFAULT;
        HistogramValue h = new HistogramValue("h", "", p, 0, 0, 0, 500, new long[]{3, 0, 2}); // min = max = 0
        assertSame(h);
        assertEquals(500, BucketRange.of(h).first());
        assertArrayEquals(new long[]{3, 0, 2}, BucketRange.of(h).counts(), "from the first listed bucket to the last");
    }

    private static final HistogramPrecision P = HistogramPrecision.DEFAULT;

    /** A value built by hand: {@code count} values in the bucket of {@code at}, min and max as given. */
    private static HistogramValue byHand(long min, long max, long at, long count) {
        return new HistogramValue("h", "", P, at * count, min, max, P.bucketIndex(at), new long[]{count});
    }

    @Test
    void aValueThatCountedNothingHasNoBuckets() {
        BucketRange r = BucketRange.of(HistogramValue.empty("h", "", P));
        assertEquals(0, r.first());
        assertArrayEquals(new long[0], r.counts());
        StatRegistry reg = StatRegistry.create();
        reg.histogram("h");
        assertArrayEquals(new long[0], BucketRange.of(reg.collect().histogram("h")).counts(), "an interval without records");
    }

    @Test
    void recordedValuesRunFromTheBucketOfMinToTheBucketOfMax() {
        StatRegistry reg = StatRegistry.create();
        var h = reg.histogram("h");
        for (long v : new long[]{1_000, 1_500, 1_500, 5_000}) {
            h.record(v);
        }
        BucketRange r = BucketRange.of(reg.collect().histogram("h"));
        long[] expected = new long[P.bucketIndex(5_000) - P.bucketIndex(1_000) + 1];
        expected[0] = 1;
        expected[P.bucketIndex(1_500) - P.bucketIndex(1_000)] = 2;
        expected[expected.length - 1] = 1;
        assertEquals(P.bucketIndex(1_000), r.first());
        assertArrayEquals(expected, r.counts(), "every bucket from min's to max's, the empty ones 0");
    }

    @Test
    void minAndMaxThatCoverTheCountFixTheRangeEvenBeyondThePopulatedBuckets() {
        BucketRange r = BucketRange.of(byHand(0, 1_000, 500, 3)); // min 0 lies below the only populated bucket
        long[] expected = new long[P.bucketIndex(1_000) + 1];
        expected[P.bucketIndex(500)] = 3;
        assertEquals(0, r.first(), "from the bucket of min");
        assertArrayEquals(expected, r.counts(), "to the bucket of max");
    }

    @Test
    void aNegativeMinOrAMaxBelowMinIsNoRangeAndTheListedBucketsAreTaken() {
        for (HistogramValue h : new HistogramValue[]{byHand(-1, 1_000, 500, 3), byHand(1_000, 0, 500, 3)}) {
            BucketRange r = BucketRange.of(h);
            assertEquals(P.bucketIndex(500), r.first(), "min " + h.min() + ", max " + h.max());
            assertArrayEquals(new long[]{3}, r.counts(), "min " + h.min() + ", max " + h.max());
        }
    }
}
