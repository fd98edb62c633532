package dev.statvar.lab.counters.baseline;

/**
 * Article section "Indirect counters": the value object of an indirect counter, a plain
 * (non-volatile) {@code long}, unpadded (24 bytes with compressed oops).
 *
 * <p>Demonstrates a value that the client updates without synchronisation and the server swaps
 * out as a whole. Known bug: as an unpadded object allocated next to its siblings it suffers
 * false sharing (article section "The false sharing problem"); see
 * {@link PaddedMutableCounterValue}. {@link #reset()} is called by the article's
 * {@link LazyCounter2} and {@link LazyCounter3} but not shown; it is added here.
 */
public final class MutableCounterValue extends CounterValue {
    private long value = 0;

    public void add(long increment) {
        value += increment;
    }

    /** Sets the value back to zero (used by {@link LazyCounter2} and {@link LazyCounter3}). */
    public void reset() {
        value = 0;
    }

    @Override
    public long get() {
        return value;
    }
}
