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
 * EPOCH). It is read by writers in {@code GaugeCells.minMax}. OWNER_TID is written once, in
 * {@link #create}, and only read by people debugging a heap dump.
 */
final class CellArrays {
    /** Element access to cell arrays. */
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Element access to arrays of cell arrays (stripe segments, histogram slots). */
    static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[][].class);

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
     * The collector's switch of {@code c} to interval {@code next}, under the engine lock.
     * Volatile: ordered before the collector's reads of the array that follow. Pairing EPOCH:
     * with getOpaque(EPOCH) in {@code GaugeCells.minMax}.
     */
    static void switchEpoch(long[] c, long next) {
        LONGS.setVolatile(c, Layout.EPOCH, next);
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
