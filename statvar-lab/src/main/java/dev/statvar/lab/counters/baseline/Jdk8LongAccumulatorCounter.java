package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.LongAccumulator;

/**
 * The article's {@link LongAccumulatorCounter} as it ran on JDK 8: this JDK's
 * {@link LongAccumulator} ({@code left + right}, identity 0) for the updates, JDK 8's
 * {@code getThenReset} for the collection ({@link Jdk8Reset}).
 *
 * <p>Known bug (deliberate, the article's): loses counts with several threads, an accumulate
 * between the collector's read of a cell and its reset being lost. On JDK 9+ the JDK's own
 * {@code getThenReset} swaps each cell atomically.
 */
public final class Jdk8LongAccumulatorCounter extends ServerCounter {
    private final LongAccumulator accumulator = new LongAccumulator((left, right) -> left + right, 0L);

    @Override
    public void add(long increment) {
        accumulator.accumulate(increment);
    }

    @Override
    public long getAndReset() {
        return Jdk8Reset.getThenReset(accumulator);
    }
}
