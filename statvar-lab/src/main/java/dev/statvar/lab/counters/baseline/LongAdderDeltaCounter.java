package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.LongAdder;

/**
 * Article section "Update: LongAccumulator and LongAdder" (the fix): the {@link LongAdder} is
 * never reset; {@link #getAndReset()} reports the delta between its current sum and the sum at
 * the previous collection. The article names this version {@code LongAdderCounter} too; it is
 * renamed here so that both versions can be measured.
 *
 * <p>Demonstrates that the counts are no longer lost: an update concurrent with a collection is
 * counted in one interval or the next. {@code start} is only touched by the server thread, so it
 * needs no protection (a single server thread is assumed, as in the article). Known bug: none; it
 * counts exactly.
 */
public class LongAdderDeltaCounter extends ServerCounter {
    private long start = 0;

    private final LongAdder adder = new LongAdder();

    @Override
    public void add(long increment) {
        adder.add(increment);
    }

    @Override
    public long getAndReset() {
        long current = adder.sum();
        long result = current - start;
        start = current;
        return result;
    }
}
