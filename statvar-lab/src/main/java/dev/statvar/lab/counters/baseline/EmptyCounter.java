package dev.statvar.lab.counters.baseline;

/**
 * Article section "The empty counter": a counter that counts nothing.
 *
 * <p>Demonstrates the base time of the imaginary event handler without any counter update; the
 * other implementations' times are published with this one subtracted. Known bug: none, but it
 * never counts ({@link #getAndReset()} always returns 0).
 */
public final class EmptyCounter extends ServerCounter {
    @Override
    public void add(long increment) {
    }

    @Override
    public long getAndReset() {
        return 0;
    }
}
