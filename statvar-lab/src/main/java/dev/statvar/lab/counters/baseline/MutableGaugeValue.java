package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges": the mutable gauge value, four plain {@code long}s updated without
 * synchronisation by one client; unpadded (48 bytes). Also used to add gauge values together
 * ({@link #add(GaugeValue)}, which the article's compound gauges use but it does not show).
 *
 * <p>Known bug: as the value object of {@link LazyGauge} it suffers false sharing (article: "The
 * MutableGaugeValue object is 48 bytes long and can share the same cache line with another such
 * object"); see {@link Padded64MutableGaugeValue} and {@link Padded88MutableGaugeValue}. A reader
 * racing {@link #report(long)} can see a half-updated value.
 */
public class MutableGaugeValue extends GaugeValue {
    private long count = 0;
    private long sum = 0;
    private long max = Long.MIN_VALUE;
    private long min = Long.MAX_VALUE;

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

    /** Adds another value into this one; {@code null} is ignored. */
    public void add(GaugeValue val) {
        if (val != null) {
            this.count += val.getCount();
            this.sum += val.getSum();
            this.max = Math.max(this.max, val.getMax());
            this.min = Math.min(this.min, val.getMin());
        }
    }

    @Override
    public String toString() {
        return "count=" + count + " sum=" + sum + " max=" + max + " min=" + min;
    }
}
