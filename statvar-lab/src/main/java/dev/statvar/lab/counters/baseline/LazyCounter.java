package dev.statvar.lab.counters.baseline;

/**
 * Article section "Indirect counters": the {@code LazyCounter}, whose value lives in a separate
 * {@link MutableCounterValue} (unpadded) referenced by a {@code volatile} field; the server swaps
 * in a fresh value object and returns the old one.
 *
 * <p>Demonstrates indirection: the "missed reset" effect is gone. Single client only: it is meant
 * to be the thread-local view of a {@link LazyCompoundCounter} (or a {@link CompoundCounter}).
 *
 * <p>Known bugs (deliberate, as in the article): loses counts when the value is read immediately
 * ({@link #getAndReset()}): the client may still update the old object after the server read it
 * (the reset races the add). Under the article's lazy retrieval (read the value half an interval
 * after collecting it) no counts are lost in practice, though nothing in the Java memory model
 * guarantees the client's plain write is visible by then. Not safe for several clients. Its value
 * objects are allocated next to each other and share cache lines (see {@link PaddedLazyCounter}).
 */
public final class LazyCounter extends IndirectCounter {
    private volatile MutableCounterValue current = new MutableCounterValue();

    @Override
    public void add(long increment) {
        current.add(increment);
    }

    @Override
    public CounterValue getAndResetValue() {
        CounterValue result = current;
        current = new MutableCounterValue();
        return result;
    }
}
