package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges": the value of a {@link LazyCompoundGauge}: the views' collected values,
 * added together (skipping {@code null}s, for {@link LazyAllocGauge}) only when first read, and
 * then cached. Not thread-safe: read by the server thread only. Known bug: none of its own; the
 * result is only as good as the views' values at the time of the first read.
 */
public final class CompoundGaugeValue extends GaugeValue {
    private final GaugeValue[] values;
    private GaugeValue resolvedValue = null;

    public CompoundGaugeValue(GaugeValue[] values) {
        this.values = values;
    }

    private GaugeValue resolve() {
        if (resolvedValue == null) {
            MutableGaugeValue sum = new MutableGaugeValue();
            for (GaugeValue v : values) {
                sum.add(v);
            }
            resolvedValue = sum;
        }
        return resolvedValue;
    }

    @Override
    public long getCount() {
        return resolve().getCount();
    }

    @Override
    public long getSum() {
        return resolve().getSum();
    }

    @Override
    public long getMax() {
        return resolve().getMax();
    }

    @Override
    public long getMin() {
        return resolve().getMin();
    }

    @Override
    public String toString() {
        return resolve().toString();
    }
}
