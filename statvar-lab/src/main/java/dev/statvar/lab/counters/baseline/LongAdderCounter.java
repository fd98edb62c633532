package dev.statvar.lab.counters.baseline;

import java.util.concurrent.atomic.LongAdder;

/**
 * Article section "Update: LongAccumulator and LongAdder" (first version, suggested on reddit): a
 * {@link LongAdder} collected with {@link LongAdder#sumThenReset()}.
 *
 * <p>Demonstrates the JDK's striped, cache-aware counter: fast at any thread count. The article
 * (JDK 8) found it loses counts: JDK 8's {@code sumThenReset} read each cell, then zeroed it, and
 * an {@code add} between the two was lost. Since JDK 9 it swaps each cell atomically
 * ({@code getAndSet}), so on this JDK it counts exactly ({@code sumThenReset} is still not an
 * atomic snapshot of all cells, but no update is lost: one racing the collection lands in the
 * next interval). {@link Jdk8LongAdderCounter} runs JDK 8's algorithm, to show the article's bug;
 * {@link LongAdderDeltaCounter} is the article's fix.
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
