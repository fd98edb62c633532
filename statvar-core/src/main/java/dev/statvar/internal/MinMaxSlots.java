package dev.statvar.internal;

import java.lang.invoke.VarHandle;

import static dev.statvar.internal.CellArrays.LONGS;
import static dev.statvar.internal.Layout.G_MAX;
import static dev.statvar.internal.Layout.G_MIN;
import static dev.statvar.internal.Layout.G_PLAST;
import static dev.statvar.internal.Layout.G_PMAX;
import static dev.statvar.internal.Layout.G_PMIN;
import static dev.statvar.internal.Layout.G_SEEN;
import static dev.statvar.internal.Layout.G_TAG;

/**
 * The per-interval min/max protocol, writer half beside reader half: which of one writer's
 * values an interval's min and max cover, for a gauge's cells and a histogram array's (at its
 * H_STAT), without a per-report store beyond the min/max themselves, in six cells. The writer is
 * the cells' single writer, and publishes these stores with its own release store that follows
 * (a gauge's count, {@link GaugeCells}; a histogram's bucket, {@link HistogramCells}); the reader
 * is the collector, after the matching acquire.
 *
 * <pre>
 * Protocol
 * --------
 * Two slots. Each report belongs to the epoch it read from the array's EPOCH cell, which the
 * collector raises (setVolatile) when it closes an interval, just before it reads that array.
 * The writer keeps the current slot (G_TAG = its epoch, G_MIN, G_MAX: constant indices) and the
 * previous one (G_PMIN, G_PMAX), and G_PLAST, the number of the previous slot's last report: the
 * writer's reports up to G_PLAST are in the previous slot (or in slots the collector has read
 * already), the later ones in the current slot. Its first report of a new epoch retags once: the
 * current slot becomes the previous one, G_PLAST is set to the writer's count so far, and the
 * current slot restarts at the report. A retag stores G_TAG = MOVING first, moves the cells with
 * release stores, and stores the new tag last (release): G_TAG is the collector's seqlock.
 *
 * What a retag may drop. The previous slot it replaces is dropped only if the collector has read
 * all of its reports: G_PLAST &lt;= G_SEEN (the collector's count at its latest read, which it
 * stores after that read, with release; the writer reads it with acquire, after an acquire
 * fence on its EPOCH read: pairing SEEN). Otherwise (a report in flight across the collector's
 * read: a writer preempted mid-report) the two are merged into the new previous slot. So every
 * report the collector has not read is in one of the two slots.
 *
 * ADJACENT (bit 63 of G_PLAST): every report of the previous slot read the epoch just before the
 * current slot's (set when the slot was not merged and its tag was the new tag - 1).
 *
 * Which reports an interval counts. The collector remembers in G_SEEN the count it attributed
 * last time; this interval counts the writer's reports SEEN+1 .. COUNT. It reads the slots as a
 * seqlock (G_TAG acquire, the cells, acquireFence, G_TAG again) and merges the current slot if
 * it holds a counted report (G_PLAST &lt; COUNT) and the previous one if it does (G_PLAST &gt; SEEN).
 * So each interval's min and max cover every report it counts, whatever the timing, and are
 * values somebody reported.
 *
 * Exact, or said not to be. A slot of the closing epoch or the next one holds only reports
 * counted here or racing a switch next to this interval (made after the previous switch and read
 * by the previous read, or made before this read and counted by the next one): such values may
 * widen the neighbouring interval, which the contract allows. The current slot qualifies when
 * its tag is at least the closing epoch, the previous one when it is ADJACENT and the current
 * tag is the next epoch (so its own tag is the closing epoch). A slot merged otherwise may hold
 * values of intervals delivered before (a report in flight across a whole switch, or across a
 * read: the writer then retags into an older slot's epoch): the interval is marked inexact. A
 * read that finds the slots moving STABLE_READ_TRIES times in a row (a writer preempted
 * mid-retag) reads them without the seqlock, inexact: a move copies the current slot into the
 * previous one before it overwrites the current one, so reading the current one first (acquire)
 * misses nothing.
 *
 * Progress. The writer never waits. The collector's read tries a bounded number of times
 * (Thread.onSpinWait between tries, a retag being a few stores) and then falls back; it never
 * waits for the writer.
 * </pre>
 */
