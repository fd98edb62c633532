package dev.statvar.internal;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A registered histogram, for any thread: a platform thread records into its own array of this
 * histogram through its {@link LocalHistogram} of it, found in this histogram's table of views
 * (no lock, no locked instruction); a virtual thread, a thread whose slot another live thread
 * holds, or a value outside the thread's array takes the slow path ({@link Writers}). The table's design
 * (slots, growth, release) is {@link PerThreadTable}'s; a hit is the table, the view, its array,
 * then the record ({@link HistogramCells#record}).
 */
final class HistogramImpl implements Histogram {
    private static final VarHandle TABLE;
    private static final VarHandle VIEWS = MethodHandles.arrayElementVarHandle(LocalHistogram[].class);

    static {
        try {
            TABLE = MethodHandles.lookup().findVarHandle(HistogramImpl.class, "table", LocalHistogram[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Writers writers;
    private final String name;
    /** Its index among the registry's histograms (the index of its array in a Block's hists). */
    private final int hindex;
    /** The generation of its slot: its arrays carry it ({@link Layout#H_GEN}). */
    private final int gen;
    /** Sub-bucket bits of its precision. */
    private final int bits;
    private final HistogramPrecision precision;
    /** Thread id &amp; (length - 1) to that thread's view. Written under the engine lock (setRelease); pairing TABLE. */
    private LocalHistogram[] table;
    /**
     * Removed, its last interval delivered, and its slot free for a later histogram: its records
     * are dropped from then on (into arrays nobody reads). Guarded by the engine lock.
     */
    boolean reclaimed;

    HistogramImpl(Writers writers, String name, int hindex, int gen, int bits, HistogramPrecision precision) {
        this.writers = writers;
        this.name = name;
        this.hindex = hindex;
        this.gen = gen;
        this.bits = bits;
        this.precision = precision;
        TABLE.setRelease(this, new LocalHistogram[PerThreadTable.INITIAL]); // pairing TABLE
    }

    @Override
    public void record(long value) {
        if (value < 0) {
            throw negative(name, value);
        }
        Thread t = Thread.currentThread();
        LocalHistogram[] tab = (LocalHistogram[]) TABLE.getAcquire(this); // pairing TABLE
        LocalHistogram v = (LocalHistogram) VIEWS.getAcquire(tab, PerThreadTable.slot(t, tab.length)); // pairing TABLE
        if (v == null || v.owner != t) {
            writers.recordSlow(this, t, value);
        } else if (!HistogramCells.record(v.cells, bits, value)) { // v.cells: owner-only field, and we are its owner
            v.recordOwn(value); // cold, or outside the array
        }
    }

    @SlowPath("bad input: builds the exception")
    static IllegalArgumentException negative(String name, long value) {
        return new IllegalArgumentException("histogram '" + name + "': values must be >= 0, was " + value);
    }

    /** Puts {@code v} into its slot, growing the table if crowded ({@link PerThreadTable}). Engine lock held. A thread whose slot stays another live thread's takes the slow path. */
    void install(LocalHistogram v) {
        LocalHistogram[] tab = PerThreadTable.makeRoom(table, v); // under the lock: written only under it
        if (tab != table) {
            TABLE.setRelease(this, tab); // pairing TABLE
        }
        PerThreadTable.place(tab, v);
    }

    /** Frees a terminated thread's slot unless install() gave it to another thread meanwhile. Collector, no lock; pairing TABLE. */
    void release(LocalHistogram v) {
        PerThreadTable.release((LocalHistogram[]) TABLE.getAcquire(this), v);
    }

    /** The table's length; for tests. */
    int tableLength() {
        return ((LocalHistogram[]) TABLE.getAcquire(this)).length;
    }

    /** The calling platform thread's view of this histogram (one per thread); this histogram on a virtual thread. */
    @Override
    public Histogram localView() {
        return writers.localView(this);
    }

    Writers writers() {
        return writers;
    }

    int hindex() {
        return hindex;
    }

    int gen() {
        return gen;
    }

    int bits() {
        return bits;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public HistogramPrecision precision() {
        return precision;
    }

    @Override
    public String toString() {
        return "Histogram[" + name + "]";
    }
}
