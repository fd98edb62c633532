package dev.statvar.lab.baseline;

import java.util.concurrent.atomic.LongAdder;

/**
 * Article section "Update: LongAccumulator and LongAdder" (first version, suggested on reddit): a
 * {@link LongAdder} collected with {@link LongAdder#sumThenReset()}.
 *
 * <p>Demonstrates the JDK's striped, cache-aware counter: fast at any thread count. Known bug
 * (deliberate, as in the article): loses counts: {@code sumThenReset} is not atomic, so an
 * {@code add} that lands in a cell after it was summed and before it was reset is lost (the reset
 * races the add). See {@link LongAdderDeltaCounter} for the article's fix.
 */
public class LongAdderCounter extends ServerCounter {
    private final LongAdder adder = new LongAdder();

    @Override
    public void add(long increment) {
        adder.add(increment);
    }

    @Override
    public long getAndReset() {
        return adder.sumThenReset();
    }
}
