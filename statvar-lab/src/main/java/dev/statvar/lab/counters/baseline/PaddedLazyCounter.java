package dev.statvar.lab.counters.baseline;

/**
 * Article section "The false sharing problem": the {@link LazyCounter} over the value padded to
 * 64 bytes ({@link PaddedMutableCounterValue}). In the article this is simply {@code LazyCounter}
 * after {@code MutableCounterValue} was padded; it is the one measured as "Compound Lazy" in the
 * summary and the one {@link FastCounter} is built on.
 *
 * <p>Known bugs: those of {@link LazyCounter} (exact only under lazy retrieval, in practice, not
 * by the memory model; single client only).
 */
public final class PaddedLazyCounter extends IndirectCounter {
    private volatile PaddedMutableCounterValue current = new PaddedMutableCounterValue();

    @Override
    public void add(long increment) {
        current.add(increment);
    }

    @Override
    public CounterValue getAndResetValue() {
        CounterValue result = current;
        current = new PaddedMutableCounterValue();
        return result;
    }
}
