package dev.statvar.internal;

import dev.statvar.Counter;

/**
 * A registered counter: any thread, via the engine's thread-id table.
 *
 * <p>A record on purpose: C2 trusts the final fields of records, so for a counter held in a
 * {@code static final} field the cell offset becomes a constant in the compiled update
 * (see Engine's design comment).
 *
 * @param engine the engine of its registry
 * @param name   its name
 * @param index  its registration index
 * @param offset its cell in every per-thread array
 * @param limit  the array length that covers it
 * @param vloc   its place in the virtual threads' stripes
 */
record CounterImpl(Engine engine, String name, int index, int offset, int limit, int vloc) implements Counter {

    @Override
    public void add() {
        engine.add(offset, limit, vloc, 1);
    }

    @Override
    public void add(long n) {
        if (n < 0) {
            throw negative(name, n);
        }
        engine.add(offset, limit, vloc, n);
    }

    @SlowPath("bad input: builds the exception")
    static IllegalArgumentException negative(String name, long n) {
        return new IllegalArgumentException("counter '" + name + "': cannot add a negative amount (" + n + ")");
    }

    @Override
    public Counter localView() {
        long[] cells = engine.localCells(index);
        return cells == null ? this : new LocalCounter(this, Thread.currentThread(), cells);
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
