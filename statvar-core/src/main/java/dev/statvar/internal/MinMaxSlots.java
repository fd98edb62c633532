package dev.statvar.internal;

import java.lang.invoke.VarHandle;

import static dev.statvar.internal.CellArrays.LONGS;
import static dev.statvar.internal.Layout.G_CLAST;
import static dev.statvar.internal.Layout.G_CMAX;
import static dev.statvar.internal.Layout.G_CMIN;
import static dev.statvar.internal.Layout.G_LASTV;
import static dev.statvar.internal.Layout.G_SEEN;
import static dev.statvar.internal.Layout.G_SEQ;
import static dev.statvar.internal.Layout.G_SLOT0;
import static dev.statvar.internal.Layout.G_SLOT_CELLS;
import static dev.statvar.internal.Layout.S_LAST;
import static dev.statvar.internal.Layout.S_LASTV;
import static dev.statvar.internal.Layout.S_MAX;
import static dev.statvar.internal.Layout.S_MIN;
import static dev.statvar.internal.Layout.S_TAG;

/**
 * The per-interval min/max protocol, writer half beside reader half: which of one writer's
 * values an interval's min and max cover, for a gauge's cells and a histogram array's (at its
 * H_STAT), without a per-report store beyond the min/max themselves. The writer is the cells'
 * single writer, and publishes these stores with its own release store that follows (a gauge's
 * count, {@link GaugeCells}; a histogram's bucket, {@link HistogramCells}); the reader is the
 * collector, after the matching acquire.
 *
 * <pre>
 * Protocol
 * --------
 * Min/max slots. Each report belongs to the epoch it read from the array's EPOCH cell, which the
 * collector raises (setVolatile) when it closes an interval, just before it reads that array. The
 * writer keeps three slots (tag = epoch, last, min, max): the current one, at a constant index,
 * and the two epochs before it. Its first report of a new epoch retags once: the oldest slot is
 * folded into the cumulative cells (CMIN, CMAX, CLAST), the previous slot becomes the oldest, the
 * current one the previous (its S_LAST set to the writer's count so far), and the current slot
 * restarts at the report. So the slots number the writer's reports without a per-report store:
 * folded 1 .. CLAST, oldest .. its S_LAST, previous .. its S_LAST, current the rest.
 * A retag makes G_SEQ odd, moves the slots with release stores, and makes it even again (release).
 *
 * Which reports an interval counts. The collector remembers, in the collector-only cell G_SEEN,
 * the count it attributed last time; this interval counts the writer's reports SEEN+1 .. COUNT.
 * It reads the slots as a seqlock (G_SEQ acquire, the cells, acquireFence, G_SEQ again) and
 * merges every slot whose numbers meet SEEN+1 .. COUNT. So each interval's min and max cover
 * every report it counts, whatever the timing, and are values somebody reported.
 *
 * Exact, or said not to be. A report counted here read the closing epoch, the next one (made
 * after the switch, before the read) or an older one (in flight across the previous switch). A
 * slot of the closing or the next epoch holds only reports counted here or racing a switch next
 * to this interval: such values may widen the neighbouring interval, which the contract allows.
 * A slot of an older epoch that also holds reports counted before (numbers &lt;= SEEN) would bring
 * in values of the previous interval. When only its last report is counted here (one report in
 * flight across the previous read, e.g. a writer preempted mid-report), the slot's S_LASTV, the
 * writer's G_LASTV (a plain store per report) copied when the slot closed, gives its value
 * exactly; with more than one, the interval is marked inexact. So are the rare cases
 * where the reports counted reach back into the folded cells, whose min/max are those of all the
 * writer's older reports (a report in flight across two
 * switches), and a read that found the slots moving STABLE_READ_TRIES times in a row (a writer
 * preempted mid-retag): then the union of every slot and the folded cells is taken, read current
 * slot first (moves go towards older slots, read later, so no value is missed).
 *
 * Progress. The writer never waits. The collector's read tries a bounded number of times
 * (Thread.onSpinWait between tries, a retag being a dozen stores) and then falls back; it never
 * waits for the writer.
 * </pre>
 */
final class MinMaxSlots {
    /** Stable reads the collector attempts before falling back to the union of all slots. */
    static final int STABLE_READ_TRIES = 100;

    private MinMaxSlots() {
    }

    // ------------------------------------------------------------------ writer half

