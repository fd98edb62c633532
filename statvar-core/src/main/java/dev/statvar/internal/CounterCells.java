package dev.statvar.internal;

import static dev.statvar.internal.CellArrays.LONGS;

/**
 * The counter cell protocol, writer half beside reader half: one cumulative total per writer,
 * never reset; the collector reports differences (exact modulo 2^64).
 *
 * <p>A cell is a long in a platform thread's counter array ({@code Block.counters}: the counter's
 * any-thread path and its local view), or in a stripe shared by virtual threads.
 * Writers: the array's owner thread ({@link #add}: no locked instruction), or, in a stripe, any
 * thread ({@link #addShared}: an atomic add). Reader: the collector ({@link #read}), at any time;
 * an add racing it is in this interval or the next, never both and never neither (pairing COUNT).
 */
final class CounterCells {
    private CounterCells() {
    }

    /** Single writer: plain read of our own cell, opaque store. Pairing COUNT: with getOpaque in {@link #read}. */
    static void add(long[] c, int i, long n) {
        LONGS.setOpaque(c, i, c[i] + n);
    }

    /** A stripe's cell, shared by several threads: an atomic add. Pairing COUNT, as {@link #add}. */
    static void addShared(long[] c, int i, long n) {
        LONGS.getAndAdd(c, i, n);
    }

    /** The cumulative total. Collector; pairing COUNT: with the opaque store of {@link #add}, the atomic add of {@link #addShared}. */
    static long read(long[] c, int i) {
        return (long) LONGS.getOpaque(c, i);
    }
}
