package dev.statvar.lab.counters.baseline;

/**
 * Article section "The false sharing problem": {@link MutableCounterValue} padded to 64 bytes
 * with five dummy {@code long}s ({@code v1..v5}), so that two value objects allocated one after
 * the other by the server do not share a cache line (in the article this replaces the unpadded
 * class under the same name; here both exist).
 *
 * <p>Known bug: none of its own (the padding does not align the object to 64 bytes, so it can
 * still straddle two cache lines).
 */
public final class PaddedMutableCounterValue extends CounterValue {
    private long value = 0;
    public long v1 = 0;
    public long v2 = 0;
    public long v3 = 0;
    public long v4 = 0;
    public long v5 = 0;

    public void add(long increment) {
        value += increment;
    }

    @Override
    public long get() {
        return value;
    }
}
