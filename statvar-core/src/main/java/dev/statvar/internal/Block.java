package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;

/**
 * One platform thread's storage in one registry: its owner is the only writer of its stat
 * cells. Found through the engine's table (slot by thread id, checked by comparing
 * {@link #owner}, which no subclass of {@code Thread} can spoof) or its map of blocks by thread.
 */
final class Block extends PerThread {
    private static final VarHandle COUNTERS;

    static {
        try {
            COUNTERS = MethodHandles.lookup().findVarHandle(Block.class, "counters", long[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The owner's gauge cells ({@link Layout}: the gauges at their offsets), {@link CellArrays#NONE}
     * until its first report. Replaced only by the owner while holding {@code Engine.lock}.
     * Read without a lock only by the owner (its own write); the collector reads it under
     * {@code Engine.lock}, or after the owner terminated.
     */
    long[] cells = CellArrays.NONE;
    /**
     * The owner's counter cells ({@link Layout}: one long per counter at {@code DATA_START} + its
     * counter index), {@link CellArrays#NONE} until its first add. Replaced only by the owner,
     * holding {@code Engine.lock}, with {@link #publishCounters} (release); read plain by the
     * owner (its own write), and by the collector with {@link #countersAcquire}, no lock.
     */
    long[] counters = CellArrays.NONE;
    /**
     * How far the registered gauges / counters reached when {@link #cells} / {@link #counters}
     * was last made or grown ({@code CellArrays.grownLength}: room beyond the registered stats only
     * if more were registered since). Owner-only, written and read under {@code Engine.lock}.
     */
    int cellsGrownAt;
    int countersGrownAt;
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
    /**
     * The owner's counter views, by counter index (null where none was asked for); null until the
     * first. Owner-only: made and read by the owner, which repoints them when its counter array
     * is replaced.
     */
    LocalCounter[] counterViews;

    /** Owner-only: the owner's cold gauge reports this interval, by gauge index (the hot/cold rule). */
    final ColdCounts coldGauges = new ColdCounts();
    /** Owner-only: the owner's cold histogram records this interval, by histogram index. */
    final ColdCounts coldHistograms = new ColdCounts();

    Block(Thread owner) {
        super(owner);
    }

    /** The owner replaces its counter array (a longer copy). Release: pairing COUNTERS, with {@link #countersAcquire}. */
    void publishCounters(long[] c) {
        COUNTERS.setRelease(this, c);
    }

    /**
     * The collector's read of the counter array, without the engine lock: this array or a later
     * copy (every copy holds the cells' values at the copy, and the owner then writes only the
     * copy), so a thread's totals read by successive collects never go back. Acquire: pairing
     * COUNTERS, with {@link #publishCounters}.
     */
    long[] countersAcquire() {
        return (long[]) COUNTERS.getAcquire(this);
    }
}