    /**
     * The min/max part of a report or a histogram record; its stores are published by the
     * caller's release store (count, or bucket) that follows.
     *
     * @param counted 1 if the caller's G_COUNT cell counts this report already, else 0: the
     *                writer's reports before this one are G_COUNT - counted (read only at a retag)
     */
    static void update(long[] c, int off, long v, int counted) {
        long e = (long) LONGS.getOpaque(c, Layout.EPOCH); // pairing EPOCH
        // the current slot: a constant index (a run-time one cost 0.4-0.7 ns per report: GaugeBenchmark, docs/PERFORMANCE.md)
        int s = off + G_SLOT0;
        if (c[s + S_TAG] == e) {
            // Single writer: plain reads of our own cells, opaque stores; published by the caller's
            // release store, read after the collector's matching acquire.
            if (v < c[s + S_MIN]) {
                LONGS.setOpaque(c, s + S_MIN, v);
            }
            if (v > c[s + S_MAX]) {
                LONGS.setOpaque(c, s + S_MAX, v);
            }
        } else {
            retag(c, off, e, v, c[off + Layout.G_COUNT] - counted); // our own cell
        }
        c[off + G_LASTV] = v; // writer-only cell (plain): retag() copies it into the slot it closes
    }

    /**
     * The writer's first report of epoch {@code e} (once per interval per gauge): fold the oldest
     * slot, shift the others, restart the current slot at {@code v}. {@code n}: reports so far.
     */
    private static void retag(long[] c, int off, long e, long v, long n) {
        long seq = c[off + G_SEQ];
        // Odd: moving. Ordered before the moves by their release stores. Pairing RETAG.
        LONGS.setOpaque(c, off + G_SEQ, seq + 1);
        int cur = off + G_SLOT0;
        int prev = cur + G_SLOT_CELLS;
        int old = prev + G_SLOT_CELLS;
        if (c[cur + S_TAG] != 0) {
            if (c[old + S_TAG] != 0) {
                long cmin = c[off + G_CMIN];
                long cmax = c[off + G_CMAX];
                if (cmin == 0 || c[old + S_MIN] < Layout.decodeMin(cmin)) {
                    LONGS.setRelease(c, off + G_CMIN, Layout.encodeMin(c[old + S_MIN]));
                }
                if (cmax == 0 || c[old + S_MAX] > Layout.decodeMax(cmax)) {
                    LONGS.setRelease(c, off + G_CMAX, Layout.encodeMax(c[old + S_MAX]));
                }
                LONGS.setRelease(c, off + G_CLAST, c[old + S_LAST]);
            }
            if (c[prev + S_TAG] != 0) {
                copySlot(c, prev, old, c[prev + S_LAST], c[prev + S_LASTV]);
            }
            copySlot(c, cur, prev, n, c[off + G_LASTV]);
        }
        LONGS.setRelease(c, cur + S_MIN, v);
        LONGS.setRelease(c, cur + S_MAX, v);
        LONGS.setRelease(c, cur + S_TAG, e);
        // Even: stable again, after every move above (release).
        LONGS.setRelease(c, off + G_SEQ, seq + 2);
    }

    /** Tag last: a slot whose tag is set holds values somebody reported (the fallback read relies on it). */
    private static void copySlot(long[] c, int from, int to, long last, long lastValue) {
        LONGS.setRelease(c, to + S_LAST, last);
        LONGS.setRelease(c, to + S_LASTV, lastValue);
        LONGS.setRelease(c, to + S_MIN, c[from + S_MIN]);
        LONGS.setRelease(c, to + S_MAX, c[from + S_MAX]);
        LONGS.setRelease(c, to + S_TAG, c[from + S_TAG]);
    }

    // ------------------------------------------------------------------ reader half (the collector)

    /** Min and max of the reports an interval counts, from one writer's cells; collector-confined. */
    static final class MinMax {
        boolean has;
        long min;
        long max;
        boolean inexact;

        void clear() {
            has = false;
            inexact = false;
        }

        void add(long mn, long mx) {
            if (!has) {
                has = true;
                min = mn;
                max = mx;
            } else {
                min = Math.min(min, mn);
                max = Math.max(max, mx);
            }
        }
    }

    /**
     * Adds a closed slot holding reports {@code lo+1 .. last}, some of which ({@code > seen}) this
     * interval counts. A slot of an older epoch that also holds reports counted before would
     * bring in values of the previous interval; but when this interval counts only its last
     * report (one report in flight across the previous read: a writer preempted mid-report),
     * that report's value is known exactly.
     */
    private static void closedSlot(long tag, long lo, long last, long lastValue, long min, long max, long seen,
                                   long closing, MinMax out) {
        if (tag >= closing || lo >= seen) {
            out.add(min, max);
        } else if (last == seen + 1) {
            out.add(lastValue, lastValue);
        } else {
            out.add(min, max);
            out.inexact = true;
        }
    }

