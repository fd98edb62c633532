package dev.statvar.internal;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * The statistics engine behind one {@code StatRegistry}: per-thread cells, the lookup that finds
 * them, and the collector that turns them into intervals.
 *
 * <h2>Threading contract</h2>
 * Any number of threads call {@link #add}/{@link #report}/{@link #record}; one collector at a time calls
 * {@link #collect} (serialised by {@link #lock}). Updates never block and, on a platform thread
 * that has used the registry before, execute no locked instruction. {@code collect()} does not
 * stop updates; it is <b>not</b> an atomic snapshot across threads: an update racing it lands in
 * this interval or the next, never in both and never in neither.
 *
 * <pre>
 * Design
 * ------
 * Cells. Every platform thread that updates a stat gets one long[] (Layout) holding ALL stats of
 * this registry at fixed offsets, in registration order, padded at both ends. Its owner is the
 * only thread that writes its stat cells: a plain read of its own cell and an opaque store
 * (release for a gauge's count). Nothing else ever writes them, so no read-modify-write is
 * needed and no update can be lost between writers.
 *
 * Never reset. Cells only accumulate. The collector reads them (opaque/acquire) and keeps the
 * previous cumulative total per stat; an interval's value is the difference. There is no moment
 * at which a cell is zeroed under a writer, so there is nothing to lose: an update is in the
 * interval whose collect first sees its store. This is the seed's LongAdder "delta" fix, made
 * per-thread and without CAS. Subtraction is exact modulo 2^64, so interval values stay exact
 * even after a cumulative total wraps, as long as one interval's true value fits in a long.
 *
 * Finding the current thread's cells without ThreadLocal. A table indexed by
 * (thread id & mask) holds the cell arrays; the owner check is the thread id stored in the
 * array's own header (ids are never reused by the JVM). Hit: 5 loads and a compare. Miss
 * (first use, a collision with another live thread, a virtual thread): the slow path, which
 * uses a ThreadLocal and the lock, and installs the array into the table when the slot is free
 * or held by a dead thread. The table doubles (to MAX_TABLE) when more than half full.
 *
 * Local views write at a constant index. A cell reached through a runtime offset is addressed
 * [base + index*8]; a tight loop updating it pays the full store-to-load forwarding latency
 * (about 2 ns here), while the same cell at a constant index [base + disp] runs at 0.55 ns
 * because the CPU forwards such stores with zero latency (measured: docs/PERFORMANCE.md).
 * So a local view does not point into the thread's shared array: it gets its own small padded
 * array laid out like a one-stat block (stat at DATA_START), created once per (thread, stat),
 * kept in the thread's Block, and read, switched and retired by collect() with that Block.
 * For the same reason CounterImpl/GaugeImpl are records: C2 trusts record final fields, so a
 * handle held in a static final field gets its offset folded into the instruction.
 *
 * Growth. A stat registered after a thread's array was sized makes the array too short
 * (limit > length); the owner copies it into a longer one under the lock. The lock excludes
 * collect(), which is the only other writer (of EPOCH), so no write is lost by the copy.
 *
 * Gauge min/max are the only per-interval state. Each gauge has two min/max slots tagged with
 * the interval epoch they belong to: the current slot, which a writer updates, and the previous
 * one. A writer whose current slot has an older tag than the epoch retags (once per interval):
 * it folds the previous slot into a cumulative min/max, moves the current slot to the previous
 * one, and restarts the current slot; each rewrite is seqlock-style (tag -1, values, tag), and
 * the collector reads the current slot first, so a slot moved while it reads is found in the
 * previous one. The writer's slot is at a constant index (choosing a slot by epoch parity cost
 * 1.5 ns per histogram record). collect() raises the epoch in one thread's array (volatile
 * store) and then reads that array, so the closing interval's min/max are no longer written
 * except by a report already in flight.
 * A report's count is in the interval whose collect first sees its count store; its min/max are
 * in the slot of the epoch it read. The two disagree only for a report made between the
 * collector's epoch store into that thread's array and its read of that gauge in the same
 * array (the time to read one array, about a microsecond) or in flight across it. Such a value
 * may miss the min/max of the interval that counts it. The cumulative min/max (every slot of
 * an epoch <= the closing one, plus retired threads) catches it: when it is below (above) every
 * min (max) delivered so far, the closing interval's min (max) is widened to it, so the min
 * and max over all intervals are exactly the true ones once updates stop.
 *
 * Terminated threads. Thread.isAlive() == false happens-after every action of that thread
 * (JLS 17.4.4); collect() checks it before reading an array, reads the final values, adds them
 * to the stat's retired totals and drops the array and its table slot.
 *
 * Virtual threads get no storage of their own (there may be millions): they update one of a
 * few shared stripes (2 x cores), chosen by thread id. A stripe's cells live in segments laid
 * out like a thread's array, created on first use and never moved (capacities double, and no
 * stat straddles two segments), so a counter is one atomic add (LongAdder-class) and nothing can
 * be lost to a copy. Gauge reports on a stripe take its ReentrantLock (which parks and does not
 * pin a carrier); the min/max protocol above then holds with the lock holder as the writer.
 *
 * Histograms. A histogram's buckets cannot live in the thread's shared array (58 x 64 buckets
 * for the whole long range); each (thread, histogram) gets its own array instead (Layout.H_*):
 * header, a gauge's sum and min/max cells at constant indices, then the buckets of the range
 * of values this thread has recorded, H_LO .. H_LO + H_LEN, in whole octaves. A second table,
 * parallel to the first (same slots, same owners), holds each thread's array of histogram
 * arrays. A record: index = LogLinear.index(v) (one LZCNT, shifts), range check against
 * H_LO/H_LEN, min/max as a gauge, opaque store of the sum, release store of the bucket. A value
 * outside the range takes the slow path: under the lock the owner copies its array into one
 * covering the new octave (the lock excludes collect(), the only other writer, of EPOCH), sets
 * the old array's H_LEN to 0 so that any handle still holding it falls to the slow path, and
 * publishes the new one. The collector reads buckets with acquire, then the sum: every counted
 * record's sum and min/max are visible; a record racing the switch may be in this interval's
 * sum and the next interval's buckets, never lost or doubled. count = the sum of the bucket
 * deltas, so count and buckets always agree. Local views hold the same array (refreshed when
 * it is replaced), so the view and any-thread paths write the same cells.
 * </pre>
 */
