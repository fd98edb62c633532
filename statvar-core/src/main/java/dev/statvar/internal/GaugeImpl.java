package dev.statvar.internal;

import dev.statvar.Gauge;

/**
 * A registered gauge: any thread, via the engine's thread-id table.
 *
 * <p>A record on purpose: C2 trusts the final fields of records, so for a gauge held in a
 * {@code static final} field the cell offset becomes a constant in the compiled update.
 *
 * @param engine the engine of its registry
 * @param threads its engine's thread table (the fast path reads only this: for a static final handle, a constant)
 * @param name   its name
 * @param index  its registration index
 * @param offset its first cell in every per-thread array
 * @param limit  the array length that covers it
 * @param vloc   its place in the virtual threads' stripes
 */
record GaugeImpl(Engine engine, ThreadTable threads, String name, int index, int offset, int limit, int vloc) implements Gauge {

    @Override
    public void report(long value) {
        Engine.report(threads, engine, offset, limit, vloc, value);
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
