package dev.statvar.lab.counters.baseline;

/**
 * Article section "The trivial counter": a plain, non-volatile, unsynchronised {@code long}.
 *
 * <p>Demonstrates that even an unsynchronised counter is slow when several cores update the same
 * cache line. Known bugs (deliberate, as in the article): loses counts when two clients (or a
 * client and the server) race on {@code count += increment}, and counts whole intervals twice
 * when a client writes back a value it read before the server's reset ("missing the reset").
 */
public final class TrivialCounter extends ServerCounter {
    private long count = 0;

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
