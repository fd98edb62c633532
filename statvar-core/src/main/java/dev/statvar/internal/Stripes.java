package dev.statvar.internal;

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
 * </pre>
 */
final class Stripes {
    /** A stat's place in the stripes: {@code segment << VLOC_SHIFT | index in the segment}. */
    static final int VLOC_SHIFT = 25;
    private static final int VLOC_MASK = (1 << VLOC_SHIFT) - 1;
    /** Cells of the first stripe segment; each next one doubles, up to MAX_SEGMENT_CELLS. */
    private static final int FIRST_SEGMENT_CELLS = 64;
    private static final int MAX_SEGMENT_CELLS = 1 << 24;

    private final Object engineLock;
    private final Epoch epoch;
    /** Final, created once. */
    private final Stripe[] stripes;

    // ---- guarded by the engine lock ----
    /** Segments defined so far: first offset (in the stripes' layout), capacity in cells, first stat. */
    private int segmentCount;
    private final int[] segmentStart = new int[Stripe.MAX_SEGMENTS];
    private final int[] segmentCells = new int[Stripe.MAX_SEGMENTS];
    private final int[] segmentFirstStat = new int[Stripe.MAX_SEGMENTS];

    Stripes(Object engineLock, Epoch epoch) {
        this.engineLock = engineLock;
        this.epoch = epoch;
        int n = Math.max(2, Integer.highestOneBit(2 * Runtime.getRuntime().availableProcessors() - 1) << 1);
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(); // published by the final field
        }
    }

    /**
     * The place of a new counter or gauge of {@code cells} cells at {@code offset} of the stripes'
     * layout (counters and gauges side by side, from {@link Layout#DATA_START}), the
     * {@code statIndex}-th stat: in the last segment if it fits, else in a new one. Under the engine lock.
     */
    int place(int offset, int cells, int statIndex) {
        int k = segmentCount - 1;
        if (k < 0 || offset + cells > segmentStart[k] + segmentCells[k]) {
            k = segmentCount++; // a new segment: no stat straddles two
            segmentStart[k] = offset;
            segmentCells[k] = Math.min(FIRST_SEGMENT_CELLS << Math.min(k, 20), MAX_SEGMENT_CELLS);
            segmentFirstStat[k] = statIndex;
        }
        return k << VLOC_SHIFT | (Layout.DATA_START + offset - segmentStart[k]);
    }

    // ------------------------------------------------------------------ writers (virtual threads)

    /** A virtual thread's counter add: an atomic add on its home stripe. */
    void add(Thread t, int vloc, long n) {
        CounterCells.addShared(segment(stripes[home(t)], vloc >>> VLOC_SHIFT), vloc & VLOC_MASK, n);
    }

    /** A virtual thread's gauge report, holding a stripe's lock. */
    void report(Thread t, int vloc, long v) {
        Stripe s = lock(t);
        try {
            GaugeCells.report(segment(s, vloc >>> VLOC_SHIFT), vloc & VLOC_MASK, v);
        } finally {
            s.lock.unlock();
        }
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
                seg = CellArrays.create(Layout.DATA_START + segmentCells[k] + Layout.PAD, -1, epoch.current());
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
     * Reads every stripe array into {@code closer}: the first {@code n} stats of {@code stats}.
     * Each stat's registration record is visited once, its cells read in every stripe; slots
     * marked in {@code gone} (length at least {@code n}) are skipped.
     */
    void read(StatList stats, int n, Stat[] histograms, IntervalCloser closer, long closing, boolean[] gone) {
        for (Stripe s : stripes) {
            closer.readHistograms(s.hists, histograms, closing); // s.hists is replaced only under the engine lock
        }
        for (int k = 0; k < segmentCount; k++) {
            long[][] seg = new long[stripes.length][];
            boolean any = false;
            for (int j = 0; j < stripes.length; j++) {
                seg[j] = stripes[j].segments[k]; // under the engine lock: written only under it
                any |= seg[j] != null;
            }
            if (!any) {
                continue;
            }
            for (int i = segmentFirstStat[k]; i < n; i++) {
                if (gone[i]) {
                    continue; // removed and delivered, not reclaimed by this collect: not read (Engine.gone)
                }
                Stat st = stats.get(i);
                if (st.kind == dev.statvar.StatKind.HISTOGRAM) {
                    continue; // not in the segments
                }
                if (st.vloc >>> VLOC_SHIFT != k) {
                    break;
                }
                for (long[] c : seg) {
                    if (c != null) {
                        closer.readLive(c, st.vloc & VLOC_MASK, st, closing);
                    }
                }
            }
        }
    }
}
