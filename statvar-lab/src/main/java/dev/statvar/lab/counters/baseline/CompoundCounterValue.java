package dev.statvar.lab.counters.baseline;

/**
 * Article section "Lazy compound indirect counters": the value of a {@link LazyCompoundCounter}:
 * the collected value objects of all views, summed only when {@link #get()} is called (lazy
 * operation). It skips {@code null} values, as the article requires for {@link LazyAllocCounter}.
 *
 * <p>Known bug: none of its own; the sum is only as good as the views' values at the time
 * {@link #get()} is called.
 */
public final class CompoundCounterValue extends CounterValue {
    private final CounterValue[] values;
    private final long ownValue;

    public CompoundCounterValue(CounterValue[] values, long ownValue) {
        this.values = values;
        this.ownValue = ownValue;
    }

    @Override
    public long get() {
        long sum = ownValue;
        for (CounterValue v : values) {
            if (v != null) {
                sum += v.get();
            }
        }
        return sum;
    }
}
