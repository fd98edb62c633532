package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a thread's counter or gauge array grows (CellArrays.grownLength). */
class CellArraysTest {

    @Test
    void statsRegisteredBeforeTheUpdatesGetNoCellPastTheLast() {
        int extent = Layout.DATA_START + 1_000 + Layout.PAD; // 1,000 counters registered
        int length = 0;
        int grows = 0;
        for (int cell = Layout.DATA_START; cell < Layout.DATA_START + 1_000; cell++) {
            int limit = cell + 1 + Layout.PAD;
            if (limit > length) {
                length = CellArrays.grownLength(length, limit, extent);
                grows++;
            }
        }
        assertEquals(extent, length, "no cell past the last registered counter");
        assertTrue(grows <= 6, grows + " grows"); // MIN_LENGTH, then doubling, then the extent
    }

    @Test
    void statsRegisteredOneByOneBetweenUpdatesGrowGeometrically() {
        int length = 0;
        int grows = 0;
        for (int n = 1; n <= 100_000; n++) {
            int limit = Layout.DATA_START + n + Layout.PAD; // the new counter, just registered: extent == limit
            if (limit > length) {
                int next = CellArrays.grownLength(length, limit, limit);
                assertTrue(length == 0 || next >= length + length / 2, "grew by less than half: " + length + " -> " + next);
                length = next;
                grows++;
            }
        }
        assertTrue(grows <= 30, grows + " grows for 100,000 registrations"); // log_1.5(100,000 / 42) ~ 19
    }

    @Test
    void neverShorterThanTheLimitOrTheMinimum() {
        assertEquals(Layout.MIN_LENGTH, CellArrays.grownLength(0, Layout.DATA_START + 1 + Layout.PAD, 10_000));
        assertEquals(5_000, CellArrays.grownLength(100, 5_000, 200));
    }
}