    /**
     * Finds the min/max of the writer's reports {@code SEEN+1 .. count} in the cells at {@code off}
     * for interval {@code closing}, adds them to {@code out}, and records {@code count} as SEEN.
     * Collector only (the caller serialises collects and excludes copies of a live array).
     *
     * @param count the writer's cumulative count, read (acquire) before this call
     */
    static void read(long[] c, int off, long count, long closing, MinMax out) {
        long seen = c[off + G_SEEN]; // collector-only cell: our own earlier store
        if (count == seen) {
            return; // no report of this writer in this interval
        }
        c[off + G_SEEN] = count;
        int cur = off + G_SLOT0;
        int prev = cur + G_SLOT_CELLS;
        int old = prev + G_SLOT_CELLS;
        for (int attempt = 0; attempt < STABLE_READ_TRIES; attempt++) {
            long seq = (long) LONGS.getAcquire(c, off + G_SEQ); // pairing RETAG
            if ((seq & 1) == 0) {
                // Opaque reads, ordered after the acquire above (pairing RETAG); the writer's opaque
                // min/max stores are published by its count/bucket release (pairing GAUGE/BUCKET).
                long tag0 = (long) LONGS.getOpaque(c, cur + S_TAG);
                long min0 = (long) LONGS.getOpaque(c, cur + S_MIN);
                long max0 = (long) LONGS.getOpaque(c, cur + S_MAX);
                long tag1 = (long) LONGS.getOpaque(c, prev + S_TAG);
                long last1 = (long) LONGS.getOpaque(c, prev + S_LAST);
                long lastv1 = (long) LONGS.getOpaque(c, prev + S_LASTV);
                long min1 = (long) LONGS.getOpaque(c, prev + S_MIN);
                long max1 = (long) LONGS.getOpaque(c, prev + S_MAX);
                long tag2 = (long) LONGS.getOpaque(c, old + S_TAG);
                long last2 = (long) LONGS.getOpaque(c, old + S_LAST);
                long lastv2 = (long) LONGS.getOpaque(c, old + S_LASTV);
                long min2 = (long) LONGS.getOpaque(c, old + S_MIN);
                long max2 = (long) LONGS.getOpaque(c, old + S_MAX);
                long cmin = (long) LONGS.getOpaque(c, off + G_CMIN);
                long cmax = (long) LONGS.getOpaque(c, off + G_CMAX);
                long clast = (long) LONGS.getOpaque(c, off + G_CLAST);
                VarHandle.acquireFence(); // the reads above happen before the re-read of G_SEQ
                if ((long) LONGS.getOpaque(c, off + G_SEQ) == seq) {
                    // Stable. Report numbers: folded 1..clast, oldest ..last2, previous ..last1, current the rest.
                    long lo2 = clast;
                    long lo1 = tag2 != 0 ? last2 : clast;
                    long lo0 = tag1 != 0 ? last1 : lo1;
                    if (tag0 != 0 && lo0 < count) {
                        out.add(min0, max0);
                        out.inexact |= tag0 < closing && lo0 < seen;
                    }
                    if (tag1 != 0 && lo1 < count && last1 > seen) {
                        closedSlot(tag1, lo1, last1, lastv1, min1, max1, seen, closing, out);
                    }
                    if (tag2 != 0 && lo2 < count && last2 > seen) {
                        closedSlot(tag2, lo2, last2, lastv2, min2, max2, seen, closing, out);
                    }
                    if (clast > seen) {
                        out.add(Layout.decodeMin(cmin), Layout.decodeMax(cmax));
                        out.inexact = true;
                    }
                    return;
                }
            }
            Thread.onSpinWait();
        }
        // The slots kept moving: the union of everything, current slot first (moves go towards
        // older slots, which are read later, so no value is missed). Values somebody reported,
        // covering every report counted, but possibly wider: inexact.
        out.inexact = true;
        for (int s = cur; s <= old; s += G_SLOT_CELLS) {
            if ((long) LONGS.getAcquire(c, s + S_TAG) != 0) { // pairing RETAG (tag stored last)
                out.add((long) LONGS.getOpaque(c, s + S_MIN), (long) LONGS.getOpaque(c, s + S_MAX));
            }
        }
        long cmin = (long) LONGS.getOpaque(c, off + G_CMIN);
        long cmax = (long) LONGS.getOpaque(c, off + G_CMAX);
        if (cmin != 0) {
            out.add(Layout.decodeMin(cmin), Layout.decodeMin(cmin));
        }
        if (cmax != 0) {
            out.add(Layout.decodeMax(cmax), Layout.decodeMax(cmax));
        }
    }
}
