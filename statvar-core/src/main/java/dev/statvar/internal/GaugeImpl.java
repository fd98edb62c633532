package dev.statvar.internal;

import dev.statvar.Gauge;

/**
 * A registered gauge, for any thread: a platform thread hot for it reports into its own cells at
 * {@code offset} of its gauge array ({@code Block.cells}), found through the engine's thread
 * table (no lock, no locked instruction); any other thread, or a thread whose array is too short,
 * takes the slow path ({@link Writers#reportSlow}).
 *
 * <p>A record on purpose: C2 trusts the final fields of records, so for a gauge held in a
 * {@code static final} field the thread table and the cell offset become constants in the
 * compiled update.
 *
 * @param threads its engine's thread table (the fast path reads only this, {@code offset} and {@code limit})
 * @param writers its engine's slow paths
 * @param name    its name
 * @param index   its registration index
 * @param offset  its first cell in every thread's gauge array
 * @param limit   the array length that covers it
 * @param vloc    its place in the stripes
 */
record GaugeImpl(ThreadTable threads, Writers writers, String name, int index, int offset, int limit, int vloc) implements Gauge {

    @Override
    public void report(long value) {
        Thread t = Thread.currentThread();
        Block b = threads.lookup(t);
        if (b != null) {
            long[] c = b.cells; // owner-only field: our own write
            if (limit <= c.length) {
                GaugeCells.report(c, offset, value);
                return;
            }
        }
        writers.reportSlow(this, t, value);
    }

    @Override
    public Gauge localView() {
        long[] cells = writers.localCells(index);
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
