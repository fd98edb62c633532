package dev.statvar.lab.counters.baseline;

/** The article's client-side counter. */
public abstract class Counter {
    public abstract void add(long increment);

    public void add() {
        add(1);
    }

    /**
     * A view of this counter for the calling thread (the article's {@code getThreadLocalView()});
     * counters without thread-local views return themselves.
     */
    public Counter getThreadLocalView() {
        return this;
    }
}
