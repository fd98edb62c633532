package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static dev.statvar.internal.CellArrays.LONGS;

/**
 * The counter cell protocol, writer half beside reader half: one cumulative total per writer,
 * never reset; the collector reports differences (exact modulo 2^64).
 *
 * <p>A cell is a platform thread's {@link CounterCell} (its any-thread path and its local view),
 * or a long in a stripe shared by virtual threads. Writers: the cell's owner thread
 * ({@code add}: no locked instruction), or, in a stripe, any of its virtual threads
 * ({@link #addShared}: an atomic add). Reader: the collector ({@code read}), at any time; an add
 * racing it is in this interval or the next, never both and never neither (pairing COUNT).
 */
final class CounterCells {
    /** Access to {@link CounterCell#value}. */
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(CounterCell.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private CounterCells() {
    }

    /** Single writer: plain read of our own cell, opaque store. Pairing COUNT: with getOpaque in {@link #read(CounterCell)}. */
    static void add(CounterCell c, long n) {
        VALUE.setOpaque(c, c.value + n);
    }

    /** The cumulative total. Collector; pairing COUNT: with the opaque store in {@link #add(CounterCell, long)}. */
    static long read(CounterCell c) {
        return (long) VALUE.getOpaque(c);
    }

    /** A stripe's cell, shared by virtual threads: an atomic add. Pairing COUNT, as {@link #add(CounterCell, long)}. */
    static void addShared(long[] c, int off, long n) {
        LONGS.getAndAdd(c, off, n);
    }

    /** The cumulative total. Collector; pairing COUNT: with the atomic add of {@link #addShared}. */
    static long read(long[] c, int off) {
        return (long) LONGS.getOpaque(c, off);
    }
}
