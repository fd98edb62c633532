package dev.statvar.internal;

import java.lang.invoke.VarHandle;

import static dev.statvar.internal.CellArrays.LONGS;
import static dev.statvar.internal.CellArrays.SLOTS;

/**
 * The cells of virtual threads: a few stripes (2 x cores, a power of two) shared by all of them,
 * a virtual thread's home stripe chosen by its id. Any virtual thread writes; the collector reads.
 *
 * <pre>
 * Design
 * ------
 * Virtual threads get no storage of their own (there may be millions). A stripe's counter and
 * gauge cells live in segments laid out like a thread's array, created on first use and never
 * moved: segment capacities double (FIRST_SEGMENT_CELLS, up to MAX_SEGMENT_CELLS) and no stat
 * straddles two, so a stat's place is (segment, index) = its vloc, fixed at registration
 * ({@link #place}). Nothing can be lost to a copy.
 *
 * Counter: one atomic add on the home stripe (LongAdder-class; pairing COUNT). Gauge report and
 * histogram record: under the stripe's ReentrantLock (which parks and does not pin a carrier),
 * trying the home stripe, then any free one, then parking on home; the lock holder is then the
 * array's single writer, so the gauge and histogram protocols hold unchanged. A stripe's
 * histogram arrays are created and grown under the engine lock as well (the collector reads them
 * under it).
 *
 * Guards: segments[k] written once, under the engine lock, with setRelease (pairing SEGMENT);
 * the layout fields below under the engine lock; Stripe.hists by holders of the stripe lock that
 * also hold the engine lock, read by stripe-lock holders and by the collector under the engine lock.
 *
 * Cards: the collector reads only what changed. Most stats in the stripes are cold (updated now
 * and then by threads that have no copy of their own), so most of their cells are the same at the
 * next collect; reading them all cost every collect O(stats x stripes) reads. A segment
 * ends with one card cell per 2^CARD_SHIFT cells (Layout). A writer, after its stores to a
 * stat's cells, marks the card of the stat's first cell: after a synchronization action (a
 * counter's atomic add, a gauge writer's unlock of its stripe), a volatile load of the card, and
 * a store only if it is clean. The collector, under the engine lock, takes a segment's dirty
 * cards (loads, and stores clearing them), then a full fence, then reads only the stats whose
 * card was dirty. Dekker's pattern (pairing CARD): with a full fence between each side's store
 * and load, either the collector's read sees the writer's stores, or the writer's load of the
 * card comes after the clear and it marks the card again for the next collect; never neither.
 * (A writer's synchronization action followed by a volatile load is that fence: both are in
 * the JLS 17.4.4 synchronization order, whose implementations put a StoreLoad barrier between.)
 * So a clean card means that every cell under it is as the collector last read it.
 *
 * What the collector does not read, it must still count: it keeps in each stat's collector cell
 * (Layout.STRIPE_COLLECTOR_CELLS) what it read last (a counter's total, a gauge's sum; a gauge's
 * count is its G_SEEN already), and adds only the difference to the stat's settled totals
 * (IntervalCloser.readStripe). A gauge's min/max slots need no read either: a clean gauge's count
 * equals its G_SEEN, for which MinMaxSlots.read reads nothing. A removed stat's cells are read
 * like any other's when their card is dirty (late updates through a handle still held), so the
 * collect that reclaims its slot finds every update in its settled totals.
 *
 * Cost: a writer's load of the card (no fence of its own: the lock or the atomic add has it);
 * per stat 8 bytes per stripe (its collector cell) and 1/64 of a cell per cell for the cards.
 * </pre>
 */
final class Stripes {
    /** A stat's place in the stripes: {@code segment << VLOC_SHIFT | index in the segment}. */
    static final int VLOC_SHIFT = 25;
    private static final int VLOC_MASK = (1 << VLOC_SHIFT) - 1;
    /** Cells of the first stripe segment; each next one doubles, up to MAX_SEGMENT_CELLS. */
    private static final int FIRST_SEGMENT_CELLS = 64;
    private static final int MAX_SEGMENT_CELLS = 1 << 24;
    /** A card's value: a stat under it was updated since the collector last took the card. */
    private static final long DIRTY = 1;

