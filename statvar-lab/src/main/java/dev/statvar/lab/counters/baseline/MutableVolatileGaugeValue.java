package dev.statvar.lab.counters.baseline;

/**
 * Article section "The volatile option": the gauge value with only the last-updated field
 * ({@code count}) {@code volatile}, padded to 64 bytes with two dummies (the article does not
 * show it; its repository pads it so).
 *
 * <p>Demonstrates that one volatile write at the end of {@link #report(long)} publishes the three
 * plain writes before it (to a reader that reads {@code count} first). Known bugs: the
 * {@link GaugeValue} getters read {@code count} in any order the caller chooses, so a reader
 * racing {@link #report(long)} can still see a half-updated value; {@code ++count} on a volatile
 * is not atomic (fine for its single client).
 */
public final class MutableVolatileGaugeValue extends GaugeValue {
    private volatile long count = 0;
    private long sum = 0;
    private long max = Long.MIN_VALUE;
    private long min = Long.MAX_VALUE;
    public long dummy1;
    public long dummy2;

    @Override
    public long getCount() {
        return count;
    }

    @Override
    public long getSum() {
        return sum;
    }

    @Override
    public long getMax() {
        return max;
    }

    @Override
    public long getMin() {
        return min;
    }

    public void report(long value) {
        sum += value;
        max = Math.max(max, value);
        min = Math.min(min, value);
        ++count;
    }
}
