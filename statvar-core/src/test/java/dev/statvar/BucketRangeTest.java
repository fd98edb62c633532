package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The dense bucket counts equal {@link HistogramValue#buckets()}, also for a value whose min/max do not cover its buckets. */
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
    }
}
