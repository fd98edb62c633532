package dev.statvar.internal;

import dev.statvar.Counter;

/** A registered counter: any thread, via the engine's thread-id table. */
public final class CounterImpl implements Counter {
    private final Engine engine;
    private final String name;
    private final int offset;
    private final int limit;

    public CounterImpl(Engine engine, String name, int offset, int limit) {
        this.engine = engine;
        this.name = name;
        this.offset = offset;
        this.limit = limit;
    }

    @Override
    public void add() {
        engine.add(offset, limit, 1);
    }

    @Override
    public void add(long n) {
        if (n < 0) {
            throw negative(name, n);
        }
        engine.add(offset, limit, n);
    }

    static IllegalArgumentException negative(String name, long n) {
        return new IllegalArgumentException("counter '" + name + "': cannot add a negative amount (" + n + ")");
    }

    @Override
    public Counter localView() {
        Object b = engine.localBlock(limit);
        return b == null ? this : new LocalCounter(this, Thread.currentThread(), (Block) b, offset, limit);
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
