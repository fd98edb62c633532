package dev.statvar.lab.counters.baseline;

/**
 * Article section "Alternative solutions": both values inside the counter object
 * ({@code value0}, {@code value1}) and a {@code volatile} index choosing the one the client
 * updates; a {@link SwappableCounter}.
 *
 * <p>Known bugs: those of {@link LazyCounter2} (the swapped-out value must be read before the
 * next swap, and the client's plain writes are not ordered with the server's reads). The article's
 * sketch omits the index's type and declares {@code int get()} over {@code long} fields; here the
 * index is an {@code int} and {@code get()} returns {@code long}.
 */
public final class LazyCounter4 extends SwappableCounter {
    private long value0 = 0;
    private long value1 = 0;
    private volatile int currentIndex = 0;

    @Override
    public void add(long increment) {
        if (currentIndex == 0) {
            value0 += increment;
        } else {
            value1 += increment;
        }
    }

    @Override
    public void swap() {
        if (currentIndex == 0) {
            value1 = 0;
        } else {
            value0 = 0;
        }
        currentIndex = 1 - currentIndex;
    }

    @Override
    public long get() {
        return currentIndex == 0 ? value1 : value0;
    }
}
