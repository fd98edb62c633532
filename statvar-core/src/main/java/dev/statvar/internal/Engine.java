package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.CounterValue;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The statistics engine behind one {@code StatRegistry}: per-thread cells, the lookup that finds
 * them, and the collector that turns them into intervals.
 *
 * <h2>Threading contract</h2>
 * Any number of threads call {@link #add}/{@link #report}/{@link #record}; collects are
 * serialised ({@link #collectLock}). On a platform thread that has used the registry before and
 * found its block in the table, an update executes no locked instruction and never waits. The
 * slow paths (a thread's first update, a stat registered since its array was sized, a histogram
 * value beyond the octaves it has recorded, {@code localView()}, a thread that collided in the
 * table or lost its ThreadLocals, virtual threads' gauges and histograms) take {@link #lock},
 * which {@link #collect} holds while it reads the live threads' arrays. {@code collect()} is
 * <b>not</b> an atomic snapshot across threads: an update racing it lands in this interval or
 * the next, never in both and never in neither.
 *
 * <pre>
 * Design
 * ------
 * Cells. Every platform thread that updates a stat gets one Block holding one long[] (Layout)
 * with ALL stats of this registry at fixed offsets, in registration order, padded at both ends.
 * Its owner is the only thread that writes its stat cells: a plain read of its own cell and an
 * opaque store (release for a gauge's count). Nothing else ever writes them, so no
 * read-modify-write is needed and no update can be lost between writers.
 *
 * Never reset. Cells only accumulate. The collector reads them (opaque/acquire) and keeps the
 * previous cumulative total per stat; an interval's value is the difference. There is no moment
 * at which a cell is zeroed under a writer, so there is nothing to lose: an update is in the
 * interval whose collect first sees its store. This is the seed's LongAdder "delta" fix, made
 * per-thread and without CAS. Subtraction is exact modulo 2^64.
 *
 * Finding the current thread's block. A table of Blocks indexed by (thread id & mask); the owner
 * check compares the Block's Thread with Thread.currentThread() by reference, so a Thread
 * subclass overriding getId() (JDK 17-18; threadId() is final from JDK 19 and used there) can at
 * worst collide, never write another thread's cells. Hit: 5 loads and a compare. Miss (first
 * use, a collision with another live thread, a virtual thread): the slow path. It finds the
 * thread's block through a ThreadLocal holding a WeakReference (a JDK class: nothing a thread
 * keeps references a statvar class strongly, so a dropped registry never pins its class loader),
 * and when a pool erased the thread's ThreadLocals (the JDK 21+ common pool does after every
 * task), through the table or, for a thread that collided, the spilled map under the lock: at
 * most one block per live thread, whatever pools do.
 * A block is installed into its slot when the slot is free or held by a dead thread; the table
 * doubles (to MAX_TABLE) when an install collides with a live thread and more than half of the
 * slots are taken, so a new block costs O(1) amortised, also when dead threads pile up between
 * collects.
 *
 * Local views write at a constant index. A cell reached through a runtime offset is addressed
 * [base + index*8]; a tight loop updating it pays the full store-to-load forwarding latency
 * (about 2 ns here), while the same cell at a constant index [base + disp] runs at 0.55 ns
 * (measured: docs/PERFORMANCE.md). So a local view gets its own small padded array laid out like
 * a one-stat block (stat at DATA_START), created once per (thread, stat), kept in the thread's
 * Block, and read, switched and retired by collect() with that Block. CounterImpl/GaugeImpl are
 * records: C2 trusts record final fields, so a handle held in a static final field gets its
 * offset folded into the instruction.
 *
 * Growth. A stat registered after a thread's array was sized makes the array too short
 * (limit > length); the owner copies it into a longer one under the lock. The lock excludes
 * collect()'s reading of live arrays, whose writes (EPOCH, G_SEEN) must not be lost by the copy.
 *
 * Gauge count, sum and min/max: GaugeCells (the writer half beside the reader half). collect()
 * raises the epoch in one array (volatile store) and then reads that array; each interval's min
 * and max cover every report it counts.
 *
 * Terminated threads. Thread.isAlive() == false happens-after every action of that thread
 * (JLS 17.4.4). New blocks go to a list (fresh) that collect() takes under the lock in O(1) and
 * keeps in its own list (known, guarded by collectLock). Without the engine lock it then finds
 * the dead among them, frees their table slots (a CAS that fails if install() gave the slot to
 * another thread meanwhile) and reads their final values into this interval and the stats'
 * retired totals. So threads that died since the last collect cost the lock nothing per thread;
 * the lock is held for reading the live threads' arrays (O(live arrays x stats)).
 *
 * Virtual threads get no storage of their own (there may be millions): they update one of a
 * few shared stripes (2 x cores), chosen by thread id. A stripe's cells live in segments laid
 * out like a thread's array, created on first use and never moved (capacities double, and no
 * stat straddles two segments), so a counter is one atomic add (LongAdder-class) and nothing can
 * be lost to a copy. Gauge reports and histogram records on a stripe take its ReentrantLock
 * (which parks and does not pin a carrier); the gauge protocol then holds with the lock holder
 * as the writer.
 *
 * Histograms. A histogram's buckets cannot live in the thread's shared array (58 x 64 buckets
 * for the whole long range); each (thread, histogram) gets its own array instead (Layout.H_*):
 * header, a gauge's sum and min/max cells at constant indices, then the buckets of the range
 * of values this thread has recorded, H_LO .. H_LO + H_LEN, in whole octaves. A record:
 * index = LogLinear.index(v) (one LZCNT, shifts), range check against H_LO/H_LEN, min/max as a
 * gauge, opaque store of the sum, release store of the bucket. A value outside the range takes
 * the slow path: under the lock the owner copies its array into one covering the new octave,
 * sets the old array's H_LEN to 0 so that any handle still holding it falls to the slow path,
 * and publishes the new one. The collector reads buckets with acquire, then the sum: every
 * counted record's sum and min/max are visible; a record racing the switch may be in this
 * interval's sum and the next interval's buckets, never lost or doubled. count = the sum of the
 * bucket deltas, so count and buckets always agree.
 * </pre>
 */
public final class Engine {
    /** Element access to cell arrays. */
    static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    /** Element access to stripe segments and histogram slots. */
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[][].class);
    /** Element access to the lookup table. */
    private static final VarHandle BLOCKS = MethodHandles.arrayElementVarHandle(Block[].class);
    /** A stat's place in the stripes: {@code segment << VLOC_SHIFT | index in the segment}. */
    static final int VLOC_SHIFT = 25;
    private static final int VLOC_MASK = (1 << VLOC_SHIFT) - 1;
    /** Cells of the first stripe segment; each next one doubles, up to MAX_SEGMENT_CELLS. */
    private static final int FIRST_SEGMENT_CELLS = 64;
    private static final int MAX_SEGMENT_CELLS = 1 << 24;
    /** Upper bound for maxStats: keeps every cell index of every array within an int. */
    public static final int MAX_STATS_LIMIT = 10_000_000;
    /** Access to {@link #table}. */
    private static final VarHandle TABLE;
    /**
     * A histogram array holding no bucket: a record into it always takes the slow path. Never
     * written (recordInto checks the range before any store).
     */
    static final long[] NO_BUCKETS = new long[Layout.H_BUCKETS + Layout.PAD];

    static {
        try {
            TABLE = MethodHandles.lookup().findVarHandle(Engine.class, "table", Block[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int INITIAL_TABLE = 64;
    private static final int MAX_TABLE = 1 << 16;
    /** A thread on the slow path retries installing itself into the table every this many calls. */
    private static final int INSTALL_RETRY_MASK = 1023;
    /**
     * How long collect() parks, without the lock, between switching the arrays to the new epoch
     * and reading them: reports that read the closing epoch just before the switch (still in a
     * writer's store buffer, or a writer preempted mid-report) finish meanwhile. Each would
     * otherwise be counted with its value in an older slot, making the interval's min/max
     * inexact (GaugeCells). Measured with one writer and back-to-back collects: without a grace
     * 22 % of gauge intervals were inexact. The OS rounds the park up (about 50 us on Linux).
     * Exactness of counts and coverage of min/max never depend on it. A copy made meanwhile
     * carries the new EPOCH and SEEN along, so nothing the collector wrote is lost.
     */
    static final long GRACE_NANOS = 5_000L;

    /**
     * Lookup table, thread id &amp; (length - 1) to that thread's Block. The field and its
     * elements are written only under {@link #lock}, with setRelease; read on the update path
     * with getAcquire, and plainly under the lock.
     */
    private Block[] table;

    private final int maxStats;
    /** Registration, blocks, growth, and the collector's reading of live arrays. */
    private final Object lock = new Object();
    /** Serialises collects; the collector state (Stat's collector fields, {@link #acc}) is guarded by it. */
    private final Object collectLock = new Object();
    /**
     * The calling thread's Block, weakly: a thread outliving this registry keeps no strong
     * reference to a statvar object (class-loader pinning), and a pool that erases ThreadLocals
     * only costs a lookup in {@link #byThread}.
     */
    private final ThreadLocal<WeakReference<Block>> ownBlock = new ThreadLocal<>();
    /** Shared cells for virtual threads; final, created once. */
    private final Stripe[] stripes;
    /** Every registered stat, lock-free to read (appended under {@link #lock}). */
    private final StatList stats = new StatList();

    // ---- guarded by lock ----
    /** Table slots holding a block (live, or dead and not yet cleared by collect()). */
    private int occupied;
    /** Blocks made since collect() last took them (it then keeps them in {@link #known}). */
    private ArrayList<Block> fresh = new ArrayList<>();
    /**
     * The blocks of live threads that are not in the table (their slot is taken by another live
     * thread), by thread: with the table, it finds any live thread's one block.
     */
    private final IdentityHashMap<Thread, Block> spilled = new IdentityHashMap<>();
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

    /**
     * The longest single hold of {@link #lock} by the last collect(), in ns (wall time): how long
     * a slow path could have waited for it. Written by the collector, read by tests (volatile).
     */
    private volatile long longestHoldNanos;

    // ---- guarded by collectLock ----
    /** Every block collect() has taken from {@link #fresh} and not yet found dead. */
    private ArrayList<Block> known = new ArrayList<>();
    private Instant intervalStart = Instant.now();
    private Acc acc = new Acc(0);
    private final GaugeCells.MinMax minMax = new GaugeCells.MinMax();

    public Engine(int maxStats) {
        if (maxStats < 1 || maxStats > MAX_STATS_LIMIT) {
            throw new IllegalArgumentException("maxStats must be in 1.." + MAX_STATS_LIMIT + ", was " + maxStats);
        }
        this.maxStats = maxStats;
        TABLE.setRelease(this, new Block[INITIAL_TABLE]); // pairs with getAcquire(TABLE) on the update path
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
    Object register(String name, Labels labels, String help, StatKind kind, HandleFactory factory) {
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
    Object registerHistogram(String name, Labels labels, String help, int bits, HistogramFactory factory) {
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

    /** Registers a counter (or returns the existing one); see {@link #register}. */
    public Counter counter(String name, Labels labels, String help) {
        return (Counter) register(name, labels, help, StatKind.COUNTER,
                (e, idx, off, lim, vloc) -> new CounterImpl(e, name, idx, off, lim, vloc));
    }

    /** Registers a gauge (or returns the existing one); see {@link #register}. */
    public Gauge gauge(String name, Labels labels, String help) {
        return (Gauge) register(name, labels, help, StatKind.GAUGE,
                (e, idx, off, lim, vloc) -> new GaugeImpl(e, name, idx, off, lim, vloc));
    }

    /** Registers a histogram (or returns the existing one); see {@link #registerHistogram}. */
    public Histogram histogram(String name, Labels labels, String help, HistogramPrecision precision) {
        int bits = precision.subBucketBits();
        return (Histogram) registerHistogram(name, labels, help, bits,
                (e, hindex) -> new HistogramImpl(e, name, hindex, bits, precision));
    }

    /** Creates the public handle of a histogram. */
    @FunctionalInterface
    interface HistogramFactory {
        Object create(Engine engine, int hindex);
    }

    /** Creates the public handle of a stat. */
    @FunctionalInterface
    interface HandleFactory {
        Object create(Engine engine, int index, int offset, int limit, int vloc);
    }

    /**
     * An empty value for every stat registered so far (what an interval without updates
     * delivers), with their registration times; reads no cell, closes no interval, takes no lock.
     */
    public Interval registered() {
        int n = stats.size(); // lock-free: see StatList
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

    /** Number of registered stats; lock-free. */
    public int size() {
        return stats.size();
    }

    // ------------------------------------------------------------------ update path

    /** The table slot of thread {@code t} in a table of {@code length} slots. */
    private static int slot(Thread t, int length) {
        return (int) Threads.id(t) & (length - 1);
    }

    /**
     * The calling thread's Block if the table holds it, else null. Pairs: getAcquire(TABLE) with
     * the setRelease of the table in the constructor and resizeTable(); getAcquire of the slot
     * with setRelease in install(). The owner check compares Threads, so no id can be spoofed.
     */
    private Block tableBlock(Thread t) {
        Block[] tab = (Block[]) TABLE.getAcquire(this);
        Block b = (Block) BLOCKS.getAcquire(tab, slot(t, tab.length));
        return b != null && b.owner == t ? b : null;
    }

    /**
     * Adds {@code n} to the counter at {@code off} on behalf of the calling thread.
     * No locked instruction when the calling platform thread is found in the table.
     */
    public void add(int off, int limit, int vloc, long n) {
        Thread t = Thread.currentThread();
        Block b = tableBlock(t);
        if (b != null) {
            long[] c = b.cells; // owner-only field: our own write
            if (limit <= c.length) {
                addInto(c, off, n);
                return;
            }
        }
        addSlow(t, off, limit, vloc, n);
    }

    /** Records {@code v} in the gauge at {@code off} on behalf of the calling thread. */
    public void report(int off, int limit, int vloc, long v) {
        Thread t = Thread.currentThread();
        Block b = tableBlock(t);
        if (b != null) {
            long[] c = b.cells; // owner-only field: our own write
            if (limit <= c.length) {
                GaugeCells.report(c, off, v);
                return;
            }
        }
        reportSlow(t, off, limit, vloc, v);
    }

    /** Counter update into cells only the caller writes. */
    static void addInto(long[] c, int off, long n) {
        // Single writer: plain read of our own cell, opaque store; pairs with getOpaque in readStat().
        LONGS.setOpaque(c, off, c[off] + n);
    }

    /**
     * Records {@code v} (>= 0) in the histogram {@code hindex} of {@code bits} sub-bucket bits on
     * behalf of the calling thread. No locked instruction when the calling platform thread is
     * found in the table and the value is within the range its array covers.
     */
    public void record(int hindex, int bits, long v) {
        Thread t = Thread.currentThread();
        Block b = tableBlock(t);
        if (b != null) {
            long[][] hs = b.hists; // owner-only field: our own write
            if (hs != null && hindex < hs.length) {
                long[] c = hs[hindex]; // owner-only: our own write (setRelease in histArray())
                if (c != null && recordInto(c, bits, v)) {
                    return;
                }
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
        if (Broken.BUCKET_FIRST) { // test-only switch: BUCKET_FIRST publishes the bucket before the min/max and sum
            LONGS.setRelease(c, Layout.H_BUCKETS + i, c[Layout.H_BUCKETS + i] + 1);
        }
        GaugeCells.minMax(c, Layout.H_STAT, v, true);
        // Single writer: plain reads of our own cells, opaque store of the sum. Pairs with getOpaque(sum) in readHist().
        LONGS.setOpaque(c, Layout.H_STAT + Layout.G_SUM, c[Layout.H_STAT + Layout.G_SUM] + v);
        // Release: the sum and min/max stores are visible to whoever sees this bucket count
        // (pairs with getAcquire of the buckets in readHist()).
        if (!Broken.BUCKET_FIRST) { // test-only switch: see above
            LONGS.setRelease(c, Layout.H_BUCKETS + i, c[Layout.H_BUCKETS + i] + 1);
        }
        return true;
    }

    @SlowPath("a virtual thread (a stripe lock), or a platform thread not in the table or beyond its array's octaves (the engine lock)")
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
    @SlowPath("a platform thread's first record of a histogram or a value beyond the octaves its array covers: the engine lock")
    long[] recordOwn(Thread t, int hindex, int bits, long v) {
        Block b = ownBlock(t, Layout.MIN_LENGTH);
        long[][] hs = b.hists; // owner-only field: our own write
        long[] c = hs != null && hindex < hs.length ? hs[hindex] : null;
        if (c != null && recordInto(c, bits, v)) {
            retryInstall(b);
            return c;
        }
        synchronized (lock) { // excludes collect()'s reading of live arrays (it writes EPOCH, G_SEEN)
            b.hists = histSlots(b.hists, hindex);
            c = histArray(b.hists, hindex, LogLinear.index(v, bits), bits, Threads.id(t));
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
     * collect(), which writes EPOCH and G_SEEN; the caller is the only writer of the other cells.
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
        SLOTS.setRelease(hs, hindex, c); // publishes the array to the owner's later plain reads and local views
        return c;
    }

    @SlowPath("a virtual thread (an atomic add), or a platform thread not in the table or whose array is too short (the engine lock)")
    private void addSlow(Thread t, int off, int limit, int vloc, long n) {
        if (Threads.isVirtual(t)) {
            long[] seg = segment(stripes[stripeIndex(t)], vloc >>> VLOC_SHIFT);
            // Shared by virtual threads: an atomic add. Pairs with getOpaque in readStat().
            LONGS.getAndAdd(seg, vloc & VLOC_MASK, n);
        } else {
            addInto(ownCells(t, limit), off, n);
        }
    }

    @SlowPath("a virtual thread (a stripe lock), or a platform thread not in the table or whose array is too short (the engine lock)")
    private void reportSlow(Thread t, int off, int limit, int vloc, long v) {
        if (Threads.isVirtual(t)) {
            Stripe s = lockStripe(t);
            try {
                // The lock holder is the stripe's only gauge writer: the single-writer protocol holds.
                GaugeCells.report(segment(s, vloc >>> VLOC_SHIFT), vloc & VLOC_MASK, v);
            } finally {
                s.lock.unlock();
            }
        } else {
            GaugeCells.report(ownCells(t, limit), off, v);
        }
    }

    /** The home stripe of a virtual thread: its id, hashed. */
    private int stripeIndex(Thread t) {
        return (int) ((Threads.id(t) * 0x9E3779B97F4A7C15L) >>> 40) & (stripes.length - 1);
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
                seg[Layout.OWNER_TID] = -1; // no thread's
                seg[Layout.EPOCH] = epoch;
                SLOTS.setRelease(s.segments, k, seg); // pairs with getAcquire in segment()
            }
            return seg;
        }
    }

    /**
     * The calling platform thread's Block: through its ThreadLocal, else (first use, or a pool
     * erased its ThreadLocals) the one the table or {@link #spilled} holds, else a new one.
     */
    private Block ownBlock(Thread t, int limit) {
        WeakReference<Block> r = ownBlock.get();
        Block b = r != null ? r.get() : null;
        if (b == null) {
            b = tableBlock(t);
            if (b == null) {
                b = blockOf(t, limit);
            }
            ownBlock.set(new WeakReference<>(b));
        }
        return b;
    }

    /** The Block of live thread {@code t}, made (covering {@code limit}) and installed if it has none. */
    private Block blockOf(Thread t, int limit) {
        long[] c = new long[lengthFor(limit, 0)]; // allocated by the owner: in its own TLAB
        c[Layout.OWNER_TID] = Threads.id(t); // diagnostic only; never changes
        synchronized (lock) {
            Block b = spilled.get(t);
            if (b == null && (b = tableBlock(t)) == null) {
                c[Layout.EPOCH] = epoch; // collect() writes it later, under this lock
                b = new Block(t, c);
                fresh.add(b);
                if (!install(b)) {
                    spilled.put(t, b);
                    if (2 * occupied > table.length && table.length < MAX_TABLE) {
                        resizeTable(2 * table.length); // installs b too (it is spilled), or spills it again
                    }
                }
            }
            return b;
        }
    }

    /**
     * The calling platform thread's own cells, covering {@code limit}: created, grown and
     * installed into the table as needed.
     */
    private long[] ownCells(Thread t, int limit) {
        Block b = ownBlock(t, limit);
        long[] c = b.cells; // owner-only field: our own write
        if (limit > c.length) {
            return grow(b, limit);
        }
        retryInstall(b);
        return c;
    }

    /** Now and then, a thread on the slow path tries to take its table slot (it may have been freed). */
    private void retryInstall(Block b) {
        if ((++b.slowCalls & INSTALL_RETRY_MASK) == 0) {
            synchronized (lock) {
                if (b.tableIndex < 0 && install(b)) {
                    spilled.remove(b.owner);
                }
            }
        }
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
        Block b = ownBlock(t, Layout.MIN_LENGTH);
        synchronized (lock) {
            if (b.views == null) {
                b.views = new HashMap<>();
            }
            long[] v = b.views.get(index);
            if (v == null) {
                Stat s = stats.get(index);
                v = new long[Layout.DATA_START + s.limit - s.offset]; // allocated by the owner: its TLAB
                v[Layout.OWNER_TID] = Threads.id(t);
                v[Layout.EPOCH] = epoch; // under lock: collect() writes it later under this lock
                b.views.put(index, v);
            }
            return v; // published to the collector by the lock; the owner created it
        }
    }

    /** Array length covering {@code limit}, at least double the current one (amortised growth). */
    private static int lengthFor(int limit, int current) {
        return Math.max(Layout.MIN_LENGTH, Math.max(limit, 2 * current));
    }

    /** Copies a thread's cells into a longer array. Caller is the owner. */
    private long[] grow(Block b, int limit) {
        // test-only switch: GROW_UNLOCKED copies without the lock (a fresh monitor excludes nobody)
        synchronized (Broken.GROW_UNLOCKED ? new Object() : lock) { // excludes collect()'s reading of live arrays (it writes EPOCH, G_SEEN)
            long[] old = b.cells;
            if (limit <= old.length) {
                return old;
            }
            long[] c = new long[lengthFor(limit, old.length)];
            System.arraycopy(old, 0, c, 0, old.length);
            b.cells = c; // under lock: read by the collector under lock, and by the owner itself
            return c;
        }
    }

    /**
     * Puts a block into its table slot if the slot is free or held by a terminated thread.
     * Under lock.
     *
     * @return false if a live thread holds the slot
     */
    private boolean install(Block b) {
        Block[] tab = table; // under lock: written only under this lock
        int i = slot(b.owner, tab.length);
        Block cur = tab[i];
        if (cur == null) {
            occupied++;
        } else if (cur.owner.isAlive()) {
            return false;
        } else {
            cur.tableIndex = -1;
        }
        b.tableIndex = i;
        BLOCKS.setRelease(tab, i, b); // pairs with getAcquire in tableBlock()
        return true;
    }

    /**
     * Replaces the table with one of {@code size} slots, reinstalling the live blocks (every live
     * thread's block is in the table or spilled; those that collide now are spilled). Under lock;
     * O(table + spilled), at most log2(MAX_TABLE / INITIAL_TABLE) times.
     */
    private void resizeTable(int size) {
        ArrayList<Block> all = new ArrayList<>(spilled.values());
        for (Block b : table) {
            if (b != null) {
                all.add(b);
            }
        }
        TABLE.setRelease(this, new Block[size]); // pairs with getAcquire(TABLE) in tableBlock(); slots fill below
        occupied = 0;
        spilled.clear();
        for (Block b : all) {
            b.tableIndex = -1;
            if (b.owner.isAlive() && !install(b)) {
                spilled.put(b.owner, b);
            }
        }
    }

    /** The longest single hold of the engine's lock by the last collect(), in ns (tests, benchmarks). */
    public long lastCollectLongestHoldNanos() {
        return longestHoldNanos; // volatile read: pairs with the write at the end of collect()
    }

    /** Number of per-thread blocks currently held (live threads, and dead ones not yet collected). */
    public int threadBlocks() {
        synchronized (collectLock) {
            synchronized (lock) {
                return known.size() + fresh.size();
            }
        }
    }

    // ------------------------------------------------------------------ collection

    /** Collector scratch space, per stat; guarded by collectLock. */
    private static final class Acc {
        long[] total;
        long[] sum;
        boolean[] has;
        long[] min;
        long[] max;
        boolean[] inexact;

        Acc(int n) {
            total = new long[n];
            sum = new long[n];
            has = new boolean[n];
            min = new long[n];
            max = new long[n];
            inexact = new boolean[n];
        }

        int size() {
            return total.length;
        }

        /** Zeroed, for {@code n} stats. */
        Acc reset(int n) {
            if (n != total.length) {
                return new Acc(n);
            }
            Arrays.fill(total, 0);
            Arrays.fill(sum, 0);
            Arrays.fill(has, false);
            Arrays.fill(inexact, false);
            return this;
        }

        /** Room for {@code n} stats, keeping what is there. */
        void ensure(int n) {
            if (n > total.length) {
                total = Arrays.copyOf(total, n);
                sum = Arrays.copyOf(sum, n);
                has = Arrays.copyOf(has, n);
                min = Arrays.copyOf(min, n);
                max = Arrays.copyOf(max, n);
                inexact = Arrays.copyOf(inexact, n);
            }
        }

        void merge(int i, GaugeCells.MinMax m) {
            if (m.has) {
                if (!has[i]) {
                    has[i] = true;
                    min[i] = m.min;
                    max[i] = m.max;
                } else {
                    min[i] = Math.min(min[i], m.min);
                    max[i] = Math.max(max[i], m.max);
                }
            }
            inexact[i] |= m.inexact;
        }
    }

    /** The values of one closed interval; {@code createdMillis[i]}: when {@code values.get(i)}'s stat was registered. */
    public record Interval(Instant start, Instant end, List<StatValue> values, long[] createdMillis) {
    }

    /**
     * Closes the current interval and returns its values. Serialised; does not block updates.
     * Holds {@link #lock} twice: for one pass over the blocks (detaching dead threads'), and for
     * reading the live threads' arrays; dead threads' final values are read in between.
     */
    public Interval collect() {
        synchronized (collectLock) {
            long closing;
            long held;
            synchronized (lock) { // O(1): no work per block under the lock
                long t0 = System.nanoTime();
                closing = epoch;
                known.addAll(takeFresh());
                held = System.nanoTime() - t0;
            }
            // Without the lock: find the dead (isAlive() == false happens-after every write of
            // the owner, JLS 17.4.4: retire() reads after this) and free their table slots.
            ArrayList<Block> live = new ArrayList<>(known.size());
            ArrayList<Block> dead = new ArrayList<>();
            Block[] tab = (Block[]) TABLE.getAcquire(this); // pairs with setRelease(TABLE) in resizeTable()
            int cleared = 0;
            for (Block b : known) {
                if (!Broken.NO_ISALIVE && b.owner.isAlive()) { // test-only switch: NO_ISALIVE folds live threads' blocks too
                    live.add(b);
                    continue;
                }
                dead.add(b);
                // A dead thread's block leaves its slot, unless install() already gave the slot to another.
                // Pairs with getAcquire in tableBlock(); install() writes slots only under the lock.
                if (BLOCKS.compareAndSet(tab, slot(b.owner, tab.length), b, null)) {
                    cleared++;
                }
            }
            int n;
            Stat[] hists;
            synchronized (lock) { // after the isAlive() checks: every stat a dead thread used is listed
                long t0 = System.nanoTime();
                n = stats.size();
                hists = histStats.toArray(new Stat[0]);
                held = Math.max(held, System.nanoTime() - t0);
            }
            acc = acc.reset(n);
            for (Stat h : hists) {
                h.liveBuckets.clear();
            }
            for (Block b : dead) {
                retire(b, hists, closing); // its owner is dead; the collector is the only reader of a detached block
            }
            known = live;
            Instant end;
            synchronized (lock) {
                long t0 = System.nanoTime();
                if (table == tab) {
                    occupied -= cleared; // else resizeTable() has counted the new table afresh
                }
                if (!spilled.isEmpty()) { // few: threads that collided
                    for (var it = spilled.values().iterator(); it.hasNext(); ) {
                        if (!it.next().owner.isAlive()) {
                            it.remove();
                        }
                    }
                }
                known.addAll(takeFresh());
                end = Instant.now();
                switchAll(++epoch); // arrays made from now on start at the new epoch (under this lock)
                held = Math.max(held, System.nanoTime() - t0);
            }
            // Reports that read the closing epoch just before the switch finish meanwhile; see GRACE_NANOS.
            LockSupport.parkNanos(GRACE_NANOS);
            synchronized (lock) {
                long t0 = System.nanoTime();
                known.addAll(takeFresh()); // made during the grace: their EPOCH is the new one already
                n = stats.size(); // stats registered since: their cells are all zero so far
                acc.ensure(n);
                for (Block b : known) {
                    readBlock(b, closing);
                }
                for (Stripe s : stripes) {
                    readHists(s.hists, closing); // under lock: s.hists is replaced only under this lock
                    for (int k = 0; k < segmentCount; k++) {
                        long[] seg = s.segments[k]; // under lock: written only under this lock
                        if (seg != null) {
                            readSegment(seg, k, closing);
                        }
                    }
                }
                List<StatValue> values = new ArrayList<>(n);
                long[] created = new long[n];
                for (int i = 0; i < n; i++) {
                    Stat s = stats.get(i);
                    values.add(close(s));
                    created[i] = s.createdMillis;
                }
                Interval result = new Interval(intervalStart, end, List.copyOf(values), created);
                intervalStart = end;
                longestHoldNanos = Math.max(held, System.nanoTime() - t0);
                return result;
            }
        }
    }

    /** The blocks made since the last take, handed to the collector. Under lock: O(1). */
    private ArrayList<Block> takeFresh() {
        ArrayList<Block> f = fresh;
        if (!f.isEmpty()) {
            fresh = new ArrayList<>();
        }
        return f.isEmpty() ? new ArrayList<>(0) : f;
    }

    /**
     * Switches every array to epoch {@code next}: live threads' cells, views and histograms, and
     * the stripes'. Under lock.
     */
    private void switchAll(long next) {
        for (Block b : known) {
            switchTo(b.cells, next); // under lock: the owner replaces it only under this lock
            if (b.views != null) {
                for (long[] v : b.views.values()) {
                    switchTo(v, next);
                }
            }
            switchHists(b.hists, next);
        }
        for (Stripe s : stripes) {
            switchHists(s.hists, next);
            for (int k = 0; k < segmentCount; k++) {
                long[] seg = s.segments[k]; // under lock: written only under this lock
                if (seg != null) {
                    switchTo(seg, next);
                }
            }
        }
    }

    private static void switchHists(long[][] hs, long next) {
        if (hs != null) {
            for (long[] c : hs) {
                if (c != null) {
                    switchTo(c, next);
                }
            }
        }
    }

    /** Volatile: the switch is ordered before the collector's reads. Pairs with getOpaque(EPOCH) in GaugeCells.minMax(). */
    private static void switchTo(long[] c, long next) {
        LONGS.setVolatile(c, Layout.EPOCH, next);
    }

    /** Reads a live thread's arrays, switched already. Under lock. */
    private void readBlock(Block b, long closing) {
        readCells(b.cells, closing); // under lock: the owner replaces it only under this lock
        if (b.views != null) {
            for (var v : b.views.entrySet()) {
                readStat(v.getValue(), Layout.DATA_START, stats.get(v.getKey()), closing);
            }
        }
        readHists(b.hists, closing);
    }

    /** Reads the counters and gauges of a thread's array into {@link #acc}. */
    private void readCells(long[] c, long closing) {
        int n = acc.size();
        for (int i = 0; i < n; i++) {
            Stat s = stats.get(i);
            if (s.limit > c.length) {
                break; // stats are in offset order; this array has not been grown to them: all zero
            }
            if (s.kind != StatKind.HISTOGRAM) { // histograms have arrays of their own
                readStat(c, s.offset, s, closing);
            }
        }
    }

    /** As {@link #readCells}, for segment {@code k} of a stripe. Under lock. */
    private void readSegment(long[] seg, int k, long closing) {
        for (int i = segmentFirstStat[k]; i < acc.size(); i++) {
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

    /** Adds the cumulative values of stat {@code s}, stored at {@code o} in {@code c}, to {@link #acc}. */
    private void readStat(long[] c, int o, Stat s, long closing) {
        Acc a = acc;
        int i = s.index;
        if (s.kind == StatKind.COUNTER) {
            a.total[i] += (long) LONGS.getOpaque(c, o); // pairs with setOpaque in addInto()
            return;
        }
        // Count first, with acquire: the sum and min/max of every counted report are then visible.
        long count = (long) LONGS.getAcquire(c, o + Layout.G_COUNT); // pairs with setRelease(G_COUNT) in GaugeCells.report()
        a.total[i] += count;
        a.sum[i] += (long) LONGS.getOpaque(c, o + Layout.G_SUM); // pairs with setOpaque(G_SUM) in GaugeCells.report()
        readMinMax(c, o, count, i, closing);
    }

    private void readMinMax(long[] c, int o, long count, int i, long closing) {
        GaugeCells.MinMax m = minMax;
        m.clear();
        GaugeCells.read(c, o, count, closing, m);
        acc.merge(i, m);
    }

    /** Reads a thread's (or stripe's) histogram arrays, switched already. Under lock. */
    private void readHists(long[][] hs, long closing) {
        if (hs == null) {
            return;
        }
        for (int h = 0; h < hs.length; h++) {
            long[] c = hs[h]; // under lock: replaced only under this lock
            if (c != null) {
                readHist(c, histStats.get(h), closing, false);
            }
        }
    }

    /**
     * Adds the cumulative buckets, sum and min/max of one histogram array to {@link #acc}, or, for
     * a terminated thread's array ({@code retire}), to the stat's retired totals.
     */
    private void readHist(long[] c, Stat s, long closing, boolean retire) {
        int lo = (int) c[Layout.H_LO]; // fixed for the array's life, and H_LEN changes only under lock (or owner dead)
        int len = (int) c[Layout.H_LEN];
        BucketCounts into = retire ? s.retiredBuckets : s.liveBuckets;
        into.ensure(lo, lo + len);
        long count = 0;
        for (int k = 0; k < len; k++) {
            // Acquire: the sum and min/max of every record counted here are visible below.
            long n = (long) LONGS.getAcquire(c, Layout.H_BUCKETS + k); // pairs with setRelease in recordInto()
            if (n != 0) {
                into.add(lo + k, n);
                count += n;
            }
        }
        long sum = (long) LONGS.getOpaque(c, Layout.H_STAT + Layout.G_SUM); // after the acquires; pairs with setOpaque in recordInto()
        if (retire) {
            s.retiredTotal += count;
            s.retiredSum += sum;
        } else {
            acc.total[s.index] += count;
            acc.sum[s.index] += sum;
        }
        readMinMax(c, Layout.H_STAT, count, s.index, closing);
    }

    /**
     * Adds the final values of a terminated thread's block to the retired totals, and the min/max
     * of its reports not yet delivered to this interval. Without the lock: the owner terminated
     * before detachDead() found it dead, and nothing else writes a detached block.
     */
    private void retire(Block b, Stat[] hists, long closing) {
        long[] c = b.cells;
        int n = acc.size();
        for (int i = 0; i < n; i++) {
            Stat s = stats.get(i);
            if (s.limit > c.length) {
                break;
            }
            if (s.kind != StatKind.HISTOGRAM) {
                retireStat(c, s.offset, s, closing);
            }
        }
        if (b.views != null) {
            for (var v : b.views.entrySet()) {
                retireStat(v.getValue(), Layout.DATA_START, stats.get(v.getKey()), closing);
            }
        }
        if (b.hists != null) {
            for (int h = 0; h < b.hists.length; h++) {
                if (b.hists[h] != null) {
                    readHist(b.hists[h], hists[h], closing, true);
                }
            }
        }
    }

    private void retireStat(long[] c, int o, Stat s, long closing) {
        if (s.kind == StatKind.COUNTER) {
            s.retiredTotal += c[o]; // the owner is dead (see retire())
            return;
        }
        long count = c[o + Layout.G_COUNT];
        s.retiredTotal += count;
        s.retiredSum += c[o + Layout.G_SUM];
        readMinMax(c, o, count, s.index, closing);
    }

    /** Turns the accumulated cumulative values of one stat into its interval value. Under collectLock. */
    private StatValue close(Stat s) {
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
        boolean has = a.has[i];
        long min = has ? a.min[i] : 0;
        long max = has ? a.max[i] : 0;
        // An interval with a count always finds a min/max (GaugeCells); were it not so, say so.
        boolean exact = !a.inexact[i] && (has || delta == 0);
        if (has) {
            s.allMin = s.allHasMin ? Math.min(s.allMin, min) : min;
            s.allMax = s.allHasMin ? Math.max(s.allMax, max) : max;
            s.allHasMin = true;
        }
        if (s.kind == StatKind.GAUGE) {
            return new GaugeValue(s.name, s.help, s.labels, delta, dsum, min, max, total, sum, exact);
        }
        return closeHistogram(s, dsum, min, max, exact, sum);
    }

    /** The interval's bucket deltas and their totals since registration. Under collectLock. */
    private static HistogramValue closeHistogram(Stat s, long dsum, long min, long max, boolean exact, long totalSum) {
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
        for (int i = from; i < to; i++) {
            long total = live.get(i) + retired.get(i);
            long d = total - prev.get(i);
            if (d != 0) {
                prev.set(i, total);
                delta[i - from] = d;
            }
        }
        HistogramValue totals = new HistogramValue(s.name, s.help, s.labels, precision, totalSum,
                s.allHasMin ? s.allMin : 0, s.allHasMin ? s.allMax : 0, prev.lo(), prev.copy());
        return new HistogramValue(s.name, s.help, s.labels, precision, dsum, min, max, from, delta, exact)
                .withTotals(totals);
    }
}
