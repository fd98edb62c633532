package dev.statvar.lab.counters.baseline;

/** The article's client-side gauge. */
public abstract class Gauge {
    public abstract void report(long value);

    /** A view of this gauge for the calling thread; gauges without views return themselves. */
    public Gauge getThreadLocalView() {
        return this;
    }
}
