package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * A counter bound to one platform thread. The owner writes its own one-stat cell array at the
 * constant index {@link Layout#DATA_START}; any other thread goes through the shared counter.
 */
final class LocalCounter implements Counter {
    private final CounterImpl shared;
    private final Thread owner;
    /** The owner's cells for this counter: written only by the owner, read by collect(). */
    private final long[] cells;

    LocalCounter(CounterImpl shared, Thread owner, long[] cells) {
        this.shared = shared;
        this.owner = owner;
        this.cells = cells;
    }

    @Override
    public void add() {
        if (Thread.currentThread() == owner || Broken.VIEW_ANY_THREAD) { // test-only switch: VIEW_ANY_THREAD skips the owner check
            CounterCells.add(cells, Layout.DATA_START, 1);
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
            CounterCells.add(cells, Layout.DATA_START, n);
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
