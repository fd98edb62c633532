package dev.statvar.lab.counters.baseline;

/**
 * Article section "The volatile option": the {@link LazyCounter} over a
 * {@link MutableVolatileCounterValue}, measured as "Compound Lazy Volatile" in a
 * {@link LazyCompoundCounter}.
 *
 * <p>Demonstrates that making the value volatile costs little and protects against the compiler
 * keeping the value in a register. Known bugs: those of {@link LazyCounter} apart from register
 * caching: exact only under lazy retrieval, and still vulnerable to a client descheduled for
 * longer than the cool-down (it can write into a value the server already read).
 */
public final class LazyVolatileCounter extends IndirectCounter {
    private volatile MutableVolatileCounterValue current = new MutableVolatileCounterValue();

    @Override
    public void add(long increment) {
        current.add(increment);
    }

    @Override
    public CounterValue getAndResetValue() {
        CounterValue result = current;
        current = new MutableVolatileCounterValue();
        return result;
    }
}
