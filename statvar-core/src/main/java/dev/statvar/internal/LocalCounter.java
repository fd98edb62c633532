package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * A counter bound to one platform thread (its local view): the owner adds to its own cell at a
 * constant index of its counter array, with no lookup; other threads go through the shared counter.
 * The owner's {@link Block} is held, not the array, because the array is replaced when it grows
 * (a counter registered later); the cell's index never changes and every array after the first
 * covers it.
 */
final class LocalCounter implements Counter {
    private final CounterImpl shared;
    private final Thread owner;
    private final Block block;
    private final int cell;

    /** A view of {@code shared} for {@code block}'s owner, whose counter array covers the counter already. */
    LocalCounter(CounterImpl shared, Block block) {
        this.shared = shared;
        this.owner = block.owner;
        this.block = block;
        this.cell = shared.cell();
    }

    @Override
    public void add() {
        if (Thread.currentThread() == owner || Broken.VIEW_ANY_THREAD) { // test-only switch: VIEW_ANY_THREAD skips the owner check
            CounterCells.add(block.counters, cell, 1); // owner-only field: our own write
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
            CounterCells.add(block.counters, cell, n);
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
