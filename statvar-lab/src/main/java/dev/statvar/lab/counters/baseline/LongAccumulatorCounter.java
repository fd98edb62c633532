package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.LongAccumulator;

/**
 * Article section "Update: LongAccumulator and LongAdder" (first version, suggested on reddit): a
 * {@link LongAccumulator} with {@code (left, right) -> left + right} collected with
 * {@link LongAccumulator#getThenReset()}.
 *
 * <p>Demonstrates the JDK's striped accumulator (as fast as {@link java.util.concurrent.atomic.LongAdder}
 * after JIT). The article (JDK 8) found it loses counts: JDK 8's {@code getThenReset} read each
 * cell, then reset it, and an update between the two was lost. Since JDK 9 each cell is swapped
 * atomically ({@code getAndSet}), so on this JDK it counts exactly; {@link Jdk8LongAccumulatorCounter}
 * runs JDK 8's algorithm. See {@link LongAccumulatorDeltaCounter} for the article's fix.
 */
public class LongAccumulatorCounter extends ServerCounter {
    private final LongAccumulator accumulator = new LongAccumulator(
            (left, right) -> left + right,
            0L);

    @Override
    public void add(long increment) {
        accumulator.accumulate(increment);
    }

    @Override
    public long getAndReset() {
        return accumulator.getThenReset();
    }
}
