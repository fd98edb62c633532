package dev.statvar.internal;

import dev.statvar.Gauge;

/** A registered gauge: any thread, via the engine's thread-id table. */
public final class GaugeImpl implements Gauge {
    private final Engine engine;
    private final String name;
    private final int offset;
    private final int limit;

    public GaugeImpl(Engine engine, String name, int offset, int limit) {
        this.engine = engine;
        this.name = name;
        this.offset = offset;
        this.limit = limit;
    }

    @Override
    public void report(long value) {
        engine.report(offset, limit, value);
    }

    @Override
    public Gauge localView() {
        Object b = engine.localBlock(limit);
        return b == null ? this : new LocalGauge(this, Thread.currentThread(), (Block) b, offset, limit);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "Gauge[" + name + "]";
    }
}
