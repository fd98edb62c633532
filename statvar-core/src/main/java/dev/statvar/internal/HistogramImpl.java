package dev.statvar.internal;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;

/**
 * A registered histogram: any thread, via the engine's thread-id table. A record for the same
 * reason as {@link CounterImpl}: a {@code static final} handle gets its index and bucket bits
 * folded into the compiled update.
 *
 * @param engine    the engine of its registry
 * @param name      its name
 * @param hindex    its index among the registry's histograms
 * @param bits      sub-bucket bits of its precision
 * @param precision its precision
 */
record HistogramImpl(Engine engine, String name, int hindex, int bits, HistogramPrecision precision)
        implements Histogram {

    @Override
    public void record(long value) {
        if (value < 0) {
            throw negative(name, value);
        }
        engine.record(hindex, bits, value);
    }

    @SlowPath("bad input: builds the exception")
    static IllegalArgumentException negative(String name, long value) {
        return new IllegalArgumentException("histogram '" + name + "': values must be >= 0, was " + value);
    }

    @Override
    public Histogram localView() {
        return Threads.isVirtual(Thread.currentThread()) ? this : new LocalHistogram(this, Thread.currentThread());
    }

    @Override
    public boolean equals(Object o) {
        return this == o;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(this);
    }

    @Override
    public String toString() {
        return "Histogram[" + name + "]";
    }
}
