package dev.statvar.internal;

import dev.statvar.Gauge;

/**
 * A gauge bound to one platform thread: the owner writes its own one-stat cell array at
 * constant indices; other threads go through the shared gauge.
 */
final class LocalGauge implements Gauge {
    private final GaugeImpl shared;
    private final Thread owner;
    /** The owner's cells for this gauge: written only by the owner (and EPOCH by collect()). */
    private final long[] cells;

    LocalGauge(GaugeImpl shared, Thread owner, long[] cells) {
        this.shared = shared;
        this.owner = owner;
        this.cells = cells;
    }

    @Override
    public void report(long value) {
        if (Thread.currentThread() == owner) {
            GaugeCells.report(cells, Layout.DATA_START, value);
        } else {
            shared.report(value);
        }
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
