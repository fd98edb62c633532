package dev.statvar.internal;

import java.util.Arrays;

import static dev.statvar.internal.CellArrays.LONGS;
import static dev.statvar.internal.CellArrays.SLOTS;

/**
 * The histogram cell protocol, writer half beside reader half. One array per (writer,
 * histogram), laid out as {@link Layout}'s H_*: header, a gauge's sum and min/max cells at
 * {@code H_STAT}, then the buckets of the octaves this writer has recorded, {@code H_LO ..
 * H_LO + H_LEN}.
 *
 * <pre>
 * Protocol
 * --------
 * A record (single writer: the owner thread, or a stripe's lock holder): bucket index =
 * LogLinear.index(v) (one LZCNT, shifts); range check against H_LO/H_LEN; min/max
 * (MinMaxSlots.update, numbering records by the writer-only RECORDS cell, stored last); opaque
 * store of the sum; release store of the bucket (pairing BUCKET).
 * The collector reads the buckets with acquire, from the highest to the lowest, then the sum: the
 * sum and min/max of every counted record are visible. A record racing the read may be in this
 * interval's sum and the next interval's buckets, never lost or doubled. The count is the sum of
 * the bucket deltas, so count and buckets always agree. Reading downwards, a read that counts a
 * record also counts every earlier record of the same writer in the same or a lower bucket (the
 * record's release store orders them before it; the lower buckets are read after its acquire):
 * so a writer whose values only grow has a prefix of its records in each interval. Reading
 * upwards, a record stored into a bucket just after its read could be missed while a later one
 * in the next bucket up was counted (MinMaxExactnessTest's check (r) saw it twice in 101,918
 * intervals).
 *
 * A value outside the range: the writer, under the engine lock, copies its array into one that
 * also covers the new octave ({@link #cover}), sets the old array's H_LEN to 0 so that a local
 * view still holding it falls to the slow path, and publishes the new one (pairing HISTARRAY).
 * </pre>
 */
final class HistogramCells {
    /**
     * A histogram array holding no bucket: a record into it always takes the slow path. Never
     * written ({@link #record} checks the range before any store).
     */
    static final long[] NO_BUCKETS = new long[Layout.H_BUCKETS + Layout.PAD];

    /**
     * The writer's own count of its records (the H_STAT gauge cells' G_COUNT): what MinMaxSlots
     * numbers them by. Writer-only, plain; the collector counts the buckets instead.
     */
    private static final int RECORDS = Layout.H_STAT + Layout.G_COUNT;

    private HistogramCells() {
    }

    // ------------------------------------------------------------------ writer half

    /**
     * Records {@code v} into an array the caller may write (its own, or a stripe's under its lock).
     *
     * @return false, having stored nothing, if {@code v}'s bucket is outside the array's range
     */
    static boolean record(long[] c, int bits, long v) {
        // H_LO and H_LEN: written by the writing side itself (or before publication).
        int i = LogLinear.index(v, bits) - (int) c[Layout.H_LO];
        if (Integer.compareUnsigned(i, (int) c[Layout.H_LEN]) >= 0) {
            return false;
        }
        if (Broken.BUCKET_FIRST) { // test-only switch: BUCKET_FIRST publishes the bucket before the min/max and sum
            LONGS.setRelease(c, Layout.H_BUCKETS + i, c[Layout.H_BUCKETS + i] + 1);
        }
        MinMaxSlots.update(c, Layout.H_STAT, v, 0); // numbers records by RECORDS (H_STAT's G_COUNT)
        // Single writer: plain reads of our own cells, opaque store of the sum. Pairing BUCKET (the sum's half).
        LONGS.setOpaque(c, Layout.H_STAT + Layout.G_SUM, c[Layout.H_STAT + Layout.G_SUM] + v);
        // Release: the sum and min/max stores are visible to whoever sees this bucket count. Pairing BUCKET.
        if (!Broken.BUCKET_FIRST) { // test-only switch: see above
            LONGS.setRelease(c, Layout.H_BUCKETS + i, c[Layout.H_BUCKETS + i] + 1);
        }
        c[RECORDS]++; // writer-only cell
        return true;
    }

    /** {@code hs}, or a copy long enough to hold histogram {@code hindex}. Under the engine lock. */
    static long[][] slots(long[][] hs, int hindex) {
        if (hs != null && hindex < hs.length) {
            return hs;
        }
        int n = Math.max(hindex + 1, Math.max(4, hs == null ? 0 : 2 * hs.length));
        return hs == null ? new long[n][] : Arrays.copyOf(hs, n);
    }

