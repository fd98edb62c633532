package dev.statvar.internal;

import dev.statvar.Gauge;

/** A gauge bound to one platform thread's block; other threads go through the shared gauge. */
final class LocalGauge implements Gauge {
    private final GaugeImpl shared;
    private final Thread owner;
    private final Block block;
    private final int offset;
    private final int limit;

    LocalGauge(GaugeImpl shared, Thread owner, Block block, int offset, int limit) {
        this.shared = shared;
        this.owner = owner;
        this.block = block;
        this.offset = offset;
        this.limit = limit;
    }

    @Override
    public void report(long value) {
        if (Thread.currentThread() == owner) {
            long[] c = block.cells; // the owner's own field: only the owner replaces it
            if (limit <= c.length) {
                Engine.reportInto(c, offset, value);
                return;
            }
        }
        shared.report(value);
    }

    @Override
    public Gauge localView() {
        return Thread.currentThread() == owner ? this : shared.localView();
    }

    @Override
    public String name() {
        return shared.name();
    }

    @Override
    public String toString() {
        return "Gauge[" + shared.name() + ", local to " + owner.getName() + "]";
    }
}
