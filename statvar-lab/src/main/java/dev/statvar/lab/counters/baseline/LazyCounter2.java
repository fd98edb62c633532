package dev.statvar.lab.counters.baseline;

/**
 * Article section "Alternative solutions": a {@link LazyCounter} that re-uses exactly two value
 * objects instead of allocating one per collection: the client updates {@code current}, the
 * server holds {@code other}; collection resets {@code other} and swaps them.
 *
 * <p>Demonstrates allocation-free lazy retrieval; both values are allocated with the counter, not
 * next to other views' values, which also helps against false sharing. Known bugs: those of
 * {@link LazyCounter}; in addition the returned value is only valid until the next collection
 * (which resets it), so it must be read on the following half-interval, never later.
 */
public final class LazyCounter2 extends IndirectCounter {
    private volatile MutableCounterValue current = new MutableCounterValue();
    private MutableCounterValue other = new MutableCounterValue();

    @Override
    public void add(long increment) {
        current.add(increment);
    }

    @Override
    public CounterValue getAndResetValue() {
        MutableCounterValue result = current;
        other.reset();
        current = other;
        other = result;
        return result;
    }
}
