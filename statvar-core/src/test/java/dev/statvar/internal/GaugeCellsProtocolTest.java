package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gauge min/max protocol of {@link GaugeCells}, driven step by step on one writer's cells
 * (laid out as Engine lays them out: a gauge at {@link Layout#DATA_START} of a thread's array, or
 * a histogram array's stat cells). The collector's side is simulated as Engine.collect() does it:
 * raise EPOCH, read the count, then {@link MinMaxSlots#read}. A report "in flight" across a switch
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

    /**
     * A report that read the closing epoch and stored after the count was read (it raced the
     * switch) may widen the interval it was not counted in, and is counted, exactly, in the next.
     */
    @Test
    void aReportRacingTheSwitchAfterTheCountWasReadMayWidenTheIntervalItRaced() {
        Cells g = new Cells(false);
        g.report(10);
        assertExact(10, 10, g.close());
        g.report(20); // epoch 2
        long closing = g.switchEpoch(); // closing 2, now 3
        long count = g.count();
        g.reportReading(closing, 5); // read epoch 2 before the switch, stored after the count was read
        g.report(99); // the writer's next report, of the new epoch: the slot holding 20 and 5 is the previous one
        MinMaxSlots.MinMax m = g.read(count, closing); // counts 20
        assertFalse(m.inexact, "a slot of the closing epoch: exact");
        assertEquals(20, m.max);
        assertTrue(m.min == 5 || m.min == 20, "min " + m.min);
        // counts 5 and 99; 5's slot also holds 20, delivered before and not racing: covering, inexact
        assertInexactCovering(5, 99, g.close(), 5, 20, 99);
        g.report(7);
        assertExact(7, 7, g.close());
    }

    // ------------------------------------------------------------------ reports in flight across a read

    /**
     * The single report in flight across the previous read (a writer preempted mid-report: it read
     * epoch 1 before the switch, and stored after the read of interval 1): the next interval counts
     * it and its slot also holds values delivered before, so that interval is marked inexact and
     * covers it. The interval after is exact again.
     */
    private static void oneReportInFlight(Cells g) {
        g.report(1, 100);
        assertExact(1, 100, g.close());
        g.reportReading(g.epoch - 1, 50); // read the closed epoch, counted in the next interval
        g.report(60);
        assertInexactCovering(50, 60, g.close(), 1, 100, 50, 60);
        g.report(70);
        assertExact(70, 70, g.close());
    }

    @Test
    void oneReportInFlightAcrossTheReadIsCoveredAndSaidInexact() {
        oneReportInFlight(new Cells(false));
        oneReportInFlight(new Cells(true));
    }

    /** In flight across the read after a quiet interval: the report retags into a slot of its own: exact. */
    @Test
    void anInFlightReportAloneInItsSlotIsExact() {
        Cells g = new Cells(false);
        g.report(1, 100);
        assertExact(1, 100, g.close());
        assertEmpty(g.close()); // epoch 3 now
        g.reportReading(2, 50); // read epoch 2 before the switch to 3, stored after the read
        assertExact(50, 50, g.close());
        g.report(7);
        assertExact(7, 7, g.close());
    }

    /**
     * The report in flight across a read, then two retags before the collector reads again: the
     * retag that would drop the slot holding it sees (G_SEEN) that the collector has not read it,
     * and merges that slot into the previous one instead, so the interval still covers it.
     */
    @Test
    void aSlotTheCollectorHasNotReadIsMergedNotDropped() {
        Cells g = new Cells(false);
        g.report(1, 100);
        assertExact(1, 100, g.close()); // epoch 2 now
        g.reportReading(1, 50); // epoch 1's slot, after the read of interval 1
        g.report(60); // epoch 2: the slot holding 1, 100, 50 becomes the previous one
        long closing = g.switchEpoch(); // closing 2, now 3
        g.report(55); // epoch 3, raced the switch: a retag, whose previous slot (with 50) is not read yet
        assertInexactCovering(50, 60, g.read(g.count(), closing), 1, 100, 50, 60, 55);
        g.report(58);
        MinMaxSlots.MinMax m = g.close(); // counts 58 (55 raced into the interval before)
        assertFalse(m.inexact, "exact again");
        assertEquals(58, m.max);
        assertTrue(m.min == 55 || m.min == 58, "min " + m.min);
        g.report(3);
        assertExact(3, 3, g.close());
    }

    /**
     * The in-flight report's slot becomes the previous one at a retag after the next switch, the
     * writer having made no report in the interval between: the previous slot is not of the
     * closing epoch (not ADJACENT), and holds 1, delivered before: inexact.
     */
    @Test
    void anInFlightSlotRetaggedAfterAQuietIntervalIsInexact() {
        Cells g = new Cells(false);
        g.report(1);
        assertExact(1, 1, g.close()); // epoch 2
        g.reportReading(1, 50); // epoch 1's slot, after the read of interval 1
        long closing = g.switchEpoch(); // closing 2, now 3: the writer reported nothing of epoch 2
        long count = g.count();
        g.report(60); // epoch 3 (its count is the next interval's): the slot holding 1 and 50 becomes the previous one
        assertInexactCovering(50, 50, g.read(count, closing), 1, 50);
        assertExact(60, 60, g.close());
    }

    @Test
    void twoReportsInAnOlderSlotAfterTheReadAreCoveredAndSaidInexact() {
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
    void anInFlightReportInTheCurrentSlotBesideDeliveredOnesIsInexact() {
        Cells g = new Cells(false);
        g.report(1, 100);
        assertExact(1, 100, g.close());
        g.reportReading(g.epoch - 1, 50); // the writer's last report: still its current slot, with 1 and 100
        assertInexactCovering(50, 50, g.close(), 1, 100, 50);
        g.report(7);
        assertExact(7, 7, g.close());
    }

    // ------------------------------------------------------------------ intervals the collector did not read

    /**
     * Epochs switched without a read (the engine reads every array it switches; a removed gauge's
     * slot is the exception, and it is read once more before reuse): every counted report is
     * still covered, exactly where the slots tell which reports were counted, inexact otherwise.
     */
    @Test
    void unreadIntervalsAreCovered() {
        Cells g = new Cells(false);
        g.report(1);
        assertExact(1, 1, g.close());
        g.report(20, 21);
        g.switchEpoch(); // not read
        g.report(30);
        // the previous slot (20, 21) is of the epoch before the closing one: the slots cannot tell
        // whether the read before counted it, so covering, inexact
        assertInexactCovering(20, 30, g.close(), 20, 21, 30);
        g.report(35, 36);
        g.switchEpoch(); // not read: the writer's current slot is older than the interval closed next
        assertExact(35, 36, g.close());
        for (long v = 40; v <= 70; v += 10) {
            g.report(v);
            g.switchEpoch(); // not read: each retag merges, the collector having read none of them
        }
        assertInexactCovering(40, 70, g.read(g.count(), g.epoch - 1), 40, 50, 60, 70);
        g.report(80);
        assertExact(80, 80, g.close());
    }

    @Test
    void unreadHistogramIntervalsAreCovered() {
        Cells g = new Cells(true);
        g.report(100);
        assertExact(100, 100, g.close());
        for (long v = 50; v >= 20; v -= 10) {
            g.report(v);
            g.switchEpoch(); // not read
        }
        assertInexactCovering(20, 50, g.read(g.count(), g.epoch - 1), 20, 30, 40, 50);
    }

    // ------------------------------------------------------------------ the read without the seqlock

    /**
     * A writer preempted mid-retag, at each of its stores: the cells as they were before the
     * retagging report with the first {@code moved} of its stores done, G_TAG MOVING. The count
     * is the one before the report (its count store comes after the retag).
     */
    private static long[] midRetag(long[] before, long[] after, int off, int moved) {
        int[] order = {Layout.G_PMIN, Layout.G_PMAX, Layout.G_PLAST, Layout.G_MIN, Layout.G_MAX}; // MinMaxSlots.retag's stores
        long[] c = before.clone();
        for (int k = 0; k < moved; k++) {
            c[off + order[k]] = after[off + order[k]];
        }
        c[off + Layout.G_TAG] = MinMaxSlots.MOVING;
        return c;
    }

    /**
     * Each state a retag passes through, read by a collector that never sees the slots stable:
     * covering every counted report, values somebody reported, inexact.
     */
    private static void readsWhileMovingCover(long[][] intervals, long next, long lo, long hi, long... reported) {
        for (int moved = 0; moved <= 5; moved++) {
            Cells g = new Cells(false);
            for (int i = 0; i < intervals.length - 1; i++) {
                g.report(intervals[i]);
                assertExact(java.util.Arrays.stream(intervals[i]).min().getAsLong(),
                        java.util.Arrays.stream(intervals[i]).max().getAsLong(), g.close());
            }
            g.report(intervals[intervals.length - 1]); // the interval now closing
            long closing = g.switchEpoch();
            long count = g.count();
            long[] before = g.c.clone();
            g.report(next); // the retagging report, of the new epoch
            long[] c = midRetag(before, g.c, g.off, moved);
            MinMaxSlots.MinMax m = new MinMaxSlots.MinMax();
            MinMaxSlots.read(c, g.off, count, closing, m);
            assertInexactCovering(lo, hi, m, reported);
            assertEquals(count, c[g.off + Layout.G_SEEN], "the read is recorded");
        }
    }

    /** The retagging report (3, 42) is never among them: whatever the state, it is in a slot the read leaves out. */
    @Test
    void readsOfSlotsThatKeepMovingCoverTheCountedReports() {
        readsWhileMovingCover(new long[][]{{7, 20}}, 3, 7, 20, 7, 20);
        readsWhileMovingCover(new long[][]{{50, 60}, {1, 100}, {30, 70}}, 42, 30, 70, 30, 70, 1, 100);
    }

    /** The in-flight case while moving: the previous slot holds a counted report and is merged. */
    @Test
    void readsOfSlotsThatKeepMovingCoverAnUnreadPreviousSlot() {
        for (int moved = 0; moved <= 5; moved++) {
            Cells g = new Cells(false);
            g.report(1, 100);
            assertExact(1, 100, g.close());
            g.reportReading(1, 50); // in flight across the read of interval 1
            g.report(60); // epoch 2: the previous slot holds 1, 100, 50
            long closing = g.switchEpoch();
            long count = g.count();
            long[] before = g.c.clone();
            g.report(55); // epoch 3: merges the previous slot (not read) with the current one
            long[] c = midRetag(before, g.c, g.off, moved);
            MinMaxSlots.MinMax m = new MinMaxSlots.MinMax();
            MinMaxSlots.read(c, g.off, count, closing, m);
            assertInexactCovering(50, 60, m, 1, 100, 50, 60); // 55, the retagging report, left out
        }
    }

    /** The seqlock as the collector sees it: a read that finds G_TAG MOVING retries, then falls back. */
    @Test
    void aReadFindingTheSlotsMovingFallsBack() {
        Cells g = new Cells(false);
        g.report(7, 20);
        long closing = g.switchEpoch();
        int tag = g.off + Layout.G_TAG;
        long stable = g.c[tag];
        g.c[tag] = MinMaxSlots.MOVING;
        MinMaxSlots.MinMax m = g.read(g.count(), closing);
        g.c[tag] = stable;
        assertInexactCovering(7, 20, m, 7, 20);
        g.report(8);
        assertExact(8, 8, g.close()); // stable again
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
