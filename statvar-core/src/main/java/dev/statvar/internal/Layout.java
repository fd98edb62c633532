package dev.statvar.internal;

/**
 * Memory layout of the per-thread cell arrays: the one place that knows the cache line size.
 *
 * <pre>
 *  index: 0 .. PAD-1     PAD        PAD+1   DATA_START ...                  length-PAD .. length-1
 *         [ padding   ][ OWNER_TID ][ EPOCH ][ stat cells, in registration order ][ padding        ]
 * </pre>
 *
 * <p>Every thread owns up to two such {@code long[]} per registry: one holding all of its
 * counters side by side (one cell each, {@link #COUNTER_CELLS}) and one holding all of its gauges
 * ({@link #GAUGE_CELLS} each): the "combined statistics approach" of
 * "Statistical variables in Java: not quite legal but very fast" (2017), so a thread touching ten
 * counters touches one or two cache lines, and a (counter, thread) is one 8-byte cell, beside the
 * array's {@code DATA_START + PAD} cells of header and padding (LayoutTest checks these counts
 * against StatRegistry's "Memory"; MemoryPerThreadTest the retained heap). The padding at
 * both ends keeps one thread's cells off the cache lines of whatever object the allocator put
 * next to the array. The virtual threads' stripes lay counters and gauges out alike, together.
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

    // Gauge cells, relative to the gauge's offset (GaugeCells and MinMaxSlots have the protocols).
    /** Cumulative number of reports. Stored last by the writer, with release. */
    public static final int G_COUNT = 0;
    /** Cumulative sum of reported values (wraps modulo 2^64). */
    public static final int G_SUM = 1;
    /**
     * The current min/max slot's tag: the epoch its reports read; 0 before the first report,
     * {@code MinMaxSlots.MOVING} while the writer retags (the collector's seqlock).
     */
    public static final int G_TAG = 2;
    /** The current slot's minimum (the writer's, at a constant index). */
    public static final int G_MIN = 3;
    /** The current slot's maximum. */
    public static final int G_MAX = 4;
    /**
     * The previous slot's last report: the writer's cumulative count when it retagged (the
     * previous slot holds reports up to this number, the current slot those after it), with
     * {@code MinMaxSlots.ADJACENT} set when every report of the previous slot read the epoch just
     * before the current slot's.
     */
    public static final int G_PLAST = 5;
    /** The previous slot's minimum. */
    public static final int G_PMIN = 6;
    /** The previous slot's maximum. */
    public static final int G_PMAX = 7;
    /** The collector's cell: the cumulative count it attributed to an interval at its previous read (the writer reads it at a retag). */
    public static final int G_SEEN = 8;
    /** Cells of a gauge: 72 bytes. */
    public static final int GAUGE_CELLS = G_SEEN + 1;

    // Stripe segments (Stripes): laid out as a thread's array, each counter's or gauge's cells
    // followed by the collector's cell, and the segment's cards after the stat cells' padding:
    // [ padding ][ OWNER_TID ][ EPOCH ][ stat cells + collector cell, ... ][ padding ][ cards ][ padding ]
    /**
     * Stripes only: the cell after a counter's or gauge's cells, the collector's own: what it read
     * there last, a counter's total or a gauge's sum (a gauge's count at that read is its G_SEEN),
     * so that a stripe's cells need not be read again until they change (Stripes' cards).
     */
    public static final int STRIPE_COLLECTOR_CELLS = 1;
    /**
     * Stripes only: log2 of a card's cells. A card (one cell) says that a stat whose first cell is
     * among its 64 cells (512 bytes, 8 cache lines) was updated since the collector last read it.
     */
    public static final int CARD_SHIFT = 6;

    // Histogram arrays: one per (thread, histogram), laid out as
    // [ padding ][ OWNER_TID ][ EPOCH ][ H_LO ][ H_LEN ][ H_GEN ][ gauge cells at H_STAT ][ H_LEN buckets ][ padding ]
    /** Histogram header: index of the first bucket held (fixed for the array's life). */
    public static final int H_LO = PAD + 2;
    /** Histogram header: number of buckets held; set to 0 when the array is replaced by a larger one. */
    public static final int H_LEN = PAD + 3;
    /**
     * Histogram header: the generation of the histogram slot the array was made for (fixed for the
     * array's life): a removed histogram's slot is reused by a later one with the next generation,
     * and an array of another generation than the slot's owner is never written for it nor read.
     */
    public static final int H_GEN = PAD + 4;
    /**
     * Histogram: sum and min/max cells, laid out like a gauge's; its G_COUNT cell is the writer's
     * own count of its records (writer-only: the collector counts the buckets).
     */
    public static final int H_STAT = PAD + 5;
    /** Histogram: first bucket cell. */
    public static final int H_BUCKETS = H_STAT + GAUGE_CELLS;

    /** Smallest cell array: header plus padding plus one line of data. */
    static final int MIN_LENGTH = DATA_START + CACHE_LINE_BYTES / Long.BYTES + PAD;

    private Layout() {
    }
}
