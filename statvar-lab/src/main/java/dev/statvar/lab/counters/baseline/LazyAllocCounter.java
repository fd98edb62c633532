package dev.statvar.lab.counters.baseline;

/**
 * Article section "Alternative solutions" (lazy allocation): the value object is allocated by the
 * client thread on its first update after a collection, so that values of different threads are
 * allocated far apart (no padding needed: it uses the unpadded {@link MutableCounterValue}).
 * Measured as "Compound LazyAlloc" in a {@link LazyCompoundCounter}.
 *
 * <p>Known bug (deliberate, described in the article): loses counts: the client's check-then-act
 * races the server's reset. If the client reads {@code null}, the server then reads {@code null}
 * and the client publishes its new value, the server's {@code current = null} discards that value
 * and its updates (the only update of an otherwise idle interval is lost). Also
 * {@link #getAndResetValue()} returns {@code null} when nothing was added, so
 * {@link #getAndReset()} throws {@link NullPointerException} on an idle stand-alone counter; only
 * use it inside a {@link LazyCompoundCounter}, whose {@link CompoundCounterValue} skips nulls.
 */
public final class LazyAllocCounter extends IndirectCounter {
    private volatile MutableCounterValue current = null;

    @Override
    public void add(long increment) {
        MutableCounterValue cur = current;
        if (cur == null) {
            cur = new MutableCounterValue();
            current = cur;
        }
        cur.add(increment);
    }

    @Override
    public CounterValue getAndResetValue() {
        CounterValue result = current;
        current = null;
        return result;
    }
}
