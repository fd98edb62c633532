package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a thread's counter or gauge array grows (CellArrays.grownLength). */
class CellArraysTest {

    /**
     * A thread updating, in registration order, stats registered before its updates: its last
     * growth stops at the last stat. (With the 1.5 floor applied here too, 5,000 gauges of 9
     * cells ended at 66,048 cells for an extent of 45,034; 1,000 counters happened to fit.)
     */
    @Test
    void statsRegisteredBeforeTheUpdatesGetNoCellPastTheLast() {
        for (int cells : new int[]{Layout.COUNTER_CELLS, Layout.GAUGE_CELLS}) {
            for (int n : new int[]{1_000, 5_000, 12_345}) {
                int extent = Layout.DATA_START + n * cells + Layout.PAD; // n stats registered
                int length = 0;
                int grownAt = 0; // no array yet
                int grows = 0;
                for (int stat = 0; stat < n; stat++) {
                    int limit = Layout.DATA_START + (stat + 1) * cells + Layout.PAD;
                    if (limit > length) {
                        length = CellArrays.grownLength(length, limit, extent, grownAt);
                        grownAt = extent;
                        grows++;
                    }
                }
                assertEquals(extent, length, n + " stats of " + cells + " cells: no cell past the last");
                assertTrue(grows <= 14, grows + " grows"); // MIN_LENGTH, then doubling, then the extent
            }
        }
    }

    @Test
    void statsRegisteredOneByOneBetweenUpdatesGrowGeometrically() {
        int length = 0;
        int grownAt = 0;
        int grows = 0;
        for (int n = 1; n <= 100_000; n++) {
            int limit = Layout.DATA_START + n + Layout.PAD; // the new counter, just registered: extent == limit
            if (limit > length) {
                int next = CellArrays.grownLength(length, limit, limit, grownAt);
                assertTrue(length == 0 || next >= length + length / 2, "grew by less than half: " + length + " -> " + next);
                length = next;
                grownAt = limit;
                grows++;
            }
        }
        assertTrue(grows <= 30, grows + " grows for 100,000 registrations"); // log_1.5(100,000 / 42) ~ 19
    }

    /** Registrations since the last growth bring the room for more back; without them, none. */
    @Test
    void roomPastTheRegisteredStatsOnlyWhileStatsAreBeingRegistered() {
        int old = 1_000;
        int limit = 1_001;
        assertEquals(1_100, CellArrays.grownLength(old, limit, 1_100, 1_100), "none registered since: up to them");
        assertEquals(1_500, CellArrays.grownLength(old, limit, 1_100, 1_050), "some registered since: 1.5 x");
        assertEquals(2_000, CellArrays.grownLength(old, limit, 9_000, 9_000), "at most twice, either way");
        assertEquals(2_000, CellArrays.grownLength(old, limit, 9_000, 1_000));
    }

    @Test
    void neverShorterThanTheLimitOrTheMinimum() {
        assertEquals(Layout.MIN_LENGTH, CellArrays.grownLength(0, Layout.DATA_START + 1 + Layout.PAD, 10_000, 0));
        assertEquals(5_000, CellArrays.grownLength(100, 5_000, 200, 0));
        assertEquals(5_000, CellArrays.grownLength(100, 5_000, 200, 200));
    }
}