    /**
     * The array of histogram {@code hindex} (slot generation {@code gen}) in {@code hs}, created or
     * replaced so that it covers bucket {@code index} (whole octaves: 2^bits buckets), and
     * published in {@code hs}. An array of another generation (a removed histogram's, whose slot
     * {@code gen} reuses) is left to its old writers and replaced by a new one. Under the engine
     * lock: the copy excludes the collector's writes (EPOCH, G_SEEN); the caller is the only writer
     * of the other cells.
     */
    static long[] cover(long[][] hs, int hindex, int index, int bits, int gen, long ownerTid, long epoch) {
        long[] old = hs[hindex];
        if (old != null && old[Layout.H_GEN] != gen) {
            old = null; // another generation's: never written for this one
        }
        int octave = 1 << bits;
        int from = index & -octave;
        int to = from + octave;
        if (old != null) {
            int olo = (int) old[Layout.H_LO];
            int ohi = olo + (int) old[Layout.H_LEN];
            if (index >= olo && index < ohi) {
                return old;
            }
            from = Math.min(from, olo);
            to = Math.max(to, ohi);
        }
        long[] c = CellArrays.create(Layout.H_BUCKETS + (to - from) + Layout.PAD, ownerTid, epoch);
        if (old != null) {
            int olo = (int) old[Layout.H_LO];
            int olen = (int) old[Layout.H_LEN];
            // the header (EPOCH included), the sum and min/max cells, then the buckets, shifted
            System.arraycopy(old, Layout.OWNER_TID, c, Layout.OWNER_TID, Layout.H_BUCKETS - Layout.OWNER_TID);
            System.arraycopy(old, Layout.H_BUCKETS, c, Layout.H_BUCKETS + olo - from, olen);
            old[Layout.H_LEN] = 0; // a local view still holding the old array now falls to the slow path
        }
        c[Layout.H_LO] = from;
        c[Layout.H_LEN] = to - from;
        c[Layout.H_GEN] = gen;
        // Pairing HISTARRAY: publishes the array to the owner's later reads and its local views.
        SLOTS.setRelease(hs, hindex, c);
        return c;
    }

    /**
     * An array covering bucket {@code index} that no one reads: where a reclaimed histogram's
     * records go (its slot belongs to another histogram now). Published to nobody but its caller.
     */
    static long[] unread(int index, int bits) {
        int octave = 1 << bits;
        long[] c = CellArrays.create(Layout.H_BUCKETS + octave + Layout.PAD, -1, 0);
        c[Layout.H_LO] = index & -octave;
        c[Layout.H_LEN] = octave;
        c[Layout.H_GEN] = -1;
        return c;
    }

    /**
     * Whether {@code c} holds the records of the histogram registered in its slot as {@code s}:
     * made for that generation. The collector reads only such arrays, and sweeps the others.
     */
    static boolean ownedBy(long[] c, Stat s) {
        return s != null && c[Layout.H_GEN] == s.gen;
    }

    // ------------------------------------------------------------------ reader half (the collector)

    /**
     * Adds the cumulative bucket counts of {@code c} to {@code into} and returns their total.
     * Under the engine lock (the range is fixed then), or after the writer terminated.
     */
    static long readBuckets(long[] c, BucketCounts into) {
        int lo = (int) c[Layout.H_LO]; // fixed for the array's life; H_LEN changes only under the lock
        int len = (int) c[Layout.H_LEN];
        into.ensure(lo, lo + len);
        long count = 0;
        for (int j = len - 1; j >= 0; j--) { // downwards: see the protocol
            int k = Broken.BUCKETS_UPWARD ? len - 1 - j : j; // test-only switch: BUCKETS_UPWARD reads upwards
            // Acquire: the sum and min/max of every record counted here, and the writer's earlier
            // bucket stores, are visible below. Pairing BUCKET.
            long n = (long) LONGS.getAcquire(c, Layout.H_BUCKETS + k);
            if (n != 0) {
                into.add(lo + k, n);
                count += n;
            }
        }
        return count;
    }

    /** The cumulative sum, read after {@link #readBuckets}. Pairing BUCKET: with the opaque store in {@link #record}. */
    static long readSum(long[] c) {
        return (long) LONGS.getOpaque(c, Layout.H_STAT + Layout.G_SUM);
    }
}
