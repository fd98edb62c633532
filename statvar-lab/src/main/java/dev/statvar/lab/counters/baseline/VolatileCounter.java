package dev.statvar.lab.counters.baseline;

/**
 * Article section "The volatile counter": the {@link TrivialCounter} with a {@code volatile} field.
 *
 * <p>Demonstrates the cost of volatile writes (a locked instruction flushing the store buffer on
 * every update). Known bugs (deliberate, as in the article): {@code volatile} does not make
 * {@code count += increment} atomic, so it still loses counts between clients and still misses
 * the server's reset (the read-modify-write races the reset); only the windows are shorter.
 */
public final class VolatileCounter extends ServerCounter {
    private volatile long count = 0;

    @Override
    public void add(long increment) {
        count += increment;
    }

    @Override
    public long getAndReset() {
        long result = count;
        count = 0;
        return result;
    }
}
