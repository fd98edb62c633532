package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The collector's bucket counts: the held range starts at the first bucket counted (no zeros
 * below it are kept), grows at either end keeping every count in place, and adds up.
 */
class BucketCountsTest {

    @Test
    void anEmptyRangeHoldsNothingAndReadsZero() {
        BucketCounts b = new BucketCounts();
        assertTrue(b.isEmpty());
        assertEquals(b.lo(), b.hi());
        assertEquals(0, b.get(7));
        assertArrayEquals(new long[0], b.copy());
    }

    @Test
    void theFirstCountSetsTheRangeAndCountsAddUp() {
        BucketCounts b = new BucketCounts();
        b.add(100, 3);
        assertFalse(b.isEmpty());
        assertEquals(100, b.lo());
        assertEquals(101, b.hi());
        b.add(100, 4);
        assertEquals(7, b.get(100));
        assertArrayEquals(new long[] {7}, b.copy());
        assertEquals(0, b.get(99));
        assertEquals(0, b.get(101));
    }

    @Test
    void theRangeGrowsAtBothEndsKeepingTheCounts() {
        BucketCounts b = new BucketCounts();
        b.add(10, 1);
        b.add(13, 2); // above
        assertEquals(10, b.lo());
        assertEquals(14, b.hi());
        b.add(8, 5); // below
        assertEquals(8, b.lo());
        assertArrayEquals(new long[] {5, 0, 1, 0, 0, 2}, b.copy());
        b.add(11, 1); // inside: no change of range
        b.set(13, 9);
        assertArrayEquals(new long[] {5, 0, 1, 1, 0, 9}, b.copy());
        b.ensure(9, 12);
        assertEquals(8, b.lo());
        assertEquals(14, b.hi());
        b.clear();
        assertArrayEquals(new long[6], b.copy());
        assertFalse(b.isEmpty(), "clear() keeps the range");
    }
}
