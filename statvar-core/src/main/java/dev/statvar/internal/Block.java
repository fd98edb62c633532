package dev.statvar.internal;

import java.util.HashMap;

/** One platform thread's cell array: its owner is the only writer of its stat cells. */
final class Block {
    /** The owning platform thread. */
    final Thread owner;
    /**
     * The current cell array. Replaced only while holding {@code Engine.lock} (and, for a stripe,
     * the stripe lock), by the writing side. Read without a lock only by that writing side
     * (its own write); the collector reads it under {@code Engine.lock}.
     */
    long[] cells;
    /** Slot in the engine's lookup table, or -1. Guarded by {@code Engine.lock}. */
    int tableIndex = -1;
    /** Owner-only: slow-path calls, to retry installing into the table now and then. */
    int slowCalls;
    /**
     * Cell arrays of the owner's local views, by stat index: one array per stat holding just that
     * stat at {@link Layout#DATA_START}, so that a view writes at a constant index (see Engine).
     * Guarded by {@code Engine.lock}; null until the first view.
     */
    HashMap<Integer, long[]> views;
    /**
     * The owner's histogram arrays, by histogram index (null where not used yet); null until the
     * first record. The array and its elements are replaced only by the owner while holding
     * {@code Engine.lock}; elements are written with setRelease (read with getAcquire on the
     * update path); the collector reads them under the lock.
     */
    long[][] hists;

    Block(Thread owner, long[] cells) {
        this.owner = owner;
        this.cells = cells;
    }
}
