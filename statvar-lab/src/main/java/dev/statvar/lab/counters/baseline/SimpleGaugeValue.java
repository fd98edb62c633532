package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges": an immutable gauge value (count, sum, max, min), as returned by
 * {@link SimpleGauge#getAndReset()}. The article does not show it; its repository has it. The
 * no-argument constructor makes the empty value (count and sum 0, max {@link Long#MIN_VALUE},
 * min {@link Long#MAX_VALUE}). Known bug: none.
 */
public final class SimpleGaugeValue extends GaugeValue {
    private final long count;
    private final long sum;
    private final long max;
    private final long min;

    public SimpleGaugeValue() {
        this(0, 0, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    public SimpleGaugeValue(long count, long sum, long max, long min) {
        this.count = count;
        this.sum = sum;
        this.max = max;
        this.min = min;
    }

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

    @Override
    public String toString() {
        return "count=" + count + " sum=" + sum + " max=" + max + " min=" + min;
    }
}
