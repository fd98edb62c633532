package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.LongAccumulator;

/**
 * Article section "Update: LongAccumulator and LongAdder" (the fix): the {@link LongAccumulator}
 * is never reset; {@link #getAndReset()} reports the delta between its current value and the
 * value at the previous collection. The article names this version {@code LongAccumulatorCounter}
 * too (and declares {@code start} twice); it is renamed here so both versions can be measured.
 *
 * <p>Demonstrates that the counts are no longer lost. {@code start} is only touched by the server
 * thread (a single server thread is assumed, as in the article). Known bug: none; it counts
 * exactly.
 */
public class LongAccumulatorDeltaCounter extends ServerCounter {
    private long start = 0;

    private final LongAccumulator accumulator = new LongAccumulator(
            (left, right) -> left + right,
            0L);

    @Override
    public void add(long increment) {
        accumulator.accumulate(increment);
    }

    @Override
    public long getAndReset() {
        long current = accumulator.get();
        long result = current - start;
        start = current;
        return result;
    }
}
