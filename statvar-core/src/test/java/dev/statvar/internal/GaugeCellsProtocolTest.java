package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gauge min/max protocol of {@link GaugeCells}, driven step by step on one writer's cells
 * (laid out as Engine lays them out: a gauge at {@link Layout#DATA_START} of a thread's array, or
 * a histogram array's stat cells). The collector's side is simulated as Engine.collect() does it:
 * raise EPOCH, read the count, then {@link GaugeCells#read}. A report "in flight" across a switch
 * (it read the epoch before the switch, stored after the read) is simulated by reporting with
 * the older epoch in EPOCH. Pins, per interval: min and max cover every report counted, exactly
 * (flag true) whenever the cells tell which reports were counted, and flagged inexact whenever
 * older values may be mixed in; and the fallback read when the slots never stop moving.
 */
class GaugeCellsProtocolTest {
    private static final int BITS = 3;

    /** One writer's gauge (or histogram) cells, and the collector's reads of them. */
    private static final class Cells {
        final boolean hist;
        final long[] c;
        final int off;
        long epoch = 1;

        Cells(boolean hist) {
            this.hist = hist;
            if (hist) {
                int len = LogLinear.bucketCount(BITS);
                c = new long[Layout.H_BUCKETS + len + Layout.PAD];
                c[Layout.H_LO] = 0;
                c[Layout.H_LEN] = len;
                off = Layout.H_STAT;
            } else {
                // a counter before the gauge, and another gauge after it: realistic neighbours
                c = new long[Layout.DATA_START + 1 + 2 * Layout.GAUGE_CELLS + Layout.PAD];
                off = Layout.DATA_START + 1;
            }
            c[Layout.EPOCH] = epoch;
        }

        void report(long... vs) {
            for (long v : vs) {
                if (hist) {
                    assertTrue(HistogramCells.record(c, BITS, v));
                } else {
                    GaugeCells.report(c, off, v);
                }
            }
        }

        /** A report that read epoch {@code e} (before a switch) and stored its cells now. */
        void reportReading(long e, long v) {
            long now = c[Layout.EPOCH];
            c[Layout.EPOCH] = e;
            report(v);
            c[Layout.EPOCH] = now;
        }

        /** The collector raises the epoch (as CellArrays.switchEpoch), without reading. */
        long switchEpoch() {
            long closing = epoch;
            CellArrays.LONGS.setVolatile(c, Layout.EPOCH, ++epoch);
            return closing;
        }

        long count() {
            if (!hist) {
                return (long) CellArrays.LONGS.getAcquire(c, off + Layout.G_COUNT);
            }
            long n = 0;
            for (int k = 0; k < c[Layout.H_LEN]; k++) {
                n += (long) CellArrays.LONGS.getAcquire(c, Layout.H_BUCKETS + k);
            }
            return n;
        }

        MinMaxSlots.MinMax read(long count, long closing) {
            MinMaxSlots.MinMax m = new MinMaxSlots.MinMax();
            m.clear();
            MinMaxSlots.read(c, off, count, closing, m);
            return m;
        }

        /** Closes the current interval: switch, then read. */
        MinMaxSlots.MinMax close() {
            long closing = switchEpoch();
            return read(count(), closing);
        }
    }

    private static void assertExact(long min, long max, MinMaxSlots.MinMax m) {
        assertTrue(m.has, "has a min/max");
        assertEquals(min, m.min, "min");
        assertEquals(max, m.max, "max");
        assertFalse(m.inexact, "exact");
    }

    private static void assertEmpty(MinMaxSlots.MinMax m) {
        assertFalse(m.has, "no min/max");
        assertFalse(m.inexact, "exact");
    }

    /** Inexact, covering {@code lo .. hi} (the counted reports), with values somebody reported. */
    private static void assertInexactCovering(long lo, long hi, MinMaxSlots.MinMax m, long... reported) {
        assertTrue(m.has, "has a min/max");
        assertTrue(m.inexact, "inexact");
        assertTrue(m.min <= lo, "min " + m.min + " covers " + lo);
        assertTrue(m.max >= hi, "max " + m.max + " covers " + hi);
        assertTrue(java.util.Arrays.stream(reported).anyMatch(v -> v == m.min), "min " + m.min + " was reported");
        assertTrue(java.util.Arrays.stream(reported).anyMatch(v -> v == m.max), "max " + m.max + " was reported");
    }

    // ------------------------------------------------------------------ no races

    private static void quietIntervals(Cells g) {
        g.report(5, 1, 9, 3); // more reports than slots, in one interval
        assertExact(1, 9, g.close());
        g.report(8, 7);
        assertExact(7, 8, g.close());
        assertEmpty(g.close()); // nothing reported
        g.report(2);
        assertExact(2, 2, g.close());
        g.report(100, 40);
        assertExact(40, 100, g.close());
        assertEmpty(g.close());
        assertEmpty(g.close());
        g.report(6);
        assertExact(6, 6, g.close());
        for (long v = 10; v < 20; v++) { // one report per interval, many folds
            g.report(v, v + 1000);
            assertExact(v, v + 1000, g.close());
        }
    }

    @Test
    void quietGaugeIntervalsAreExactlyTheirReports() {
        Cells g = new Cells(false);
        quietIntervals(g);
        g.report(Long.MIN_VALUE, -1);
        assertExact(Long.MIN_VALUE, -1, g.close());
        g.report(Long.MAX_VALUE);
        assertExact(Long.MAX_VALUE, Long.MAX_VALUE, g.close());
        g.report(0);
        assertExact(0, 0, g.close());
        assertEquals(0, g.c[Layout.DATA_START], "the counter before the gauge is untouched");
        for (int k = g.off + Layout.GAUGE_CELLS; k < g.c.length; k++) {
            assertEquals(0, g.c[k], "cell " + k + " after the gauge is untouched");
        }
    }

    @Test
    void quietHistogramIntervalsAreExactlyTheirRecords() {
        quietIntervals(new Cells(true));
    }

    // ------------------------------------------------------------------ reports racing a switch

    private static void reportAfterSwitchBeforeRead(Cells g) {
        g.report(10, 20);
        long closing = g.switchEpoch();
        g.report(30); // read the new epoch, counted by this read: raced the switch
        assertExact(10, 30, g.read(g.count(), closing));
        g.report(40, 35);
        MinMaxSlots.MinMax m = g.close(); // counts 40, 35; the slot also holds 30 (raced the last switch)
        assertFalse(m.inexact, "exact");
        assertEquals(40, m.max);
        assertTrue(m.min == 35 || m.min == 30, "min " + m.min);
        g.report(50);
        assertExact(50, 50, g.close());
    }

    @Test
    void aReportBetweenSwitchAndReadIsCountedAndExact() {
        reportAfterSwitchBeforeRead(new Cells(false));
        reportAfterSwitchBeforeRead(new Cells(true));
    }

    @Test
    void aSlotOfTheClosingEpochHoldingReportsCountedBeforeIsExact() {
        Cells g = new Cells(false);
        g.report(10);
        long closing = g.switchEpoch();
        g.report(30); // epoch 2, counted in interval 1 (raced its switch)
        assertExact(10, 30, g.read(g.count(), closing));
        g.report(40, 35); // epoch 2, the same slot
        closing = g.switchEpoch();
        g.report(45); // epoch 3, raced this switch
        MinMaxSlots.MinMax m = g.read(g.count(), closing); // counts 40, 35 (and 45)
        assertFalse(m.inexact, "exact: the slot holds only reports of the closing epoch");
        assertEquals(45, m.max);
        assertTrue(m.min == 30 || m.min == 35, "min " + m.min);
    }

    /**
     * A writer whose epoch reads lag several switches behind (opaque reads: allowed) retags three
     * times after the collector read the count: the interval reaches only into the folded cells.
     */
    @Test
    void slotsMadeAfterTheCountWasReadStayOutEvenWhenTheCountedReportIsFolded() {
        Cells g = new Cells(false);
        g.report(5, 6);
        assertExact(5, 6, g.close());
        assertEmpty(g.close());
        g.reportReading(1, 7); // in flight across two switches
        long closing = g.switchEpoch(); // closing 3, now 4
        long count = g.count();
        g.reportReading(2, 100);
        g.reportReading(3, 200);
        g.report(300); // three retags after the count was read: the slot holding 7 is folded
        assertInexactCovering(7, 7, g.read(count, closing), 5, 6, 7);
        assertExact(100, 300, g.close());
    }

    private static void reportsAfterCountRead(Cells g) {
        g.report(10);
        assertExact(10, 10, g.close());
        g.report(20, 25);
        long closing = g.switchEpoch();
        long count = g.count();
        g.report(99); // after the count was read: not counted in this interval, a slot of its own
        assertExact(20, 25, g.read(count, closing));
        g.report(98);
        assertExact(98, 99, g.close());
    }

    @Test
    void aReportAfterTheCountWasReadStaysOutOfTheInterval() {
        reportsAfterCountRead(new Cells(false));
        reportsAfterCountRead(new Cells(true));
    }

    @Test
    void inFlightReportsAfterTheCountWasReadStayOutOfTheInterval() {
        Cells g = new Cells(false);
        g.report(10);
        assertExact(10, 10, g.close());
        g.reportReading(1, 20); // in flight across the read of interval 1: counted in interval 2
        long closing = g.switchEpoch(); // closing 2, now 3
        long count = g.count();
        g.reportReading(closing, 5); // in flight across this switch, stored after the count was read
        g.report(99); // the writer's next report, of the new epoch
        assertExact(20, 20, g.read(count, closing)); // 5 and 99 are the next interval's
        assertExact(5, 99, g.close());
    }

    /** The single report in flight across the previous read (a writer preempted mid-report). */
    private static void oneReportInFlight(Cells g) {
        g.report(1, 100);
        assertExact(1, 100, g.close());
        g.reportReading(g.epoch - 1, 50); // read the closed epoch, counted in the next interval
        g.report(60);
        assertExact(50, 60, g.close()); // the in-flight report's value is known: 1 and 100 stay out
        g.report(70);
        assertExact(70, 70, g.close());
    }

    @Test
    void oneReportInFlightAcrossTheReadIsExact() {
        oneReportInFlight(new Cells(false));
        oneReportInFlight(new Cells(true));
    }

    @Test
    void oneReportInFlightThenTwoRetagsBeforeTheReadIsExact() {
        Cells g = new Cells(false);
        g.report(1, 100);
        assertExact(1, 100, g.close());
        g.reportReading(g.epoch - 1, 50); // epoch 1, after the read of interval 1
        g.report(60); // epoch 2
        long closing = g.switchEpoch();
        g.report(55); // epoch 3, raced the switch
        MinMaxSlots.MinMax m = g.read(g.count(), closing); // counts 50, 60 (and 55)
        assertExact(50, 60, m);
        g.report(58);
        m = g.close();
        assertFalse(m.inexact);
        assertEquals(58, m.max);
        assertTrue(m.min == 55 || m.min == 58, "min " + m.min);
    }

    @Test
    void twoReportsInAnOlderSlotAfterTheReadAreInexact() {
        Cells g = new Cells(false);
        g.report(1, 100);
        assertExact(1, 100, g.close());
        g.reportReading(g.epoch - 1, 50);
        g.reportReading(g.epoch - 1, 70);
        g.report(60);
        assertInexactCovering(50, 70, g.close(), 1, 100, 50, 70, 60);
        g.report(65);
        assertExact(65, 65, g.close());
    }

    @Test
    void anInFlightReportAloneInTheCurrentSlotIsInexact() {
        Cells g = new Cells(false);
        g.report(1, 100);
        assertExact(1, 100, g.close());
        g.reportReading(g.epoch - 1, 50); // the writer's last report: still its current slot
        assertInexactCovering(50, 50, g.close(), 1, 100, 50);
        g.report(7);
        assertExact(7, 7, g.close());
    }

    // ------------------------------------------------------------------ intervals the collector did not read

    @Test
    void unreadIntervalsAreCoveredExactlyWhileTheirSlotsAreKept() {
        Cells g = new Cells(false);
        g.report(1);
        assertExact(1, 1, g.close());
        g.report(20, 21);
        g.switchEpoch(); // not read
        g.report(30);
        assertExact(20, 30, g.close()); // the older slot holds only reports counted now
        g.report(35, 36);
        g.switchEpoch(); // not read: the writer's current slot is older than the interval closed next
        assertExact(35, 36, g.close());
        g.report(40, 90);
        g.switchEpoch();
        g.report(41);
        g.switchEpoch();
        g.report(42); // three slots, the oldest holding only reports not read yet; folded: read before
        assertExact(40, 90, g.close());
    }

    @Test
    void unreadIntervalsReachingIntoTheFoldedCellsAreInexact() {
        Cells g = new Cells(false);
        g.report(1);
        assertExact(1, 1, g.close());
        for (long v = 20; v <= 50; v += 10) {
            g.report(v);
            g.switchEpoch(); // not read
        }
        // 20 was folded with 1: the interval's min/max reach back into the folded cells
        assertInexactCovering(20, 50, g.read(g.count(), g.epoch - 1), 1, 20, 30, 40, 50);
        g.report(60);
        assertExact(60, 60, g.close());
    }

    @Test
    void unreadHistogramIntervalsReachingIntoTheFoldedCellsAreInexact() {
        Cells g = new Cells(true);
        g.report(100);
        assertExact(100, 100, g.close());
        for (long v = 50; v >= 20; v -= 10) {
            g.report(v);
            g.switchEpoch(); // not read
        }
        assertInexactCovering(20, 50, g.read(g.count(), g.epoch - 1), 100, 20, 30, 40, 50);
    }

    // ------------------------------------------------------------------ the fallback read

    /** A writer preempted mid-retag (G_SEQ odd): the union of everything, inexact. */
    private static MinMaxSlots.MinMax readWhileMoving(Cells g) {
        int seq = g.off + Layout.G_SEQ;
        long even = g.c[seq];
        assertEquals(0, even & 1, "stable before");
        g.c[seq] = even + 1;
        long closing = g.switchEpoch();
        MinMaxSlots.MinMax m = g.read(g.count(), closing);
        g.c[seq] = even;
        return m;
    }

    @Test
    void slotsThatKeepMovingGiveTheUnionOfAllSlots() {
        Cells g = new Cells(false);
        g.report(7, 20);
        MinMaxSlots.MinMax m = readWhileMoving(g); // one slot, nothing folded
        assertTrue(m.inexact);
        assertEquals(7, m.min);
        assertEquals(20, m.max);
        g.report(3);
        m = readWhileMoving(g);
        assertTrue(m.inexact);
        assertEquals(3, m.min);
        assertEquals(20, m.max);
        g.report(12);
        m = readWhileMoving(g); // three slots: the oldest holds 7 .. 20
        assertEquals(3, m.min);
        assertEquals(20, m.max);
        g.report(8);
        assertExact(8, 8, g.close()); // stable again
    }

    @Test
    void slotsThatKeepMovingGiveTheUnionWithTheFoldedCells() {
        Cells g = new Cells(false);
        long[][] intervals = {{50, 60}, {1, 100}, {30, 70}, {40, 45}, {41, 44}, {42, 43}};
        for (long[] vs : intervals) {
            g.report(vs);
            assertExact(vs[0], vs[1], g.close());
        }
        g.report(42);
        MinMaxSlots.MinMax m = readWhileMoving(g);
        assertTrue(m.inexact);
        assertEquals(1, m.min, "folded min, of the second interval");
        assertEquals(100, m.max, "folded max, of the second interval");
    }

    @Test
    void slotsThatKeepMovingGiveTheUnionWithTheFoldedCellsDescending() {
        Cells g = new Cells(false);
        long[][] intervals = {{1, 100}, {30, 70}, {50, 60}, {40, 45}, {41, 44}, {42, 43}};
        for (long[] vs : intervals) {
            g.report(vs);
            assertExact(vs[0], vs[1], g.close());
        }
        g.report(42);
        MinMaxSlots.MinMax m = readWhileMoving(g);
        assertTrue(m.inexact);
        assertEquals(1, m.min, "folded min, of the first interval");
        assertEquals(100, m.max, "folded max, of the first interval");
    }

    @Test
    void minMaxMergesWhatItIsGiven() {
        MinMaxSlots.MinMax m = new MinMaxSlots.MinMax();
        m.add(5, 6);
        assertExact(5, 6, m);
        m.add(7, 8);
        assertExact(5, 8, m);
        m.add(-1, 0);
        assertExact(-1, 8, m);
        m.inexact = true;
        m.clear();
        assertEmpty(m);
        m.add(3, 4);
        assertExact(3, 4, m);
    }
}
