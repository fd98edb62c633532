package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * A registered counter, for any thread: a platform thread adds to its own cell of this counter,
 * at {@code cell} in its counter array ({@code Block.counters}), found through the engine's
 * thread table (no lock, no locked instruction); a virtual thread, or a thread not in the table
 * or whose array is too short, takes the slow path ({@link Writers#addSlow}).
 *
 * <p>A record on purpose: C2 trusts the final fields of records, so for a counter held in a
 * {@code static final} field the thread table and the cell index become constants in the
 * compiled update (as for {@link GaugeImpl}).
 *
 * @param threads its engine's thread table (the fast path reads only this and {@code cell})
 * @param writers its engine's slow paths
 * @param name    its name
 * @param index   its registration index
 * @param cell    its cell in every thread's counter array: {@link Layout#DATA_START} + its counter index
 * @param vloc    its place in the stripes
 */
record CounterImpl(ThreadTable threads, Writers writers, String name, int index, int cell, int vloc) implements Counter {

    @Override
    public void add() {
        add0(1);
    }

    @Override
    public void add(long n) {
        if (n < 0) {
            throw negative(name, n);
        }
        add0(n);
    }

    private void add0(long n) {
        Thread t = Thread.currentThread();
        Block b = threads.lookup(t);
        if (b != null) {
            long[] c = b.counters; // owner-only field: our own write
            if (cell < c.length - Layout.PAD) {
                CounterCells.add(c, cell, n);
                return;
            }
        }
        writers.addSlow(this, t, n);
    }

    @SlowPath("bad input: builds the exception")
    static IllegalArgumentException negative(String name, long n) {
        return new IllegalArgumentException("counter '" + name + "': cannot add a negative amount (" + n + ")");
    }

    /** The calling platform thread's view of this counter; this counter on a virtual thread. */
    @Override
    public Counter localView() {
        return writers.localView(this);
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
        return "Counter[" + name + "]";
    }
}
