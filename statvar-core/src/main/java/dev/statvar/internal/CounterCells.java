package dev.statvar.internal;

import static dev.statvar.internal.CellArrays.LONGS;

/**
 * The counter cell protocol, writer half beside reader half: one cumulative total per writer,
 * never reset; the collector reports differences (exact modulo 2^64).
 *
 * <p>Writers: the cell's owner thread ({@link #add}: no locked instruction), or, in a stripe
 * shared by virtual threads, any of them ({@link #addShared}: an atomic add). Reader: the
 * collector ({@link #read}), at any time; an add racing it is in this interval or the next,
 * never both and never neither (pairing COUNT).
 */
final class CounterCells {
    private CounterCells() {
    }

    /** Single writer: plain read of our own cell, opaque store. Pairing COUNT: with getOpaque in {@link #read}. */
    static void add(long[] c, int off, long n) {
        LONGS.setOpaque(c, off, c[off] + n);
    }

    /** A stripe's cell, shared by virtual threads: an atomic add. Pairing COUNT, as {@link #add}. */
    static void addShared(long[] c, int off, long n) {
        LONGS.getAndAdd(c, off, n);
    }

    /** The cumulative total. Collector; pairing COUNT: with the opaque store in {@link #add} (or the atomic add). */
    static long read(long[] c, int off) {
        return (long) LONGS.getOpaque(c, off);
    }
}
