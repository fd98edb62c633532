package dev.statvar;

/**
 * A counter: the number of events, or the sum of non-negative amounts, per interval.
 *
 * <p>Thread-safe: any thread may call {@link #add()}; counts are never lost or counted twice.
 * On a platform thread an update is a plain read and an opaque store of a cell only that thread
 * writes (no CAS, no lock, no fence), found through a table indexed by thread id. Through
 * {@link #localView()} it also skips that lookup. On a virtual thread an update is one atomic
 * add to a shared, striped cell (virtual threads get no storage of their own).
 *
 * <p>For the fastest updates, keep a counter in a {@code static final} field (the JIT then folds
 * its cell offset into the instruction), or take a {@link #localView()} for a hot loop; the
 * figures of each path, per machine, are in docs/PERFORMANCE.md.
 *
 * <p>Obtain counters from {@link StatRegistry#counter(String)}.
 */
public interface Counter {
    /** Adds one. */
    void add();

    /**
     * Adds {@code n}.
     *
     * @param n the amount, {@code >= 0}
     * @throws IllegalArgumentException if {@code n} is negative
     */
    void add(long n);

    /**
     * A handle bound to the calling thread (the {@code getThreadLocalView()} of "Statistical
     * variables in Java: not quite legal but very fast", 2017; docs/ARTICLES.md): the fastest path
     * for hot loops (no lookup, just an owner check). Used from any other thread it still counts
     * correctly, through the ordinary path. On a virtual thread it returns this counter.
     *
     * @return the calling thread's view of this counter, or this counter on a virtual thread
     */
    Counter localView();

    /**
     * The counter's name.
     *
     * @return the name it was registered with (a family's name for a series of a {@link StatFamily})
     */
    String name();
}
