package dev.statvar.lab.counters.baseline;

/**
 * Article section "The simple counter": both methods {@code synchronized}.
 *
 * <p>Demonstrates the simplest counter that actually works, and how slow contended monitors are.
 * Known bug: none; it counts exactly.
 */
public final class SimpleCounter extends ServerCounter {
    private long count = 0;

    @Override
    public synchronized void add(long increment) {
        count += increment;
    }

    @Override
    public synchronized long getAndReset() {
        long result = count;
        count = 0;
        return result;
    }
}
