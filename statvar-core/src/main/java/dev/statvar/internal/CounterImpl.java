package dev.statvar.internal;

import dev.statvar.Counter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A registered counter, for any thread: a platform thread adds to its own {@link CounterCell}
 * of this counter, found in this counter's table of cells (no lock, no locked instruction); a
 * virtual thread, or a thread whose slot another live thread holds, takes the engine's slow path.
 * The table's design (slots, growth, release) is {@link PerThreadTable}'s; a hit is three
 * dependent loads from this handle: the table, the cell, the value.
 */
final class CounterImpl implements Counter {
    private static final VarHandle TABLE;
    private static final VarHandle CELLS = MethodHandles.arrayElementVarHandle(CounterCell[].class);

    static {
        try {
            TABLE = MethodHandles.lookup().findVarHandle(CounterImpl.class, "table", CounterCell[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Engine engine;
    final String name;
    /** Its registration index (the index of its cell in a Block's counters). */
    final int index;
    /** Its place in the virtual threads' stripes. */
    final int vloc;
    /** Thread id &amp; (length - 1) to that thread's cell. Written under the engine lock (setRelease); pairing CELLTABLE. */
    private CounterCell[] table;

    CounterImpl(Engine engine, String name, int index, int vloc) {
        this.engine = engine;
        this.name = name;
        this.index = index;
        this.vloc = vloc;
        TABLE.setRelease(this, new CounterCell[PerThreadTable.INITIAL]); // pairing CELLTABLE
    }

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
        CounterCell[] tab = (CounterCell[]) TABLE.getAcquire(this); // pairing CELLTABLE
        CounterCell c = (CounterCell) CELLS.getAcquire(tab, PerThreadTable.slot(t, tab.length)); // pairing CELLTABLE
        if (c != null && c.owner == t) {
            CounterCells.add(c, n);
            return;
        }
        engine.addSlow(this, t, n);
    }

    @SlowPath("bad input: builds the exception")
    static IllegalArgumentException negative(String name, long n) {
        return new IllegalArgumentException("counter '" + name + "': cannot add a negative amount (" + n + ")");
    }

    // ------------------------------------------------------------------ the table (slow paths and the collector)

    /** Puts {@code c} into its slot, growing the table if crowded ({@link PerThreadTable}). Engine lock held. A thread whose slot stays another live thread's takes the slow path. */
    void install(CounterCell c) {
        CounterCell[] tab = PerThreadTable.makeRoom(table, c); // under the lock: written only under it
        if (tab != table) {
            TABLE.setRelease(this, tab); // pairing CELLTABLE
        }
        PerThreadTable.place(tab, c);
    }

    /** Frees a terminated thread's slot unless install() gave it to another thread meanwhile. Collector, no lock; pairing CELLTABLE. */
    void release(CounterCell c) {
        PerThreadTable.release((CounterCell[]) TABLE.getAcquire(this), c);
    }

    /** The table's length; for tests. */
    int tableLength() {
        return ((CounterCell[]) TABLE.getAcquire(this)).length;
    }

    /** The calling platform thread's cell of this counter, which is its local view; this counter on a virtual thread. */
    @Override
    public Counter localView() {
        return engine.localView(this);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return "Counter[" + name + "]";
    }
}
