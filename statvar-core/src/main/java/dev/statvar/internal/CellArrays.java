package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Creating, copying and switching the cell arrays of {@link Layout} (a thread's cells, a local
 * view's, a histogram's, a stripe segment): the one place that writes their header.
 *
 * <p>Who writes the EPOCH cell: {@link #create} before the array is published, {@link #copy}
 * (carrying it over, under the engine lock), and the collector's {@link #switchEpoch} (pairing
 * EPOCH). It is read by writers in {@code MinMaxSlots.update}. OWNER_TID is written once, in
 * {@link #create}, and only read by people debugging a heap dump.
 */
final class CellArrays {
    /** Element access to cell arrays. */
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Element access to arrays of cell arrays (stripe segments, histogram slots). */
    static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[][].class);

    /** The array of a thread that has no cells of a kind yet: too short for any stat, never written. */
    static final long[] NONE = new long[0];

    private CellArrays() {
    }

    /**
     * A new array of {@code length} cells whose header says: owned by the thread of id
     * {@code ownerTid} (-1: a stripe's) and in interval {@code epoch}. Plain stores: the array's
     * publication (a lock release or a setRelease of the reference) orders them.
     */
    static long[] create(int length, long ownerTid, long epoch) {
        long[] c = new long[length]; // allocated by the caller: for a thread's own arrays, in its TLAB
        c[Layout.OWNER_TID] = ownerTid;
        c[Layout.EPOCH] = epoch;
        return c;
    }

    /**
     * A longer copy of {@code old}, header, stat cells and collector cells (G_SEEN) included.
     * Under the engine lock, which excludes the collector's switch and reads (their stores to the
     * old array would otherwise be lost); the caller is the array's only other writer.
     */
    static long[] copy(long[] old, int length) {
        return Arrays.copyOf(old, length);
    }

    /**
     * {@code old} grown to cover {@code limit} cells, header included, or a new array owned by
     * {@code ownerTid} in interval {@code epoch} if {@code old} is {@link #NONE}. Under the engine
     * lock, as {@link #copy}. Length: {@link #grownLength}.
     */
    static long[] grow(long[] old, int limit, int extent, int grownAt, long ownerTid, long epoch) {
        int length = grownLength(old.length, limit, extent, grownAt);
        return old.length == 0 ? create(length, ownerTid, epoch) : copy(old, length);
    }

    /**
     * The length of an array of {@code old} cells grown to cover {@code limit}, when the stats of
     * its kind registered so far need {@code extent} and needed {@code grownAt} when the array was
     * last made or grown: twice the old length, but
     * <ul>
     *   <li>if no stat was registered since ({@code extent <= grownAt}: the thread is catching up
     *       with stats registered before its updates), no longer than the extent: no cell past the
     *       last stat;</li>
     *   <li>else at least 1.5 times the old length, even past the extent (stats registered one by
     *       one between updates: amortised O(1) per cell, not a copy per registration);</li>
     * </ul>
     * never less than {@code limit} or {@link Layout#MIN_LENGTH}. (Before the first case existed,
     * the 1.5 floor also applied while catching up: a last growth past the extent by up to half
     * the array, 47 % for 5,000 gauges reported in registration order: docs/PERFORMANCE.md.)
     */
    static int grownLength(int old, int limit, int extent, int grownAt) {
        int length = extent > grownAt
                ? Math.min(2 * old, Math.max(extent, old + old / 2))
                : Math.min(2 * old, extent);
        return Math.max(Layout.MIN_LENGTH, Math.max(limit, length));
    }

    /**
     * The collector's switch of {@code c} to interval {@code next}, under the engine lock.
     * Volatile: ordered before the collector's reads of the array that follow. Pairing EPOCH:
     * with getOpaque(EPOCH) in {@code MinMaxSlots.update}.
     */
    static void switchEpoch(long[] c, long next) {
        if (c.length != 0) { // NONE has no header
            LONGS.setVolatile(c, Layout.EPOCH, next);
        }
    }

    /** {@link #switchEpoch} of every array in {@code arrays} (a writer's histogram arrays; null entries skipped). */
    static void switchEpoch(long[][] arrays, long next) {
        if (arrays != null) {
            for (long[] c : arrays) {
                if (c != null) {
                    switchEpoch(c, next);
                }
            }
        }
    }
}
