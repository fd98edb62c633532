package dev.statvar.internal;

/**
 * Memory layout of the per-thread cell arrays: the one place that knows the cache line size.
 *
 * <pre>
 *  index: 0 .. PAD-1     PAD        PAD+1   DATA_START ...                  length-PAD .. length-1
 *         [ padding   ][ OWNER_TID ][ EPOCH ][ stat cells, in registration order ][ padding        ]
 * </pre>
 *
 * <p>Every thread owns one such {@code long[]} per registry holding all of its stats side by
 * side (the seed's "combined statistics approach"): a thread touching ten counters touches
 * one or two cache lines. The padding at both ends keeps one thread's cells off the cache
 * lines of whatever object the allocator put next to the array.
 */
public final class Layout {
    /**
     * The cache line size assumed for padding, in bytes. 64 on x86-64 and most AArch64 parts.
     * Padding is {@link #FALSE_SHARING_BYTES}: two lines, because Intel's adjacent-line
     * prefetcher pulls lines in 128-byte pairs (the same choice as JCTools and Agrona).
     */
    public static final int CACHE_LINE_BYTES = 64;

    /** Distance kept between data of different threads: two cache lines. */
    public static final int FALSE_SHARING_BYTES = 2 * CACHE_LINE_BYTES;

    /** Padding at each end of a cell array, in longs. */
    public static final int PAD = FALSE_SHARING_BYTES / Long.BYTES;

    /** Header cell: id of the owning thread ({@code Thread.getId()}); written once before publication. */
    public static final int OWNER_TID = PAD;

    /** Header cell: the interval epoch, written by the collector, read by the writers of this array. */
    public static final int EPOCH = PAD + 1;

    /** First stat cell. */
    public static final int DATA_START = PAD + 2;

    /** Cells of a counter: one cumulative total. */
    public static final int COUNTER_CELLS = 1;

    // Gauge cells, relative to the gauge's offset.
    /** Cumulative number of reports. Stored last by the writer, with release. */
    public static final int G_COUNT = 0;
    /** Cumulative sum of reported values (wraps modulo 2^64). */
    public static final int G_SUM = 1;
    /** The current min/max slot (the writer's); the previous slot follows at {@code + G_SLOT_CELLS}. */
    public static final int G_SLOT0 = 2;
    /** Cells of one min/max slot: tag (the epoch it belongs to, 0 = never used), min, max. */
    public static final int G_SLOT_CELLS = 3;
    /** Within a slot: the epoch this slot's min/max belong to. */
    public static final int S_TAG = 0;
    /** Within a slot: the minimum. */
    public static final int S_MIN = 1;
    /** Within a slot: the maximum. */
    public static final int S_MAX = 2;
    /** Minimum of all retagged (older) slots, stored as {@code min ^ Long.MAX_VALUE} so that 0 means none. */
    public static final int G_CMIN = G_SLOT0 + 2 * G_SLOT_CELLS;
    /** Maximum of all retagged (older) slots, stored as {@code max ^ Long.MIN_VALUE} so that 0 means none. */
    public static final int G_CMAX = G_CMIN + 1;
    /** Cells of a gauge. */
    public static final int GAUGE_CELLS = G_CMAX + 1;

    // Histogram arrays: one per (thread, histogram), laid out as
    // [ padding ][ OWNER_TID ][ EPOCH ][ H_LO ][ H_LEN ][ gauge cells at H_STAT ][ H_LEN buckets ][ padding ]
    /** Histogram header: index of the first bucket held (fixed for the array's life). */
    public static final int H_LO = PAD + 2;
    /** Histogram header: number of buckets held; set to 0 when the array is replaced by a larger one. */
    public static final int H_LEN = PAD + 3;
    /** Histogram: sum and min/max cells, laid out like a gauge's (its G_COUNT cell is unused). */
    public static final int H_STAT = PAD + 4;
    /** Histogram: first bucket cell. */
    public static final int H_BUCKETS = H_STAT + GAUGE_CELLS;

    /** Smallest cell array: header plus padding plus one line of data. */
    static final int MIN_LENGTH = DATA_START + CACHE_LINE_BYTES / Long.BYTES + PAD;

    /** Encodes a minimum so that the all-zero cell means "no minimum". */
    static long encodeMin(long min) {
        return min ^ Long.MAX_VALUE;
    }

    static long decodeMin(long cell) {
        return cell ^ Long.MAX_VALUE;
    }

    /** Encodes a maximum so that the all-zero cell means "no maximum". */
    static long encodeMax(long max) {
        return max ^ Long.MIN_VALUE;
    }

    static long decodeMax(long cell) {
        return cell ^ Long.MIN_VALUE;
    }

    private Layout() {
    }
}
