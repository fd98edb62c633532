package dev.statvar.lab.counters.baseline;

/**
 * Article section "The volatile option": {@link PaddedMutableCounterValue} with the value declared
 * {@code volatile} (padded to 64 bytes like the article's then-current
 * {@code MutableCounterValue}; the article does not show the class, its repository pads it).
 *
 * <p>Demonstrates the "paranoid" variant: the client's write cannot stay in a register and is
 * flushed from the store buffer on every update. Known bug: {@code value += increment} on a
 * volatile is not atomic; fine for its single client, but the value is still swapped without
 * synchronising with the client.
 */
public final class MutableVolatileCounterValue extends CounterValue {
    private volatile long value = 0;
    public long v1 = 0;
    public long v2 = 0;
    public long v3 = 0;
    public long v4 = 0;
    public long v5 = 0;

    public void add(long increment) {
        value += increment;
    }

    @Override
    public long get() {
        return value;
    }
}
