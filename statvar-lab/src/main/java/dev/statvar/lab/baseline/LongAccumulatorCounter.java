package dev.statvar.lab.baseline;

import java.util.concurrent.atomic.LongAccumulator;

/**
 * Article section "Update: LongAccumulator and LongAdder" (first version, suggested on reddit): a
 * {@link LongAccumulator} with {@code (left, right) -> left + right} collected with
 * {@link LongAccumulator#getThenReset()}.
 *
 * <p>Demonstrates the JDK's striped accumulator (as fast as {@link java.util.concurrent.atomic.LongAdder}
 * after JIT). Known bug (deliberate, as in the article): loses counts: {@code getThenReset} is not
 * atomic, so an update between reading and resetting a cell is lost (the reset races the add). See
 * {@link LongAccumulatorDeltaCounter} for the article's fix.
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
