package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.LongAdder;

/**
 * The article's {@link LongAdderCounter} as it ran on JDK 8: this JDK's {@link LongAdder} for the
 * updates, JDK 8's {@code sumThenReset} for the collection ({@link Jdk8Reset}).
 *
 * <p>Demonstrates the lost update the article found: the collector reads a cell, then zeroes it,
 * and an add between the two is lost. Known bug (deliberate): loses counts with several threads.
 * On JDK 9+ the JDK's own {@code sumThenReset} swaps each cell atomically, which is why
 * {@link LongAdderCounter} counts exactly here.
 */
public final class Jdk8LongAdderCounter extends ServerCounter {
    private final LongAdder adder = new LongAdder();

    @Override
    public void add(long increment) {
        adder.add(increment);
    }

    @Override
    public long getAndReset() {
        return Jdk8Reset.sumThenReset(adder);
    }
}
