package dev.statvar.internal;

import java.util.HashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One cell array and who writes it: either a platform thread (its owner, the only writer of
 * its stat cells) or a stripe shared by virtual threads (writers hold {@link #stripeLock}).
 */
final class Block {
    /** The owning platform thread; null for a stripe. */
    final Thread owner;
    /** For a stripe: held by every writer. Null for a thread's block. */
    final ReentrantLock stripeLock;
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

    Block(Thread owner, ReentrantLock stripeLock, long[] cells) {
        this.owner = owner;
        this.stripeLock = stripeLock;
        this.cells = cells;
    }
}
