package dev.statvar.internal;

import dev.statvar.Gauge;

/**
 * A registered gauge: any thread, via the engine's thread-id table. A record for the same
 * reason as {@link CounterImpl}.
 *
 * @param engine the engine of its registry
 * @param name   its name
 * @param index  its registration index
 * @param offset its first cell in every per-thread array
 * @param limit  the array length that covers it
 * @param vloc   its place in the virtual threads' stripes
 */
record GaugeImpl(Engine engine, String name, int index, int offset, int limit, int vloc) implements Gauge {

    @Override
    public void report(long value) {
        engine.report(offset, limit, vloc, value);
    }

    @Override
    public Gauge localView() {
        long[] cells = engine.localCells(index);
        return cells == null ? this : new LocalGauge(this, Thread.currentThread(), cells);
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
        return "Gauge[" + name + "]";
    }
}
