package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link BucketBoundaries}: the requested boundaries, their validation, and the exact bounds at a precision. */
@Timeout(30)
class BucketBoundariesTest {

    @Test
    void boundariesFollowTheHistogramsPrecision() {
        BucketBoundaries o = BucketBoundaries.of(0, 1000, 1010, 5000);
        HistogramPrecision coarse = HistogramPrecision.ofSubBucketBits(2);
        long[] les = o.at(coarse);
        for (long le : les) {
            assertEquals(le, coarse.upperBound(coarse.bucketIndex(le)), "le " + le + " ends a bucket at 2 sub-bucket bits");
        }
        assertEquals(3, les.length, "1000 and 1010 share a coarse bucket: " + Arrays.toString(les));
        assertArrayEquals(new long[]{0, 1007, 1015, 5055}, o.at(HistogramPrecision.DEFAULT),
                "at the default precision 1000 and 1010 do not");
        les[0] = 42;
        assertEquals(0, o.at(coarse)[0], "a new array each time");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.at(null));
        assertTrue(e.getMessage().contains("precision"), e.getMessage());
    }

    @Test
    void misuseFailsWithItsReason() {
        assertEquals("histogram boundaries must be >= 0 and increasing: [-1]",
                assertThrows(IllegalArgumentException.class, () -> BucketBoundaries.of(-1)).getMessage());
        assertEquals("histogram boundaries must be >= 0 and increasing: [5, 5]",
                assertThrows(IllegalArgumentException.class, () -> BucketBoundaries.of(5, 5)).getMessage());
        long[] many = new long[BucketBoundaries.MAX + 1];
        Arrays.setAll(many, i -> i);
        assertEquals("at most 64 histogram boundaries, got 65",
                assertThrows(IllegalArgumentException.class, () -> BucketBoundaries.of(many)).getMessage());
        assertThrows(NullPointerException.class, () -> BucketBoundaries.of((long[]) null));
        assertEquals(BucketBoundaries.MAX, BucketBoundaries.of(Arrays.copyOf(many, BucketBoundaries.MAX)).requested().length);
    }

    @Test
    void theRequestedValuesAreCopiedInAndOut() {
        long[] in = {1, 2, 3};
        BucketBoundaries b = BucketBoundaries.of(in);
        in[0] = 7;
        long[] out = b.requested();
        out[1] = 9;
        assertArrayEquals(new long[]{1, 2, 3}, b.requested());
        assertEquals(BucketBoundaries.of(1, 2, 3), b);
        assertEquals(BucketBoundaries.of(1, 2, 3).hashCode(), b.hashCode());
        assertNotEquals(BucketBoundaries.of(1, 2), b);
        assertEquals("BucketBoundaries[1, 2, 3]", b.toString());
    }

    @Test
    void boundariesEqualOnlyBoundaries() {
        BucketBoundaries b = BucketBoundaries.of(1, 2, 3);
        assertFalse(b.equals(null), "not null");
        assertFalse(b.equals(b.toString()), "not another kind of object");
        assertFalse(b.equals(new long[]{1, 2, 3}), "not the array of its values");
    }

    @Test
    void differentBoundariesHashApart() {
        long[] d = BucketBoundaries.defaults().requested();
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        for (int n = 0; n <= d.length; n++) {
            hashes.add(BucketBoundaries.of(Arrays.copyOf(d, n)).hashCode());
        }
        assertEquals(d.length + 1, hashes.size(), "the defaults' prefixes, empty to whole, each its own hash code");
    }

    @Test
    void oneTwoFiveIncludesBothEnds() {
        assertArrayEquals(new long[]{1, 2, 5, 10, 20, 50, 100}, BucketBoundaries.oneTwoFive(1, 100));
        assertArrayEquals(new long[]{2, 5, 10}, BucketBoundaries.oneTwoFive(2, 10));
        assertArrayEquals(new long[]{10}, BucketBoundaries.oneTwoFive(10, 10));
        assertArrayEquals(new long[]{5}, BucketBoundaries.oneTwoFive(5, 5));
        assertArrayEquals(new long[]{1, 2}, BucketBoundaries.oneTwoFive(1, 4));
        assertArrayEquals(new long[0], BucketBoundaries.oneTwoFive(3, 4));
    }

    @Test
    void oneTwoFiveOverTheWholeRangeIsEveryPowerOfTenTimesOneTwoAndFive() {
        long[] all = BucketBoundaries.oneTwoFive(0, Long.MAX_VALUE);
        assertEquals(3 * 19, all.length, "10^0 .. 10^18");
        long p = 1;
        for (int k = 0; k < all.length; k += 3, p *= 10) {
            assertArrayEquals(new long[]{p, 2 * p, 5 * p}, Arrays.copyOfRange(all, k, k + 3), "at 10^" + k / 3);
        }
    }

    @Test
    void theDefaultsAreOneTwoFiveUpToTenSeconds() {
        long[] d = BucketBoundaries.defaults().requested();
        assertEquals(31, d.length);
        assertArrayEquals(new long[]{1, 2, 5, 10}, Arrays.copyOf(d, 4));
        assertEquals(10_000_000_000L, d[30]);
        assertArrayEquals(new long[]{20, 50, 100, 200}, BucketBoundaries.oneTwoFive(11, 200));
        assertEquals(0, BucketBoundaries.oneTwoFive(6, 9).length);
        long[] all = BucketBoundaries.oneTwoFive(1, Long.MAX_VALUE);
        assertEquals(5_000_000_000_000_000_000L, all[all.length - 1], "no overflow past the largest power of ten");
    }
}
