package dev.statvar.lab.counters.baseline;

/**
 * Article section "Alternative solutions": {@link LazyCounter2} with the two value objects in an
 * array and a {@code volatile} index of the current one.
 *
 * <p>Known bugs: those of {@link LazyCounter2} (the returned value is reset by the next
 * collection). The article's sketch declares the array without filling it (which would throw
 * {@link NullPointerException}), omits the index's type and misspells it; here the two values are
 * allocated with the counter and the index is an {@code int}.
 */
public final class LazyCounter3 extends IndirectCounter {
    private MutableCounterValue[] values = {new MutableCounterValue(), new MutableCounterValue()};
    private volatile int currentIndex = 0;

    @Override
    public void add(long increment) {
        values[currentIndex].add(increment);
    }

    @Override
    public CounterValue getAndResetValue() {
        values[1 - currentIndex].reset();
        currentIndex = 1 - currentIndex;
        return values[1 - currentIndex];
    }
}
