package dev.statvar.lab.counters.baseline;

/** The article's gauge value: everything the server retrieves at once. */
public abstract class GaugeValue {
    public abstract long getCount();

    public abstract long getSum();

    public abstract long getMax();

    public abstract long getMin();
}
