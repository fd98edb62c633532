package dev.statvar.internal;

import java.util.HashMap;

/**
 * One platform thread's storage in one registry: its owner is the only writer of its stat
 * cells. Found through the engine's table (slot by thread id, checked by comparing
 * {@link #owner}, which no subclass of {@code Thread} can spoof) or its map of blocks by thread.
 */
final class Block extends PerThread {
    /**
     * The owner's gauge cells ({@link Layout}: the gauges at their offsets), {@link CellArrays#NONE}
     * until its first report. Replaced only by the owner while holding {@code Engine.lock}.
     * Read without a lock only by the owner (its own write); the collector reads it under
     * {@code Engine.lock}, or after the owner terminated.
     */
    long[] cells = CellArrays.NONE;
    /**
     * The owner's counter cells ({@link Layout}: one long per counter at {@code DATA_START} + its
     * counter index), {@link CellArrays#NONE} until its first add. Guarded as {@link #cells}.
     */
    long[] counters = CellArrays.NONE;
    /** Owner-only: slow-path calls, to retry installing into the tables (the engine's, a counter's, a histogram's) now and then. */
    int slowCalls;
    /**
     * Cell arrays of the owner's gauge local views, by stat index: one array per gauge holding just that
     * stat at {@link Layout#DATA_START}, so that a view writes at a constant index (see Engine).
     * Guarded by {@code Engine.lock}; null until the first view.
     */
    HashMap<Integer, long[]> views;
    /**
     * The owner's histogram arrays, by histogram index (null where not used yet); null until the
     * first record. The array and its elements are replaced only by the owner while holding
     * {@code Engine.lock} (elements with setRelease); read without a lock only by the owner, and
     * by the collector under the lock or after the owner terminated.
     */
    long[][] hists;
    /**
     * The owner's histogram views, by histogram index (null where not used yet); null until the
     * first record. Replaced (grown) only by the owner while holding the engine lock; read
     * without a lock only by the owner, and by the collector after the owner terminated.
     */
    LocalHistogram[] histViews;

    /** Owner-only: the owner's cold gauge reports this interval, by gauge index (the hot/cold rule). */
    final ColdCounts coldGauges = new ColdCounts();
    /** Owner-only: the owner's cold histogram records this interval, by histogram index. */
    final ColdCounts coldHistograms = new ColdCounts();

    Block(Thread owner) {
        super(owner);
    }
}
