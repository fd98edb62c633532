package dev.statvar.lab.counters.baseline;

/**
 * Article section "Alternative solutions": the changed interface of {@link LazyCounter4}: the
 * server calls {@link #swap()} on one half-interval (the client starts filling the other slot)
 * and {@link #get()} on the next (the value of the slot the client left).
 *
 * <p>To fit the lab's lazy-retrieval protocol it is an {@link IndirectCounter}:
 * {@link #getAndResetValue()} swaps and returns a view whose {@code get()} calls {@link #get()},
 * so it can also be a view of a {@link LazyCompoundCounter}. The returned value is valid only
 * until the next swap. The article does not show this class; this is its minimal reading.
 */
public abstract class SwappableCounter extends IndirectCounter {
    /** Resets the slot the client is not using and makes it current. */
    public abstract void swap();

    /** The value of the slot the client is not using: the interval before the last swap. */
    public abstract long get();

    @Override
    public CounterValue getAndResetValue() {
        swap();
        return new CounterValue() {
            @Override
            public long get() {
                return SwappableCounter.this.get();
            }
        };
    }
}