public final class Engine {
    /** Element access to cell arrays. */
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Element access to the lookup table and to stripe segments. */
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[][].class);
    /** A stat's place in the stripes: {@code segment << VLOC_SHIFT | index in the segment}. */
    static final int VLOC_SHIFT = 25;
    private static final int VLOC_MASK = (1 << VLOC_SHIFT) - 1;
    /** Cells of the first stripe segment; each next one doubles, up to MAX_SEGMENT_CELLS. */
    private static final int FIRST_SEGMENT_CELLS = 64;
    private static final int MAX_SEGMENT_CELLS = 1 << 24;
    /** Upper bound for maxStats: keeps every cell index of every array within an int. */
    public static final int MAX_STATS_LIMIT = 10_000_000;
    /** Element access to the histogram table. */
    private static final VarHandle HSLOTS = MethodHandles.arrayElementVarHandle(long[][][].class);
    /** Access to {@link #table}. */
    private static final VarHandle TABLE;
    /** Access to {@link #htable}. */
    private static final VarHandle HTABLE;
    /**
     * A histogram array holding no bucket: a record into it always takes the slow path. Never
     * written (recordInto checks the range before any store).
     */
    static final long[] NO_BUCKETS = new long[Layout.H_BUCKETS + Layout.PAD];

    static {
        try {
            TABLE = MethodHandles.lookup().findVarHandle(Engine.class, "table", long[][].class);
            HTABLE = MethodHandles.lookup().findVarHandle(Engine.class, "htable", long[][][].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int INITIAL_TABLE = 64;
    private static final int MAX_TABLE = 1 << 16;
    /** A thread on the slow path retries installing itself into the table every this many calls. */
    private static final int INSTALL_RETRY_MASK = 1023;

    /**
     * Lookup table, thread id &amp; (length - 1) to that thread's cells. Written only under
     * {@link #lock} with setRelease; read on the update path with getAcquire.
     */
    @SuppressWarnings("unused") // accessed through TABLE
    private long[][] table;
    /**
     * Histogram lookup table, parallel to {@link #table} (same length, same slot owners): a
     * thread's {@code Block.hists}. Written only under {@link #lock} with setRelease; read on the
     * update path with getAcquire.
     */
    @SuppressWarnings("unused") // accessed through HTABLE
    private long[][][] htable;

    private final int maxStats;
    private final Object lock = new Object();
    private final ThreadLocal<Block> ownBlock = new ThreadLocal<>();
    /** Shared cells for virtual threads; final, created once. */
    private final Stripe[] stripes;

    // ---- guarded by lock ----
    private Block[] tableOwners;
    /** Number of blocks at which newBlock() next checks whether the table is too small. */
    private int resizeCheckAt = INITIAL_TABLE / 2;
    private final ArrayList<Block> blocks = new ArrayList<>();
    private final ArrayList<Stat> stats = new ArrayList<>();
    /** The histograms among {@link #stats}, by histogram index. */
    private final ArrayList<Stat> histStats = new ArrayList<>();
    /** Stats by series key: the name, plus the labels for a family's series ({@link #key}). */
    private final HashMap<String, Stat> byName = new HashMap<>();
    /** Labelled families by name: {@code StatFamily} objects, made and typed by StatRegistry. */
    private final HashMap<String, Object> families = new HashMap<>();
    private int nextOffset = Layout.DATA_START;
    /** Stripe segments defined so far: first offset, capacity in cells, first stat. */
    private int segmentCount;
    private final int[] segmentStart = new int[Stripe.MAX_SEGMENTS];
    private final int[] segmentCells = new int[Stripe.MAX_SEGMENTS];
    private final int[] segmentFirstStat = new int[Stripe.MAX_SEGMENTS];
    /** Current interval epoch; starts at 1 (tag 0 means "slot never used"). */
    private long epoch = 1;
    private Instant intervalStart = Instant.now();
    private Acc acc = new Acc(0);

    public Engine(int maxStats) {
        if (maxStats < 1 || maxStats > MAX_STATS_LIMIT) {
            throw new IllegalArgumentException("maxStats must be in 1.." + MAX_STATS_LIMIT + ", was " + maxStats);
        }
        this.maxStats = maxStats;
        long[][] t = new long[INITIAL_TABLE][];
        this.tableOwners = new Block[INITIAL_TABLE];
        TABLE.setRelease(this, t); // pairs with getAcquire in add()/report()
        HTABLE.setRelease(this, new long[INITIAL_TABLE][][]); // pairs with getAcquire in record()
        int n = Math.max(2, Integer.highestOneBit(2 * Runtime.getRuntime().availableProcessors() - 1) << 1);
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(); // published by the final field
        }
    }

    public int maxStats() {
        return maxStats;
    }

    // ------------------------------------------------------------------ registration

    /** A stat's key in {@link #byName}: unique per series; a name cannot contain '{'. */
    private static String key(String name, Labels labels) {
        return labels.isEmpty() ? name : name + labels;
    }

    /**
     * Registers a labelled family, or returns the existing one of this name.
     *
     * @param isSame  whether an existing family is the same (kind, label names, precision)
     * @param create  makes a new family
     * @throws IllegalArgumentException if the name is taken by a stat without labels or by another family
     */
    public Object registerFamily(String name, StatKind kind, java.util.function.Predicate<Object> isSame,
                                 java.util.function.Supplier<Object> create, String description) {
        synchronized (lock) {
            Object f = families.get(name);
            if (f != null) {
                if (!isSame.test(f)) {
                    throw new IllegalArgumentException("'" + name + "' is already registered as " + f
                            + "; cannot register it as " + description);
                }
                return f;
            }
            Stat s = byName.get(name);
            if (s != null) {
                throw new IllegalArgumentException("'" + name + "' is already registered as a " + s.kind.label()
                        + " without labels; cannot register it as " + description);
            }
            f = create.get();
            families.put(name, f);
            return f;
        }
    }

    /**
     * Registers a stat, or returns the existing one of the same name, labels and kind.
     *
     * @param labels  {@link Labels#EMPTY}, or the series' labels (the family was registered first)
     * @param factory creates the public handle for a new stat
     */
    public Object register(String name, Labels labels, String help, StatKind kind, HandleFactory factory) {
        synchronized (lock) {
            Stat s = existing(name, labels, kind);
            if (s != null) {
                return s.handle;
            }
            int cells = kind == StatKind.COUNTER ? Layout.COUNTER_CELLS : Layout.GAUGE_CELLS;
            int k = segmentCount - 1;
            if (k < 0 || nextOffset + cells > segmentStart[k] + segmentCells[k]) {
                k = segmentCount++; // a new stripe segment: no stat straddles two
                segmentStart[k] = nextOffset;
                segmentCells[k] = Math.min(FIRST_SEGMENT_CELLS << Math.min(k, 20), MAX_SEGMENT_CELLS);
                segmentFirstStat[k] = stats.size();
            }
            int vloc = k << VLOC_SHIFT | (Layout.DATA_START + nextOffset - segmentStart[k]);
            s = new Stat(name, labels, help, kind, stats.size(), nextOffset, cells, vloc);
            nextOffset += cells;
            s.handle = factory.create(this, s.index, s.offset, s.limit, vloc);
            stats.add(s);
            byName.put(key(name, labels), s);
            return s.handle;
        }
    }

    /** The registered stat of this name, labels and kind, null if none; throws if of another kind or the registry is full. Under lock. */
    private Stat existing(String name, Labels labels, StatKind kind) {
        if (labels.isEmpty() && families.containsKey(name)) {
            throw new IllegalArgumentException("'" + name + "' is already registered as " + families.get(name)
                    + "; cannot register a " + kind.label() + " of that name without labels");
        }
        Stat s = byName.get(key(name, labels));
        if (s != null) {
            if (s.kind != kind) {
                throw new IllegalArgumentException("'" + name + "' is already registered as a "
                        + s.kind.label() + "; cannot register it as a " + kind.label());
            }
            return s;
        }
        if (stats.size() >= maxStats) {
            throw new IllegalArgumentException("cannot register '" + key(name, labels) + "': this registry holds its maximum of "
                    + maxStats + " stats (set a larger maxStats with StatRegistry.builder())");
        }
        return null;
    }

    /**
     * Registers a histogram of {@code bits} sub-bucket bits, or returns the existing one of that
     * name; it takes no cells in the threads' shared arrays (see the design comment).
     */
    public Object registerHistogram(String name, Labels labels, String help, int bits, HistogramFactory factory) {
        synchronized (lock) {
            Stat s = existing(name, labels, StatKind.HISTOGRAM);
            if (s != null) {
                if (s.bits != bits) {
                    throw new IllegalArgumentException("histogram '" + name + "' is already registered with "
                            + new HistogramPrecision(s.bits) + "; cannot register it with " + new HistogramPrecision(bits));
                }
                return s.handle;
            }
            s = new Stat(name, labels, help, StatKind.HISTOGRAM, stats.size(), nextOffset, 0, -1, histStats.size(), bits);
            s.handle = factory.create(this, s.hindex);
            stats.add(s);
            histStats.add(s);
            byName.put(key(name, labels), s);
            return s.handle;
        }
    }

    /** Creates the public handle of a histogram. */
    @FunctionalInterface
    public interface HistogramFactory {
        Object create(Engine engine, int hindex);
    }

    /** Creates the public handle of a stat. */
    @FunctionalInterface
    public interface HandleFactory {
        Object create(Engine engine, int index, int offset, int limit, int vloc);
    }

    /**
     * An empty value for every stat registered so far (what an interval without updates
     * delivers), with their registration times; reads no cell and closes no interval.
     */
    public Interval registered() {
        synchronized (lock) {
            int n = stats.size();
            List<StatValue> values = new ArrayList<>(n);
            long[] created = new long[n];
            for (int i = 0; i < n; i++) {
                Stat s = stats.get(i);
                created[i] = s.createdMillis;
                values.add(switch (s.kind) {
                    case COUNTER -> new CounterValue(s.name, s.help, s.labels, 0, 0);
                    case GAUGE -> new GaugeValue(s.name, s.help, s.labels, 0, 0, 0, 0, 0, 0);
                    case HISTOGRAM -> {
                        HistogramValue e = HistogramValue.empty(s.name, s.help, new HistogramPrecision(s.bits))
                                .withLabels(s.labels);
                        yield e.withTotals(e);
                    }
                });
            }
            Instant now = Instant.now();
            return new Interval(now, now, List.copyOf(values), created);
        }
    }

    /** Number of registered stats. */
    public int size() {
        synchronized (lock) {
            return stats.size();
        }
    }

    // ------------------------------------------------------------------ update path

    /**
     * Adds {@code n} to the counter at {@code off} on behalf of the calling thread.
     * No locked instruction when the calling platform thread is found in the table.
     */
    public void add(int off, int limit, int vloc, long n) {
        Thread t = Thread.currentThread();
        long tid = t.getId();
        long[][] tab = (long[][]) TABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
        long[] c = (long[]) SLOTS.getAcquire(tab, (int) tid & (tab.length - 1)); // pairs with setRelease in install()/grow()
        if (c != null && c[Layout.OWNER_TID] == tid && limit <= c.length) {
            addInto(c, off, n); // our own array: its OWNER_TID was written by us before publication
        } else {
            addSlow(t, off, limit, vloc, n);
        }
    }

    /** Records {@code v} in the gauge at {@code off} on behalf of the calling thread. */
    public void report(int off, int limit, int vloc, long v) {
        Thread t = Thread.currentThread();
        long tid = t.getId();
        long[][] tab = (long[][]) TABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
        long[] c = (long[]) SLOTS.getAcquire(tab, (int) tid & (tab.length - 1)); // pairs with setRelease in install()/grow()
        if (c != null && c[Layout.OWNER_TID] == tid && limit <= c.length) {
            reportInto(c, off, v);
        } else {
            reportSlow(t, off, limit, vloc, v);
        }
    }

    /** Counter update into cells only the caller writes. */
    static void addInto(long[] c, int off, long n) {
        // Single writer: plain read of our own cell, opaque store; pairs with getOpaque in readStat().
        LONGS.setOpaque(c, off, c[off] + n);
    }

    /** Gauge update into cells the caller may write (its own, or a stripe under its lock). */
    static void reportInto(long[] c, int off, long v) {
        minMaxInto(c, off, v);
        LONGS.setOpaque(c, off + Layout.G_SUM, c[off + Layout.G_SUM] + v);
        // Release: the sum and min/max stores are visible to whoever sees this count
        // (pairs with getAcquire(G_COUNT) in readStat()).
        LONGS.setRelease(c, off + Layout.G_COUNT, c[off + Layout.G_COUNT] + 1);
    }

    /**
     * The min/max part of a gauge update (gauge cells at {@code off}), shared with histograms.
     * Its stores are published by the caller's release store that follows.
     */
    private static void minMaxInto(long[] c, int off, long v) {
        long e = (long) LONGS.getOpaque(c, Layout.EPOCH); // pairs with setVolatile(EPOCH) in readCells()/readView()/readHist()
        int s = off + Layout.G_SLOT0; // the current slot: a constant index (a run-time slot index cost ~1.5 ns)
        if (c[s + Layout.S_TAG] == e) {
            // Single writer: plain reads of our own cells, opaque stores; the count's release below
            // publishes them to the collector's getAcquire(G_COUNT).
            if (v < c[s + Layout.S_MIN]) {
                LONGS.setOpaque(c, s + Layout.S_MIN, v);
            }
            if (v > c[s + Layout.S_MAX]) {
                LONGS.setOpaque(c, s + Layout.S_MAX, v);
            }
        } else {
            retag(c, off, e, v);
        }
    }

    /**
     * Records {@code v} (>= 0) in the histogram {@code hindex} of {@code bits} sub-bucket bits on
     * behalf of the calling thread. No locked instruction when the calling platform thread is
     * found in the table and the value is within the range its array covers.
     */
    public void record(int hindex, int bits, long v) {
        Thread t = Thread.currentThread();
        long tid = t.getId();
        long[][][] tab = (long[][][]) HTABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
        long[][] hs = (long[][]) HSLOTS.getAcquire(tab, (int) tid & (tab.length - 1)); // pairs with setRelease in install()/histArray()
        if (hs != null && hindex < hs.length) {
            long[] c = (long[]) SLOTS.getAcquire(hs, hindex); // pairs with setRelease in histArray()
            // OWNER_TID is written before the array is published and never changes.
            if (c != null && c[Layout.OWNER_TID] == tid && recordInto(c, bits, v)) {
                return;
            }
        }
        recordSlow(t, hindex, bits, v);
    }

    /**
     * Histogram update into an array the caller may write (its own, or a stripe's under its lock).
     *
     * @return false, having stored nothing, if {@code v}'s bucket is outside the array's range
     */
    static boolean recordInto(long[] c, int bits, long v) {
        // H_LO and H_LEN: written by the writing side itself (or before publication).
        int i = LogLinear.index(v, bits) - (int) c[Layout.H_LO];
        if (Integer.compareUnsigned(i, (int) c[Layout.H_LEN]) >= 0) {
            return false;
        }
        minMaxInto(c, Layout.H_STAT, v);
        // Single writer: plain reads of our own cells, opaque store of the sum. Pairs with getOpaque(sum) in readHist().
        LONGS.setOpaque(c, Layout.H_STAT + Layout.G_SUM, c[Layout.H_STAT + Layout.G_SUM] + v);
        // Release: the sum and min/max stores are visible to whoever sees this bucket count
        // (pairs with getAcquire of the buckets in readHist()).
        LONGS.setRelease(c, Layout.H_BUCKETS + i, c[Layout.H_BUCKETS + i] + 1);
        return true;
    }

    private void recordSlow(Thread t, int hindex, int bits, long v) {
        if (Threads.isVirtual(t)) {
            Stripe s = lockStripe(t);
            try {
                // The lock holder is the stripe's only histogram writer: the single-writer protocol holds.
                long[][] hs = s.hists; // written only by holders of s.lock
                long[] c = hs != null && hindex < hs.length ? hs[hindex] : null;
                if (c == null || !recordInto(c, bits, v)) {
                    synchronized (lock) {
                        s.hists = hs = histSlots(s.hists, hindex);
                        c = histArray(hs, hindex, LogLinear.index(v, bits), bits, -1);
                    }
                    if (!recordInto(c, bits, v)) {
                        throw new AssertionError("histogram array does not cover " + v);
                    }
                }
            } finally {
                s.lock.unlock();
            }
        } else {
            recordOwn(t, hindex, bits, v);
        }
    }

    /**
     * Records {@code v} into the calling platform thread's array for histogram {@code hindex},
     * creating or growing it as needed, and returns that array (for local views to keep).
     */
    long[] recordOwn(Thread t, int hindex, int bits, long v) {
        Block b = ownBlock.get();
        if (b == null) {
            b = newBlock(t, Layout.MIN_LENGTH);
            ownBlock.set(b);
        }
        long[][] hs = b.hists; // own field: replaced only by this thread
        long[] c = hs != null && hindex < hs.length ? hs[hindex] : null;
        if (c != null && recordInto(c, bits, v)) {
            if ((++b.slowCalls & INSTALL_RETRY_MASK) == 0) {
                synchronized (lock) {
                    if (b.tableIndex < 0) {
                        install(b);
                    }
                }
            }
            return c;
        }
        synchronized (lock) { // excludes collect(), the other writer of these arrays (EPOCH)
            long[][] nhs = histSlots(b.hists, hindex);
            if (nhs != b.hists) {
                b.hists = nhs;
                if (b.tableIndex >= 0) {
                    long[][][] tab = (long[][][]) HTABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
                    HSLOTS.setRelease(tab, b.tableIndex, nhs); // pairs with getAcquire in record()
                }
            }
            c = histArray(nhs, hindex, LogLinear.index(v, bits), bits, t.getId());
        }
        if (!recordInto(c, bits, v)) {
            throw new AssertionError("histogram array does not cover " + v);
        }
        return c;
    }

    /** {@code hs}, or a copy long enough to hold histogram {@code hindex}. Under lock. */
    private static long[][] histSlots(long[][] hs, int hindex) {
        if (hs != null && hindex < hs.length) {
            return hs;
        }
        int n = Math.max(hindex + 1, Math.max(4, hs == null ? 0 : 2 * hs.length));
        return hs == null ? new long[n][] : Arrays.copyOf(hs, n);
    }

    /**
     * The array of histogram {@code hindex} in {@code hs}, created or replaced so that it covers
     * bucket {@code index} (whole octaves: 2^bits buckets). Under lock: the copy excludes
     * collect(), which writes EPOCH; the caller is the only writer of the bucket cells.
     */
    private long[] histArray(long[][] hs, int hindex, int index, int bits, long ownerTid) {
        long[] old = hs[hindex];
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
        long[] c = new long[Layout.H_BUCKETS + (to - from) + Layout.PAD]; // allocated by the writer: its TLAB
        if (old == null) {
            c[Layout.OWNER_TID] = ownerTid;
            c[Layout.EPOCH] = epoch;
        } else {
            int olo = (int) old[Layout.H_LO];
            int olen = (int) old[Layout.H_LEN];
            System.arraycopy(old, Layout.OWNER_TID, c, Layout.OWNER_TID, Layout.H_BUCKETS - Layout.OWNER_TID);
            System.arraycopy(old, Layout.H_BUCKETS, c, Layout.H_BUCKETS + olo - from, olen);
            old[Layout.H_LEN] = 0; // a handle still holding the old array now falls to the slow path
        }
        c[Layout.H_LO] = from;
        c[Layout.H_LEN] = to - from;
        SLOTS.setRelease(hs, hindex, c); // pairs with getAcquire in record()
        return c;
    }

    /**
     * First report of this gauge in epoch {@code e} by this writer, once per interval per gauge:
     * fold the previous slot's min/max into the cumulative cells, move the current slot (an
     * older epoch's) into the previous slot, and restart the current slot at {@code v}.
     */
    private static void retag(long[] c, int off, long e, long v) {
        int cur = off + Layout.G_SLOT0;
        int prev = cur + Layout.G_SLOT_CELLS;
        long curTag = c[cur + Layout.S_TAG];
        if (curTag > 0) {
            if (c[prev + Layout.S_TAG] > 0) {
                long oldMin = c[prev + Layout.S_MIN];
                long oldMax = c[prev + Layout.S_MAX];
                long cmin = c[off + Layout.G_CMIN];
                long cmax = c[off + Layout.G_CMAX];
                if (cmin == 0 || oldMin < Layout.decodeMin(cmin)) {
                    LONGS.setOpaque(c, off + Layout.G_CMIN, Layout.encodeMin(oldMin)); // published by the releases below
                }
                if (cmax == 0 || oldMax > Layout.decodeMax(cmax)) {
                    LONGS.setOpaque(c, off + Layout.G_CMAX, Layout.encodeMax(oldMax)); // published by the releases below
                }
            }
            // Seqlock-style move: mark the previous slot in flux (release: after the fold above),
            // copy, then tag. Pairs with the tag / min / max / tag reads in readMinMax().
            LONGS.setRelease(c, prev + Layout.S_TAG, -1L);
            LONGS.setRelease(c, prev + Layout.S_MIN, c[cur + Layout.S_MIN]);
            LONGS.setRelease(c, prev + Layout.S_MAX, c[cur + Layout.S_MAX]);
            LONGS.setRelease(c, prev + Layout.S_TAG, curTag);
        }
        // Then restart the current slot the same way (release: after the move above, so a reader
        // that sees the current slot in flux or retagged finds the moved copy in the previous one).
        LONGS.setRelease(c, cur + Layout.S_TAG, -1L);
        LONGS.setRelease(c, cur + Layout.S_MIN, v);
        LONGS.setRelease(c, cur + Layout.S_MAX, v);
        LONGS.setRelease(c, cur + Layout.S_TAG, e);
    }

    private void addSlow(Thread t, int off, int limit, int vloc, long n) {
        if (Threads.isVirtual(t)) {
            long[] seg = segment(stripes[stripeIndex(t)], vloc >>> VLOC_SHIFT);
            // Shared by virtual threads: an atomic add. Pairs with getOpaque in readStat().
            LONGS.getAndAdd(seg, vloc & VLOC_MASK, n);
        } else {
            addInto(ownCells(t, limit), off, n);
        }
    }

    private void reportSlow(Thread t, int off, int limit, int vloc, long v) {
        if (Threads.isVirtual(t)) {
            Stripe s = lockStripe(t);
            try {
                // The lock holder is the stripe's only gauge writer: the single-writer protocol holds.
                reportInto(segment(s, vloc >>> VLOC_SHIFT), vloc & VLOC_MASK, v);
            } finally {
                s.lock.unlock();
            }
        } else {
            reportInto(ownCells(t, limit), off, v);
        }
    }

    /** The home stripe of a virtual thread: its id, hashed. */
    private int stripeIndex(Thread t) {
        return (int) ((t.getId() * 0x9E3779B97F4A7C15L) >>> 40) & (stripes.length - 1);
    }

    /** Locks a stripe for the calling virtual thread: its home stripe, or any free one, else parks on home. */
    private Stripe lockStripe(Thread t) {
        int mask = stripes.length - 1;
        int home = stripeIndex(t);
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
        long[] seg = (long[]) SLOTS.getAcquire(s.segments, k); // pairs with setRelease in newSegment()
        return seg != null ? seg : newSegment(s, k);
    }

    private long[] newSegment(Stripe s, int k) {
        synchronized (lock) { // collect() reads segments and writes their EPOCH under this lock
            long[] seg = s.segments[k];
            if (seg == null) {
                seg = new long[Layout.DATA_START + segmentCells[k] + Layout.PAD];
                seg[Layout.OWNER_TID] = -1; // matches no thread
                seg[Layout.EPOCH] = epoch;
                SLOTS.setRelease(s.segments, k, seg); // pairs with getAcquire in segment()
            }
            return seg;
        }
    }

    /**
     * The calling platform thread's own cells, covering {@code limit}: created, grown and
     * installed into the table as needed.
     */
    private long[] ownCells(Thread t, int limit) {
        Block b = ownBlock.get();
        if (b == null) {
            b = newBlock(t, limit);
            ownBlock.set(b);
            return b.cells;
        }
        long[] c = b.cells; // own field: written only by this thread
        if (limit > c.length) {
            return grow(b, limit);
        }
        if ((++b.slowCalls & INSTALL_RETRY_MASK) == 0) {
            synchronized (lock) {
                if (b.tableIndex < 0) {
                    install(b);
                }
            }
        }
        return c;
    }

    /**
     * The calling platform thread's own cell array for local views of stat {@code index} (the stat
     * at {@link Layout#DATA_START}), created on first use; null on a virtual thread.
     */
    public long[] localCells(int index) {
        Thread t = Thread.currentThread();
        if (Threads.isVirtual(t)) {
            return null;
        }
        Block b = ownBlock.get();
        if (b == null) {
            b = newBlock(t, Layout.MIN_LENGTH);
            ownBlock.set(b);
        }
        synchronized (lock) {
            if (b.views == null) {
                b.views = new HashMap<>();
            }
            long[] v = b.views.get(index);
            if (v == null) {
                Stat s = stats.get(index);
                v = new long[Layout.DATA_START + s.limit - s.offset]; // allocated by the owner: its TLAB
                v[Layout.OWNER_TID] = t.getId();
                v[Layout.EPOCH] = epoch; // under lock: collect() writes it later under this lock
                b.views.put(index, v);
            }
            return v; // published to the collector by the lock; the owner created it
        }
    }

    private Block newBlock(Thread t, int limit) {
        long[] c = new long[lengthFor(limit, 0)]; // allocated by the owner: in its own TLAB
        c[Layout.OWNER_TID] = t.getId(); // never changes; published with the array below
        synchronized (lock) {
            c[Layout.EPOCH] = epoch; // collect() writes it later, under this lock or after install
            Block b = new Block(t, c);
            blocks.add(b);
            if (blocks.size() >= resizeCheckAt && tableOwners.length < MAX_TABLE) {
                // Only live threads need slots: terminated ones not yet collected do not count.
                int live = 0;
                for (Block x : blocks) {
                    if (x.owner.isAlive()) {
                        live++;
                    }
                }
                if (live > tableOwners.length / 2) {
                    resizeTable(tableOwners.length * 2);
                }
                resizeCheckAt = blocks.size() + tableOwners.length / 4; // amortises the scan
            }
            install(b);
            return b;
        }
    }

    /** Array length covering {@code limit}, at least double the current one (amortised growth). */
    private static int lengthFor(int limit, int current) {
        return Math.max(Layout.MIN_LENGTH, Math.max(limit, 2 * current));
    }

    /** Copies a thread's cells into a longer array. Caller is the owner. */
    private long[] grow(Block b, int limit) {
        synchronized (lock) { // excludes collect(), the other writer of these cells (EPOCH)
            long[] old = b.cells;
            if (limit <= old.length) {
                return old;
            }
            long[] c = new long[lengthFor(limit, old.length)];
            System.arraycopy(old, 0, c, 0, old.length);
            b.cells = c; // under lock: read by the collector under lock, and by the owner itself
            if (b.tableIndex >= 0) {
                long[][] tab = (long[][]) TABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
                SLOTS.setRelease(tab, b.tableIndex, c); // pairs with getAcquire in add()/report()
            }
            return c;
        }
    }

    /** Puts a block into its table slot if the slot is free or held by a terminated thread. Under lock. */
    private void install(Block b) {
        long[][] tab = (long[][]) TABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
        int i = (int) b.owner.getId() & (tab.length - 1);
        Block cur = tableOwners[i];
        if (cur == null || !cur.owner.isAlive()) {
            if (cur != null) {
                cur.tableIndex = -1;
            }
            tableOwners[i] = b;
            b.tableIndex = i;
            SLOTS.setRelease(tab, i, b.cells); // pairs with getAcquire in add()/report()
            long[][][] htab = (long[][][]) HTABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
            HSLOTS.setRelease(htab, i, b.hists); // pairs with getAcquire in record()
        }
    }

    /** Replaces the table with one of {@code size} slots, reinstalling live blocks. Under lock. */
    private void resizeTable(int size) {
        for (Block b : blocks) {
            b.tableIndex = -1;
        }
        tableOwners = new Block[size];
        long[][] tab = new long[size][];
        TABLE.setRelease(this, tab); // pairs with getAcquire in add()/report(); slots fill below
        HTABLE.setRelease(this, new long[size][][]); // pairs with getAcquire in record(); slots fill below
        for (Block b : blocks) {
            if (b.owner.isAlive()) {
                install(b);
            }
        }
    }

    /** Number of per-thread cell arrays currently held (live threads, and dead ones not yet collected). */
    public int threadBlocks() {
        synchronized (lock) {
            return blocks.size();
        }
    }

    // ------------------------------------------------------------------ collection

    /** Collector scratch space, per stat. */
    private static final class Acc {
        final long[] total;
        final long[] sum;
        final boolean[] hasMin;
        final long[] min;
        final long[] max;
        final boolean[] hasAll;
        final long[] allMin;
        final long[] allMax;

        Acc(int n) {
            total = new long[n];
            sum = new long[n];
            hasMin = new boolean[n];
            min = new long[n];
            max = new long[n];
            hasAll = new boolean[n];
            allMin = new long[n];
            allMax = new long[n];
        }

        void clear() {
            Arrays.fill(total, 0);
            Arrays.fill(sum, 0);
            Arrays.fill(hasMin, false);
            Arrays.fill(hasAll, false);
        }
    }

    /** The values of one closed interval; {@code createdMillis[i]}: when {@code values.get(i)}'s stat was registered. */
    public record Interval(Instant start, Instant end, List<StatValue> values, long[] createdMillis) {
    }

    /**
     * Closes the current interval and returns its values. Serialised; does not block updates.
     */
    public Interval collect() {
        synchronized (lock) {
            Instant end = Instant.now();
            long closing = epoch;
            long next = ++epoch;
            int n = stats.size();
            if (acc.total.length != n) {
                acc = new Acc(n);
            } else {
                acc.clear();
            }
            for (Stat h : histStats) {
                h.liveBuckets.clear();
            }
            ArrayList<Block> retired = null; // folded after close(): their values are in acc already
            for (int i = 0; i < blocks.size(); i++) {
                Block b = blocks.get(i);
                // Checked before reading: isAlive() == false happens-after every write of the owner (JLS 17.4.4).
                boolean dead = !b.owner.isAlive();
                long[] c = b.cells; // under lock: the owner replaces it only under this lock
                readCells(c, closing, next);
                if (b.views != null) {
                    for (var v : b.views.entrySet()) {
                        readView(v.getValue(), stats.get(v.getKey()), closing, next);
                    }
                }
                readHists(b.hists, closing, next);
                if (dead) {
                    if (retired == null) {
                        retired = new ArrayList<>();
                    }
                    retired.add(b);
                    blocks.remove(i--);
                    if (b.tableIndex >= 0) {
                        tableOwners[b.tableIndex] = null;
                        long[][] tab = (long[][]) TABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
                        SLOTS.setRelease(tab, b.tableIndex, null); // pairs with getAcquire in add()/report()
                        long[][][] htab = (long[][][]) HTABLE.getAcquire(this); // pairs with setRelease in resizeTable() and the constructor
                        HSLOTS.setRelease(htab, b.tableIndex, null); // pairs with getAcquire in record()
                        b.tableIndex = -1;
                    }
                }
            }
            for (Stripe s : stripes) {
                readHists(s.hists, closing, next); // under lock: s.hists is replaced only under this lock
                for (int k = 0; k < segmentCount; k++) {
                    long[] seg = s.segments[k]; // under lock: written only under this lock
                    if (seg != null) {
                        readSegment(seg, k, closing, next);
                    }
                }
            }
            if (retired != null) {
                resizeCheckAt = Math.min(resizeCheckAt, blocks.size() + tableOwners.length / 4);
            }
            List<StatValue> values = new ArrayList<>(n);
            long[] created = new long[n];
            for (int i = 0; i < n; i++) {
                values.add(close(stats.get(i)));
                created[i] = stats.get(i).createdMillis;
            }
            if (retired != null) {
                for (Block b : retired) {
                    for (Stat s : stats) {
                        if (s.limit > b.cells.length) {
                            break;
                        }
                        if (s.kind != StatKind.HISTOGRAM) {
                            retire(b.cells, s, s.offset);
                        }
                    }
                    if (b.views != null) {
                        for (var v : b.views.entrySet()) {
                            retire(v.getValue(), stats.get(v.getKey()), Layout.DATA_START);
                        }
                    }
                    if (b.hists != null) {
                        for (int h = 0; h < b.hists.length; h++) {
                            if (b.hists[h] != null) {
                                retireHist(b.hists[h], histStats.get(h));
                            }
                        }
                    }
                }
            }
            Interval result = new Interval(intervalStart, end, List.copyOf(values), created);
            intervalStart = end;
            return result;
        }
    }

    /** Switches one cell array to epoch {@code next} and adds its values to {@link #acc}. Under lock. */
    private void readCells(long[] c, long closing, long next) {
        // Volatile: the switch is ordered before the reads below, so from here on only a report
        // already in flight can still write the closing epoch's slot.
        // Pairs with getOpaque(EPOCH) in reportInto().
        LONGS.setVolatile(c, Layout.EPOCH, next);
        for (Stat s : stats) {
            if (s.limit > c.length) {
                break; // stats are in offset order; this array has not been grown to them: all zero
            }
            if (s.kind != StatKind.HISTOGRAM) { // histograms have arrays of their own
                readStat(c, s.offset, s, closing);
            }
        }
    }

    /** As {@link #readCells}, for segment {@code k} of a stripe. Under lock. */
    private void readSegment(long[] seg, int k, long closing, long next) {
        LONGS.setVolatile(seg, Layout.EPOCH, next); // pairs with getOpaque(EPOCH) in reportInto()
        for (int i = segmentFirstStat[k]; i < stats.size(); i++) {
            Stat s = stats.get(i);
            if (s.kind == StatKind.HISTOGRAM) {
                continue; // not in the segments
            }
            if (s.vloc >>> VLOC_SHIFT != k) {
                break;
            }
            readStat(seg, s.vloc & VLOC_MASK, s, closing);
        }
    }

    /** As {@link #readCells}, for a local view's one-stat array. Under lock. */
    private void readView(long[] c, Stat s, long closing, long next) {
        LONGS.setVolatile(c, Layout.EPOCH, next); // pairs with getOpaque(EPOCH) in reportInto()
        readStat(c, Layout.DATA_START, s, closing);
    }

    /** Adds the cumulative values of stat {@code s}, stored at {@code o} in {@code c}, to {@link #acc}. */
    private void readStat(long[] c, int o, Stat s, long closing) {
        Acc a = acc;
        int i = s.index;
        if (s.kind == StatKind.COUNTER) {
            a.total[i] += (long) LONGS.getOpaque(c, o); // pairs with setOpaque in addInto()
            return;
        }
        // Count first, with acquire: the sum and min/max of every counted report are then visible.
        a.total[i] += (long) LONGS.getAcquire(c, o + Layout.G_COUNT); // pairs with setRelease(G_COUNT) in reportInto()
        a.sum[i] += (long) LONGS.getOpaque(c, o + Layout.G_SUM); // pairs with setOpaque(G_SUM) in reportInto()
        readMinMax(c, o, i, closing);
    }

    /** Adds the min/max slots and cumulative min/max of the gauge cells at {@code o} to {@link #acc}, stat {@code i}. */
    private void readMinMax(long[] c, int o, int i, long closing) {
        Acc a = acc;
        // The current slot first, then the previous one: see retag().
        for (int slot = 0; slot < 2; slot++) {
            int so = o + Layout.G_SLOT0 + slot * Layout.G_SLOT_CELLS;
            long tag = (long) LONGS.getAcquire(c, so + Layout.S_TAG); // pairs with setRelease(S_TAG) in retag()
            if (tag <= 0 || tag > closing) {
                continue; // never used, in flux, or already the next interval's
            }
            long mn = (long) LONGS.getAcquire(c, so + Layout.S_MIN); // pairs with setRelease/setOpaque(S_MIN)
            long mx = (long) LONGS.getAcquire(c, so + Layout.S_MAX); // pairs with setRelease/setOpaque(S_MAX)
            if ((long) LONGS.getAcquire(c, so + Layout.S_TAG) != tag) {
                // Rewritten while we read: the current slot's contents moved to the previous slot
                // (read next), the previous slot's were folded into the cumulative cells (read below).
                continue;
            }
            if (tag == closing) {
                mergeMinMax(a.hasMin, a.min, a.max, i, mn, mx);
            }
            mergeMinMax(a.hasAll, a.allMin, a.allMax, i, mn, mx);
        }
        long cmin = (long) LONGS.getOpaque(c, o + Layout.G_CMIN); // ordered after the acquires above; pairs with setOpaque in retag()
        long cmax = (long) LONGS.getOpaque(c, o + Layout.G_CMAX);
        if (cmin != 0) {
            mergeMinMax(a.hasAll, a.allMin, a.allMax, i, Layout.decodeMin(cmin), Layout.decodeMin(cmin));
        }
        if (cmax != 0) {
            mergeMinMax(a.hasAll, a.allMin, a.allMax, i, Layout.decodeMax(cmax), Layout.decodeMax(cmax));
        }
    }

    /** Switches a thread's (or stripe's) histogram arrays to epoch {@code next} and reads them. Under lock. */
    private void readHists(long[][] hs, long closing, long next) {
        if (hs == null) {
            return;
        }
        for (int h = 0; h < hs.length; h++) {
            long[] c = hs[h]; // under lock: replaced only under this lock
            if (c != null) {
                readHist(c, histStats.get(h), closing, next);
            }
        }
    }

    /** Adds the cumulative buckets, sum and min/max of one histogram array to {@link #acc}. Under lock. */
    private void readHist(long[] c, Stat s, long closing, long next) {
        LONGS.setVolatile(c, Layout.EPOCH, next); // pairs with getOpaque(EPOCH) in minMaxInto()
        int lo = (int) c[Layout.H_LO]; // fixed for the array's life, and H_LEN changes only under this lock
        int len = (int) c[Layout.H_LEN];
        BucketCounts live = s.liveBuckets;
        live.ensure(lo, lo + len);
        long count = 0;
        for (int k = 0; k < len; k++) {
            // Acquire: the sum and min/max of every record counted here are visible below.
            long n = (long) LONGS.getAcquire(c, Layout.H_BUCKETS + k); // pairs with setRelease in recordInto()
            if (n != 0) {
                live.add(lo + k, n);
                count += n;
            }
        }
        Acc a = acc;
        a.total[s.index] += count;
        a.sum[s.index] += (long) LONGS.getOpaque(c, Layout.H_STAT + Layout.G_SUM); // after the acquires; pairs with setOpaque in recordInto()
        readMinMax(c, Layout.H_STAT, s.index, closing);
    }

    private static void mergeMinMax(boolean[] has, long[] min, long[] max, int i, long mn, long mx) {
        if (!has[i]) {
            has[i] = true;
            min[i] = mn;
            max[i] = mx;
        } else {
            if (mn < min[i]) {
                min[i] = mn;
            }
            if (mx > max[i]) {
                max[i] = mx;
            }
        }
    }

    /** Whether the last {@link #closeCounts} of a gauge or histogram found a min/max for its interval. Under lock. */
    private boolean closedHasMinMax;

    /** Turns the accumulated cumulative values of one stat into its interval value. Under lock. */
    private StatValue close(Stat s) {
        StatValue v = closeCounts(s);
        return s.kind == StatKind.HISTOGRAM ? closeHistogram(s, (GaugeValue) v, closedHasMinMax) : v;
    }

    /**
     * The interval's bucket deltas; count, sum, min and max come from the gauge logic, which
     * found a min/max for the interval when {@code hasMinMax}. Under lock.
     */
    private static HistogramValue closeHistogram(Stat s, GaugeValue g, boolean hasMinMax) {
        BucketCounts live = s.liveBuckets;
        BucketCounts retired = s.retiredBuckets;
        BucketCounts prev = s.prevBuckets;
        int from = Integer.MAX_VALUE;
        int to = Integer.MIN_VALUE;
        for (BucketCounts b : new BucketCounts[]{live, retired, prev}) {
            if (!b.isEmpty()) {
                from = Math.min(from, b.lo());
                to = Math.max(to, b.hi());
            }
        }
        HistogramPrecision precision = new HistogramPrecision(s.bits);
        if (from > to) {
            HistogramValue empty = HistogramValue.empty(s.name, s.help, precision).withLabels(s.labels);
            return empty.withTotals(empty);
        }
        long[] delta = new long[to - from];
        int first = -1;
        int last = -1;
        for (int i = from; i < to; i++) {
            long total = live.get(i) + retired.get(i);
            long d = total - prev.get(i);
            if (d != 0) {
                prev.set(i, total);
                delta[i - from] = d;
                if (first < 0) {
                    first = i;
                }
                last = i;
            }
        }
        if (first >= 0 && !hasMinMax) {
            // Every record of this interval raced the switch: their min/max are in an adjacent
            // interval (see HistogramValue). Report the buckets' middles, within the precision,
            // marked as estimates: they need not lie between the values recorded, so merging
            // does not let them widen exact extremes. Not added to s.globalMin/globalMax.
            return new HistogramValue(s.name, s.help, s.labels, precision, g.sum(), precision.middle(first),
                    precision.middle(last), from, delta, false).withTotals(totals(s, precision, g));
        }
        return new HistogramValue(s.name, s.help, s.labels, precision, g.sum(), g.min(), g.max(), from, delta)
                .withTotals(totals(s, precision, g));
    }

    /** Everything histogram {@code s} recorded since registration: its delivered cumulative buckets. Under lock. */
    private static HistogramValue totals(Stat s, HistogramPrecision precision, GaugeValue g) {
        BucketCounts prev = s.prevBuckets;
        return new HistogramValue(s.name, s.help, s.labels, precision, g.totalSum(),
                s.globalHasMin ? s.globalMin : 0, s.globalHasMin ? s.globalMax : 0, prev.lo(), prev.copy());
    }

    /** Counter, or gauge cells (also of a histogram): its interval value. Under lock. */
    private StatValue closeCounts(Stat s) {
        Acc a = acc;
        int i = s.index;
        long total = s.retiredTotal + a.total[i];
        long delta = total - s.prevTotal; // exact modulo 2^64
        s.prevTotal = total;
        if (s.kind == StatKind.COUNTER) {
            return new CounterValue(s.name, s.help, s.labels, delta, total);
        }
        long sum = s.retiredSum + a.sum[i];
        long dsum = sum - s.prevSum;
        s.prevSum = sum;

        boolean has = a.hasMin[i];
        long min = a.min[i];
        long max = a.max[i];
        // Every value visible so far, from epochs up to the closing one (and retired threads).
        boolean hasAll = a.hasAll[i] || s.retiredHasMin;
        long allMin = a.hasAll[i] ? a.allMin[i] : s.retiredMin;
        long allMax = a.hasAll[i] ? a.allMax[i] : s.retiredMax;
        if (a.hasAll[i] && s.retiredHasMin) {
            allMin = Math.min(allMin, s.retiredMin);
            allMax = Math.max(allMax, s.retiredMax);
        }
        if (hasAll) {
            // A value that missed every delivered min (a report that raced a switch) joins this interval.
            if (allMin < (s.globalHasMin ? s.globalMin : Long.MAX_VALUE) && (!has || allMin < min)) {
                if (!has) {
                    max = allMin;
                }
                min = allMin;
                has = true;
            }
            if (allMax > (s.globalHasMin ? s.globalMax : Long.MIN_VALUE) && (!has || allMax > max)) {
                if (!has) {
                    min = allMax;
                }
                max = allMax;
                has = true;
            }
        }
        closedHasMinMax = has;
        if (has) {
            if (!s.globalHasMin) {
                s.globalHasMin = true;
                s.globalMin = min;
                s.globalMax = max;
            } else {
                s.globalMin = Math.min(s.globalMin, min);
                s.globalMax = Math.max(s.globalMax, max);
            }
        }
        return new GaugeValue(s.name, s.help, s.labels, delta, dsum, has ? min : 0, has ? max : 0, total, sum);
    }

    /**
     * Adds the final values of stat {@code s}, stored at {@code o} in a terminated thread's
     * array {@code c}, to the retired totals. Under lock.
     */
    private static void retire(long[] c, Stat s, int o) {
        // Plain reads are safe: the owner terminated (isAlive() was false) before we read.
        if (s.kind == StatKind.COUNTER) {
            s.retiredTotal += c[o];
            return;
        }
        s.retiredTotal += c[o + Layout.G_COUNT];
        s.retiredSum += c[o + Layout.G_SUM];
        retireMinMaxCells(c, s, o);
    }

    /** The min/max part of {@link #retire}, gauge cells at {@code o}. */
    private static void retireMinMaxCells(long[] c, Stat s, int o) {
        for (int slot = 0; slot < 2; slot++) {
            int so = o + Layout.G_SLOT0 + slot * Layout.G_SLOT_CELLS;
            if (c[so + Layout.S_TAG] > 0) {
                retireMinMax(s, c[so + Layout.S_MIN], c[so + Layout.S_MAX]);
            }
        }
        if (c[o + Layout.G_CMIN] != 0) {
            long v = Layout.decodeMin(c[o + Layout.G_CMIN]);
            retireMinMax(s, v, v);
        }
        if (c[o + Layout.G_CMAX] != 0) {
            long v = Layout.decodeMax(c[o + Layout.G_CMAX]);
            retireMinMax(s, v, v);
        }
    }

    /** Adds the final buckets, sum and min/max of a terminated thread's histogram array to the retired totals. Under lock. */
    private static void retireHist(long[] c, Stat s) {
        // Plain reads are safe: the owner terminated (isAlive() was false) before we read.
        int lo = (int) c[Layout.H_LO];
        int len = (int) c[Layout.H_LEN];
        for (int k = 0; k < len; k++) {
            long n = c[Layout.H_BUCKETS + k];
            if (n != 0) {
                s.retiredBuckets.add(lo + k, n);
                s.retiredTotal += n;
            }
        }
        s.retiredSum += c[Layout.H_STAT + Layout.G_SUM];
        retireMinMaxCells(c, s, Layout.H_STAT);
    }

    private static void retireMinMax(Stat s, long mn, long mx) {
        if (!s.retiredHasMin) {
            s.retiredHasMin = true;
            s.retiredMin = mn;
            s.retiredMax = mx;
        } else {
            s.retiredMin = Math.min(s.retiredMin, mn);
            s.retiredMax = Math.max(s.retiredMax, mx);
        }
    }
}
