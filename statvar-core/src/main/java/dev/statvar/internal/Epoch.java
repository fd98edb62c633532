package dev.statvar.internal;

/**
 * The number of the interval being recorded: what a new cell array's EPOCH cell starts at, and
 * what {@code collect()} switches every live array to when it closes an interval. Starts at 1
 * (a min/max slot tagged 0 was never used).
 *
 * <p>Guarded by the engine lock: {@link #advance} only by the collector, holding it; {@link
 * #current} by whoever creates a cell array, holding it, so an array is either made before a
 * switch and switched by it, or made after it with the new epoch.
 */
final class Epoch {
    private long value = 1;

    /** The current interval's number; caller holds the engine lock. */
    long current() {
        return value;
    }

    /** Starts the next interval and returns its number; the collector, holding the engine lock. */
    long advance() {
        return ++value;
    }
}
