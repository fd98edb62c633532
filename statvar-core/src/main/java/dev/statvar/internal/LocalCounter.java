package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * A counter bound to one platform thread's block. Its owner updates its own cell directly;
 * any other thread goes through the shared counter.
 */
final class LocalCounter implements Counter {
    private final CounterImpl shared;
    private final Thread owner;
    private final Block block;
    private final int offset;
    private final int limit;

    LocalCounter(CounterImpl shared, Thread owner, Block block, int offset, int limit) {
        this.shared = shared;
        this.owner = owner;
        this.block = block;
        this.offset = offset;
        this.limit = limit;
    }

    @Override
    public void add() {
        add1(1);
    }

    @Override
    public void add(long n) {
        if (n < 0) {
            throw CounterImpl.negative(shared.name(), n);
        }
        add1(n);
    }

    private void add1(long n) {
        if (Thread.currentThread() == owner) {
            long[] c = block.cells; // the owner's own field: only the owner replaces it
            if (limit <= c.length) {
                Engine.addInto(c, offset, n);
                return;
            }
        }
        shared.add(n);
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
