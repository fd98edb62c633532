package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * A counter bound to one platform thread (its local view): the owner adds to its own cell at a
 * constant index of the counter array it holds, with no lookup (the view, the array, the cell);
 * other threads go through the shared counter. One view per (thread, counter), kept in the
 * owner's {@link Block}: when the owner's counter array grows (a counter registered later), the
 * owner points every view it kept at the copy ({@link #cells}), so a view never writes an array
 * the collector no longer reads.
 */
final class LocalCounter implements Counter {
    private final CounterImpl shared;
    private final Thread owner;
    private final int cell;
    /** The owner's counter array. Owner-only field: set by the owner when its array is replaced (ThreadTable). */
    long[] cells;

    /** A view of {@code shared} for the owner of {@code counters}, which covers the counter already. */
    LocalCounter(CounterImpl shared, Thread owner, long[] counters) {
        this.shared = shared;
        this.owner = owner;
        this.cell = shared.cell();
        this.cells = counters;
    }

    @Override
    public void add() {
        if (Thread.currentThread() == owner || Broken.VIEW_ANY_THREAD) { // test-only switch: VIEW_ANY_THREAD skips the owner check
            CounterCells.add(cells, cell, 1); // owner-only field: our own write
        } else {
            shared.add(1);
        }
    }

    @Override
    public void add(long n) {
        if (n < 0) {
            throw CounterImpl.negative(shared.name(), n);
        }
        if (Thread.currentThread() == owner || Broken.VIEW_ANY_THREAD) { // test-only switch: see add()
            CounterCells.add(cells, cell, n);
        } else {
            shared.add(n);
        }
    }

    @Override
    public Counter localView() {
        return Thread.currentThread() == owner ? this : shared.localView();
    }

    @Override
    public String name() {
        return shared.name();
    }

    @Override
    public String toString() {
        return "Counter[" + shared.name() + ", local to " + owner.getName() + "]";
    }
}
