package dev.statvar.internal;

import dev.statvar.Counter;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A registered counter, for any thread: a platform thread adds to its own {@link CounterCell}
 * of this counter, found in this counter's table of cells (no lock, no locked instruction); a
 * virtual thread, or a thread whose slot another live thread holds, takes the engine's slow path.
 *
 * <pre>
 * Design
 * ------
 * The table maps (thread id &amp; (length - 1)) to that thread's cell of this counter; the owner
 * is compared by reference, so a Thread subclass overriding getId() (JDK 17-18) can at worst
 * collide, never write another thread's cell. Hit: the table, the cell, the value (three
 * dependent loads from this handle). The table lives in the handle, not behind the engine, to
 * save one more (ThreadLookupBenchmark). It is written only under the engine lock (install,
 * grow: setRelease) and read on the update path with getAcquire (pairing CELLTABLE); the
 * collector clears a dead thread's slot with a CAS, which fails if install() gave the slot to
 * another thread meanwhile.
 *
 * install() takes a free slot or one a terminated thread holds. When the slot is held by a live
 * thread and more than half of the slots hold live threads' cells (counted then, under the lock:
 * collisions are rare), the table doubles (to MAX_TABLE); a cell that still collides stays out,
 * its thread adds through its Block (ThreadTable.counterCell, no lock) and retries installing
 * every few hundred such adds. A dead thread's cell copied by a grow racing the collector's
 * release stays in the new table until install() reuses the slot (it holds the dead Thread; at
 * most one per slot).
 * </pre>
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

    static final int INITIAL_TABLE = 16;
    static final int MAX_TABLE = 1 << 16;

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
        TABLE.setRelease(this, new CounterCell[INITIAL_TABLE]); // pairing CELLTABLE
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
        CounterCell c = (CounterCell) CELLS.getAcquire(tab, slot(t, tab.length)); // pairing CELLTABLE
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

    private static int slot(Thread t, int length) {
        return (int) Threads.id(t) & (length - 1);
    }

    // ------------------------------------------------------------------ the table (slow paths and the collector)

    /**
     * Puts {@code c} into its slot if free or held by a terminated thread, first doubling a table
     * more than half full of live threads' cells. Engine lock held.
     *
     * @return whether {@code c} is in the table
     */
    boolean install(CounterCell c) {
        CounterCell[] tab = table; // under the lock: written only under it
        int i = slot(c.owner, tab.length);
        CounterCell cur = tab[i];
        if (cur == c) {
            return true;
        }
        if (cur != null && cur.owner.isAlive()) {
            if (tab.length >= MAX_TABLE || 2 * liveCells(tab) <= tab.length) {
                return false;
            }
            tab = grow(tab);
            i = slot(c.owner, tab.length);
            cur = tab[i];
            if (cur != null && cur.owner.isAlive()) {
                return false;
            }
        }
        CELLS.setRelease(tab, i, c); // pairing CELLTABLE
        return true;
    }

    private static int liveCells(CounterCell[] tab) {
        int n = 0;
        for (CounterCell x : tab) {
            if (x != null && x.owner.isAlive()) {
                n++;
            }
        }
        return n;
    }

    /** A table of twice the length holding the live threads' cells of {@code old} (distinct old slots map to distinct new ones). */
    private CounterCell[] grow(CounterCell[] old) {
        CounterCell[] tab = new CounterCell[2 * old.length];
        for (CounterCell x : old) {
            if (x != null && x.owner.isAlive()) {
                tab[slot(x.owner, tab.length)] = x; // plain: published by the setRelease below
            }
        }
        TABLE.setRelease(this, tab); // pairing CELLTABLE
        return tab;
    }

    /** Frees a terminated thread's slot unless install() gave it to another thread meanwhile. Collector, no lock; pairing CELLTABLE. */
    void release(CounterCell c) {
        CounterCell[] tab = (CounterCell[]) TABLE.getAcquire(this);
        CELLS.compareAndSet(tab, slot(c.owner, tab.length), c, null);
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