final class MinMaxSlots {
    /** Stable reads the collector attempts before falling back to a read without the seqlock. */
    static final int STABLE_READ_TRIES = 100;
    /** G_TAG while the writer retags: no epoch (epochs start at 1 and only grow). */
    static final long MOVING = -1;
    /** G_PLAST's flag: the previous slot's reports all read the epoch before the current slot's. */
    static final long ADJACENT = Long.MIN_VALUE;

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
        // the current slot: constant indices (a run-time slot index cost 0.4-0.7 ns per report: docs/PERFORMANCE.md)
        if (c[off + G_TAG] == e) {
            // Single writer: plain reads of our own cells, opaque stores; published by the caller's
            // release store, read after the collector's matching acquire.
            if (v < c[off + G_MIN]) {
                LONGS.setOpaque(c, off + G_MIN, v);
            }
            if (v > c[off + G_MAX]) {
                LONGS.setOpaque(c, off + G_MAX, v);
            }
        } else {
            retag(c, off, e, v, c[off + Layout.G_COUNT] - counted); // our own cell
        }
    }

    /**
     * The writer's first report of epoch {@code e} (once per interval per gauge): the current
     * slot becomes the previous one (merged with it if the collector has not read all of it),
     * and restarts at {@code v}. {@code n}: the writer's reports so far.
     */
    private static void retag(long[] c, int off, long e, long v, long n) {
        long tag = c[off + G_TAG];
        // Moving: ordered before the moves by their release stores. Pairing RETAG.
        LONGS.setOpaque(c, off + G_TAG, MOVING);
        if (tag != 0) {
            // The EPOCH read that found e becomes an acquire: the G_SEEN the collector stored before
            // it switched to e is visible (pairing EPOCH, SEEN).
            VarHandle.acquireFence();
            // Acquire: if this is a G_SEEN stored after a read, that read's loads of these slots
            // happen before the moves below. Pairing SEEN.
            long seen = (long) LONGS.getAcquire(c, off + G_SEEN);
            long min = c[off + G_MIN];
            long max = c[off + G_MAX];
            boolean adjacent = tag == e - 1;
            if ((c[off + G_PLAST] & ~ADJACENT) > seen) { // the previous slot holds reports not read yet: keep them
                min = Math.min(min, c[off + G_PMIN]);
                max = Math.max(max, c[off + G_PMAX]);
                adjacent = false;
            }
            LONGS.setRelease(c, off + G_PMIN, min);
            LONGS.setRelease(c, off + G_PMAX, max);
            LONGS.setRelease(c, off + G_PLAST, adjacent ? n | ADJACENT : n);
        }
        LONGS.setRelease(c, off + G_MIN, v);
        LONGS.setRelease(c, off + G_MAX, v);
        // Stable again, after every move above (release). Pairing RETAG.
        LONGS.setRelease(c, off + G_TAG, e);
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
     * Finds the min/max of the writer's reports {@code SEEN+1 .. count} in the cells at {@code off}
     * for interval {@code closing}, adds them to {@code out}, and records {@code count} as SEEN.
     * Collector only (the caller serialises collects and excludes copies of a live array).
     *
     * @param count the writer's cumulative count, read (acquire) before this call
     */
    static void read(long[] c, int off, long count, long closing, MinMax out) {
        long seen = c[off + G_SEEN]; // our own earlier store
        if (count == seen) {
            return; // no report of this writer in this interval
        }
        if (Broken.SEEN_FIRST) { // test-only switch: SEEN_FIRST stores SEEN before the slots are read
            LONGS.setRelease(c, off + G_SEEN, count);
        }
        for (int attempt = 0; attempt < STABLE_READ_TRIES; attempt++) {
            long tag = (long) LONGS.getAcquire(c, off + G_TAG); // pairing RETAG
            if (tag != MOVING) {
                // Opaque reads, ordered after the acquire above (pairing RETAG); the writer's opaque
                // min/max stores are published by its count/bucket release (pairing GAUGE/BUCKET).
                long min = (long) LONGS.getOpaque(c, off + G_MIN);
                long max = (long) LONGS.getOpaque(c, off + G_MAX);
                long plast = (long) LONGS.getOpaque(c, off + G_PLAST);
                long pmin = (long) LONGS.getOpaque(c, off + G_PMIN);
                long pmax = (long) LONGS.getOpaque(c, off + G_PMAX);
                VarHandle.acquireFence(); // the reads above happen before the re-read of G_TAG
                if ((long) LONGS.getOpaque(c, off + G_TAG) == tag) {
                    long last = plast & ~ADJACENT;
                    if (tag != 0 && last < count) { // the current slot holds reports last+1 .. ; some are counted
                        out.add(min, max);
                        out.inexact |= tag < closing && last < seen; // also reports delivered before, not racing
                    }
                    if (last > seen) { // the previous slot holds counted reports
                        out.add(pmin, pmax);
                        out.inexact |= !((plast & ADJACENT) != 0 && tag == closing + 1);
                    }
                    seen(c, off, count);
                    return;
                }
            }
            Thread.onSpinWait();
        }
        // The slots kept moving (a writer preempted mid-retag): read without the seqlock, in the
        // order that misses nothing. A retag stores the previous slot's cells, then G_PLAST, then
        // the current slot's (each release): if the current slot read is the new one, G_PLAST and
        // the previous slot read after it are the new ones, which hold the old current slot; if
        // G_PLAST is the new one, so is the previous slot. Covering every report counted, with
        // values somebody reported, but possibly wider: inexact.
        out.inexact = true;
        // (The current slot has a tag: a retag that never completed found it MOVING or changing.)
        long min = (long) LONGS.getAcquire(c, off + G_MIN); // pairing RETAG
        long max = (long) LONGS.getAcquire(c, off + G_MAX);
        long last = (long) LONGS.getAcquire(c, off + G_PLAST) & ~ADJACENT; // pairing RETAG
        if (last < count) {
            out.add(min, max);
        }
        if (last > seen) {
            out.add((long) LONGS.getOpaque(c, off + G_PMIN), (long) LONGS.getOpaque(c, off + G_PMAX));
        }
        seen(c, off, count);
    }

    /** Records {@code count} as attributed, after the reads of the slots. */
    private static void seen(long[] c, int off, long count) {
        if (!Broken.SEEN_FIRST) { // test-only switch: see read()
            // Release: after our reads of the slots; a retag that sees this value may drop the
            // previous slot, which we have read. Pairing SEEN.
            LONGS.setRelease(c, off + G_SEEN, count);
        }
    }
}