    private final Object engineLock;
    private final Epoch epoch;
    /** Final, created once. */
    private final Stripe[] stripes;

    // ---- guarded by the engine lock ----
    /** Segments defined so far: first offset (in the stripes' layout), capacity in cells, first stat. */
    private int segmentCount;
    private final int[] segmentStart = new int[Stripe.MAX_SEGMENTS];
    private final int[] segmentFirstStat = new int[Stripe.MAX_SEGMENTS];
    /** Test-only ({@link Broken#CARDS_CLEARED_LAST}): the cards the last read took, to clear at the next. */
    private final java.util.List<Object[]> clearLate = new java.util.ArrayList<>();

    Stripes(Object engineLock, Epoch epoch) {
        this.engineLock = engineLock;
        this.epoch = epoch;
        int n = Math.max(2, Integer.highestOneBit(2 * Runtime.getRuntime().availableProcessors() - 1) << 1);
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(); // published by the final field
        }
    }

    /** Cells a stat of {@code cells} cells takes in a stripe segment: its own and the collector's ({@link Layout#STRIPE_COLLECTOR_CELLS}). */
    static int stripeCells(int cells) {
        return cells + Layout.STRIPE_COLLECTOR_CELLS;
    }

    /**
     * The place of a new counter or gauge of {@code cells} cells at {@code offset} of the stripes'
     * layout (counters and gauges side by side, from {@link Layout#DATA_START}; {@code cells}
     * from {@link #stripeCells}), the {@code statIndex}-th stat: in the last segment if it fits,
     * else in a new one. Under the engine lock.
     */
    int place(int offset, int cells, int statIndex) {
        int k = segmentCount - 1;
        if (k < 0 || offset + cells > segmentStart[k] + capacity(k)) {
            k = segmentCount++; // a new segment: no stat straddles two
            segmentStart[k] = offset;
            segmentFirstStat[k] = statIndex;
        }
        return k << VLOC_SHIFT | (Layout.DATA_START + offset - segmentStart[k]);
    }

    /** Stat cells of segment {@code k} (a power of two, at least 2^CARD_SHIFT). */
    private static int capacity(int k) {
        return Math.min(FIRST_SEGMENT_CELLS << Math.min(k, 20), MAX_SEGMENT_CELLS);
    }

    /** The first card cell of segment {@code k}: after its stat cells and their padding. */
    private static int firstCard(int k) {
        return Layout.DATA_START + capacity(k) + Layout.PAD;
    }

    /** The card cell of the stat at {@code vloc}: the one covering its first cell. */
    static int card(int vloc) {
        return firstCard(vloc >>> VLOC_SHIFT) + (((vloc & VLOC_MASK) - Layout.DATA_START) >>> Layout.CARD_SHIFT);
    }

    /**
     * Marks the card of the stat at {@code vloc} in {@code seg} dirty, after the caller's stores to
     * the stat's cells and a synchronization action after them (an atomic add, an unlock).
     * Pairing CARD: that action and this volatile load are in the synchronization order, so the
     * stores come before the load, as the collector's fence orders its clear before its reads of
     * the cells ({@link #read}).
     */
    private static void mark(long[] seg, int vloc) {
        int card = card(vloc);
        if ((long) LONGS.getVolatile(seg, card) != DIRTY) { // pairing CARD; no store when dirty already: most updates
            LONGS.setOpaque(seg, card, DIRTY);
        }
    }

    // ------------------------------------------------------------------ writers (virtual threads)

    /**
     * A virtual thread's counter add: an atomic add on its home stripe, then its card. The atomic
     * add is a volatile read-modify-write: ordered before the card's volatile load without a
     * fence of its own (pairing CARD).
     */
    void add(Thread t, int vloc, long n) {
        long[] seg = segment(stripes[home(t)], vloc >>> VLOC_SHIFT);
        CounterCells.addShared(seg, vloc & VLOC_MASK, n);
        mark(seg, vloc);
    }

    /**
     * A virtual thread's (or a cold platform thread's) gauge report, holding a stripe's lock, then
     * its card. The unlock is a synchronization action (Lock's javadoc: the memory effects of a
     * monitor's Unlock), as is the card's volatile load after it: ordered without a fence of
     * their own (pairing CARD).
     */
    void report(Thread t, int vloc, long v) {
        Stripe s = lock(t);
        long[] seg;
        try {
            seg = segment(s, vloc >>> VLOC_SHIFT);
            GaugeCells.report(seg, vloc & VLOC_MASK, v);
        } finally {
            s.lock.unlock();
        }
        mark(seg, vloc);
    }

    /**
     * A virtual thread's (or a cold platform thread's) histogram record, holding a stripe's lock
     * (and the engine lock to make or grow its array). Only an array of {@code h}'s generation is
     * written ({@link Layout#H_GEN}: it was made under the engine lock while {@code h} held the
     * slot, and the stripe lock orders that before this read); a reclaimed {@code h}'s record is dropped.
     */
    void record(Thread t, HistogramImpl h, long v) {
        int hindex = h.hindex();
        int bits = h.bits();
        Stripe s = lock(t);
        try {
            long[][] hs = s.hists; // written only by holders of s.lock (elements swept by the collector under the engine lock)
            long[] c = hs != null && hindex < hs.length ? hs[hindex] : null;
            if (c == null || c[Layout.H_GEN] != h.gen() && !Broken.REUSE_HELD || !HistogramCells.record(c, bits, v)) {
                synchronized (engineLock) { // the collector reads stripes' histogram arrays under it
                    if (h.reclaimed && !Broken.REUSE_HELD) { // test-only switch: REUSE_HELD writes into the slot's arrays regardless
                        return; // its slot is another histogram's now: dropped
                    }
                    s.hists = hs = HistogramCells.slots(s.hists, hindex);
                    int gen = Broken.REUSE_HELD && hs[hindex] != null ? (int) hs[hindex][Layout.H_GEN] : h.gen();
                    c = HistogramCells.cover(hs, hindex, LogLinear.index(v, bits), bits, gen, -1, epoch.current());
                }
                if (!HistogramCells.record(c, bits, v)) {
                    throw new AssertionError("histogram array does not cover " + v);
                }
            }
        } finally {
            s.lock.unlock();
        }
    }

    /** The home stripe of a virtual thread: its id, hashed. */
    private int home(Thread t) {
        return (int) ((Threads.id(t) * 0x9E3779B97F4A7C15L) >>> 40) & (stripes.length - 1);
    }

    /** Locks a stripe for the calling virtual thread: its home stripe, or any free one, else parks on home. */
    private Stripe lock(Thread t) {
        int mask = stripes.length - 1;
        int home = home(t);
        for (int i = 0; i <= mask; i++) {
            Stripe s = stripes[(home + i) & mask];
            if (s.lock.tryLock()) {
                return s;
            }
        }
        Stripe s = stripes[home];
        s.lock.lock(); // parks
        return s;
    }

    /** Segment {@code k} of a stripe, created on first use. */
    private long[] segment(Stripe s, int k) {
        long[] seg = (long[]) SLOTS.getAcquire(s.segments, k); // pairing SEGMENT
        return seg != null ? seg : newSegment(s, k);
    }

    private long[] newSegment(Stripe s, int k) {
        synchronized (engineLock) { // the collector switches and reads segments under it
            long[] seg = s.segments[k];
            if (seg == null) {
                int cards = capacity(k) >>> Layout.CARD_SHIFT;
                seg = CellArrays.create(firstCard(k) + cards + Layout.PAD, -1, epoch.current());
                SLOTS.setRelease(s.segments, k, seg); // pairing SEGMENT
            }
            return seg;
        }
    }

    // ------------------------------------------------------------------ the collector (under the engine lock)

    /** Switches every stripe array to interval {@code next}. */
    void switchEpoch(long next) {
        for (Stripe s : stripes) {
            CellArrays.switchEpoch(s.hists, next);
            for (int k = 0; k < segmentCount; k++) {
                long[] seg = s.segments[k]; // under the engine lock: written only under it
                if (seg != null) {
                    CellArrays.switchEpoch(seg, next);
                }
            }
        }
    }

    /**
     * Drops the stripes' arrays of histogram slot {@code hindex}, generation {@code gen} (a removed
     * histogram's, delivered). Under the engine lock, which excludes the making of an array of the
     * slot's next generation; a stripe writer racing this checks the generation of the array it read.
     */
    void sweep(int hindex, int gen) {
        for (Stripe s : stripes) {
            long[][] hs = s.hists; // under the engine lock: replaced only under it
            if (hs != null && hindex < hs.length && hs[hindex] != null && hs[hindex][Layout.H_GEN] == gen) {
                SLOTS.setRelease(hs, hindex, null);
            }
        }
    }

    /**
     * Reads every stripe array into {@code closer}: the histograms, and of the first {@code n}
     * stats of {@code stats} the cells whose card is dirty ({@link IntervalCloser#readStripe}: what
     * they gained since their last read). Each stat's registration record is visited once per
     * segment with a dirty card. Removed stats are read too (the class comment says why).
     */
    void read(StatList stats, int n, Stat[] histograms, IntervalCloser closer, long closing) {
        if (Broken.CARDS_CLEARED_LAST) { // test-only switch: clears the cards the previous read took, long after its reads
            for (Object[] late : clearLate) {
                boolean[] d = (boolean[]) late[2];
                for (int c = 0; c < d.length; c++) {
                    if (d[c]) {
                        LONGS.setOpaque((long[]) late[0], (int) late[1] + c, 0L);
                    }
                }
            }
            clearLate.clear();
        }
        for (Stripe s : stripes) {
            closer.readHistograms(s.hists, histograms, closing); // s.hists is replaced only under the engine lock
        }
        for (int k = 0; k < segmentCount; k++) {
            long[][] seg = new long[stripes.length][];
            boolean[][] dirty = new boolean[stripes.length][];
            boolean any = false;
            for (int j = 0; j < stripes.length; j++) {
                seg[j] = stripes[j].segments[k]; // under the engine lock: written only under it
                if (seg[j] != null) {
                    dirty[j] = takeCards(seg[j], k, !Broken.CARDS_CLEARED_LAST); // test-only switch: clears them after the reads
                    any |= dirty[j] != null;
                }
            }
            if (!any) {
                continue; // nothing under any card changed since the last read
            }
            VarHandle.fullFence(); // the clears above before the reads below; pairing CARD
            for (int i = segmentFirstStat[k]; i < n; i++) {
                Stat st = stats.get(i);
                if (st.kind == dev.statvar.StatKind.HISTOGRAM) {
                    continue; // not in the segments
                }
                if (st.vloc >>> VLOC_SHIFT != k) {
                    break;
                }
                int at = st.vloc & VLOC_MASK;
                int card = (at - Layout.DATA_START) >>> Layout.CARD_SHIFT; // as card(vloc), counted from the first card
                for (int j = 0; j < seg.length; j++) {
                    if (dirty[j] != null && dirty[j][card]) {
                        closer.readStripe(seg[j], at, st, closing);
                    }
                }
            }
            if (Broken.CARDS_CLEARED_LAST) { // test-only switch: these cards are cleared at the next read
                for (int j = 0; j < seg.length; j++) {
                    if (dirty[j] != null) {
                        clearLate.add(new Object[]{seg[j], firstCard(k), dirty[j]});
                    }
                }
            }
        }
    }

    /**
     * Takes segment {@code k}'s dirty cards in {@code seg}: clears them (opaque stores; the caller's
     * fence orders them before its reads of the cells) and says which they were; null if none.
     * {@code clear} is false only for the test-only switch {@link Broken#CARDS_CLEARED_LAST}.
     */
    private static boolean[] takeCards(long[] seg, int k, boolean clear) {
        int first = firstCard(k);
        int cards = capacity(k) >>> Layout.CARD_SHIFT;
        boolean[] dirty = null;
        for (int j = 0; j < cards; j++) {
            if ((long) LONGS.getOpaque(seg, first + j) == DIRTY) { // pairing CARD
                if (clear) {
                    LONGS.setOpaque(seg, first + j, 0L);
                }
                if (dirty == null) {
                    dirty = new boolean[cards];
                }
                dirty[j] = true;
            }
        }
        return dirty;
    }
}
