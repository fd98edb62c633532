package dev.statvar.internal;

import dev.statvar.HistogramPrecision;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The bucket math's bucket count: the buckets cover exactly 0 .. Long.MAX_VALUE, as the public precision says. */
class LogLinearTest {

    @Test
    void theLastBucketHoldsLongMaxValue() {
        for (int b = HistogramPrecision.MIN_BITS; b <= HistogramPrecision.MAX_BITS; b++) {
            int n = LogLinear.bucketCount(b);
            assertEquals(n - 1, LogLinear.index(Long.MAX_VALUE, b), "b=" + b);
            assertEquals(Long.MAX_VALUE, LogLinear.lowerBound(n - 1, b) + LogLinear.width(n - 1, b) - 1, "b=" + b);
            assertEquals(HistogramPrecision.ofSubBucketBits(b).bucketCount(), n, "b=" + b);
        }
    }
}
