package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The number of the interval being recorded: what a new cell array's EPOCH cell starts at, and
 * what {@code collect()} switches every live array to when it closes an interval. Starts at 1
 * (a min/max slot tagged 0 was never used).
 *
 * <p>Written only by the collector holding the engine lock ({@link #advance}); {@link #current}
 * is read by whoever creates a cell array, holding the lock, so an array is either made before a
 * switch and switched by it, or made after it with the new epoch. {@link #recent} is read without
 * the lock by the slow paths that count a cold thread's updates per interval (ColdCounts), for
 * which a number a little out of date is harmless.
 */
final class Epoch {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(Epoch.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Written under the engine lock (opaque); read under it (plain) or by {@link #recent} (opaque). Pairing INTERVAL. */
    private long value = 1;

    /** The current interval's number; caller holds the engine lock. */
    long current() {
        return value;
    }

    /** Starts the next interval and returns its number; the collector, holding the engine lock. */
    long advance() {
        long next = value + 1;
        VALUE.setOpaque(this, next); // pairing INTERVAL: with getOpaque in recent()
        return next;
    }

    /** The current interval's number or one before it; any thread, no lock. Pairing INTERVAL. */
    long recent() {
        return (long) VALUE.getOpaque(this);
    }
}
