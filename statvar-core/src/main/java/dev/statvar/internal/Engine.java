package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The statistics engine behind one {@code StatRegistry}: registration and the collection of
 * intervals, over its parts (see {@code package-info} for the map of roles and the table of
 * shared fields). The update paths are the handles' ({@link CounterImpl}, {@link GaugeImpl},
 * {@link HistogramImpl}) and their slow half is {@link Writers}'.
 *
 * <h2>Threading contract</h2>
 * Any number of threads update (counters: {@link CounterImpl}; gauges: {@link GaugeImpl};
 * histograms: {@link HistogramImpl}); collects are serialised ({@link #collectLock}). On a platform
 * thread that has used the stat before and found its cell or view in the stat's table or its block in
 * the thread table, an update executes no locked instruction and never waits. The slow paths
 * (marked {@link SlowPath}: a thread's first update, a stat registered since its array was sized,
 * a histogram value beyond the octaves it has recorded, a thread that collided in a table or lost
 * its ThreadLocals, virtual threads' gauges and histograms) take the engine
 * {@link #lock}, which {@link #collect} holds while it switches and reads the live threads'
 * arrays. {@code collect()} is <b>not</b> an atomic snapshot across threads: an update racing it
 * lands in this interval or the next, never in both and never in neither.
 *
 * <pre>
 * Design
 * ------
 * Cells. Every platform thread that updates a stat gets one Block, found through the engine's
 * thread table (ThreadTable.lookup: the table, the block, its owner compared by reference),
 * holding one long[] per kind (Layout), each padded at both ends: its counters, one cell each at
 * DATA_START + the counter's index among counters, and its gauges, GAUGE_CELLS each, in
 * registration order within the kind. So a (counter, thread) is one 8-byte cell (8.6 bytes
 * measured with its share of the array's padding and the block: MemoryPerThreadTest) and a thread
 * touching ten counters touches one or two cache lines (LayoutTest) (the "combined statistics approach" of
 * "Statistical variables in Java: not quite legal but very fast", 2017). Each
 * histogram gets an array of its own per thread (HistogramCells), found through the histogram's
 * own table of per-thread views (HistogramImpl). The owner is the only writer of its cells, so no
 * read-modify-write is needed and no update can be lost between writers (CounterCells,
 * GaugeCells, HistogramCells hold each protocol's two halves). Virtual threads share a few
 * stripes instead (Stripes).

 * Local views write at a constant index: a gauge's local view gets its own small padded array
 * laid out like a one-stat block (stat at DATA_START), created once per (thread, gauge), kept in
 * the thread's Block, and switched, read and retired with it. A counter's local view holds the
 * thread's counter array and the counter's cell index (LocalCounter: no lookup; the owner
 * repoints its views when the array grows); a histogram's is the
 * thread's LocalHistogram of it, which the histogram's table holds too (HistogramImpl). Counter
 * and gauge handles are records: C2 trusts record final fields, so a stat held in a static final
 * field gets its thread table and offset folded into the instructions.
 *
 * Collect, in four steps:
 *  1. under the lock, O(1): take the blocks made since the last collect (ThreadTable.takeFresh);
 *  2. without the lock: find the blocks whose owner terminated (Thread.isAlive() == false
 *     happens-after every action of that thread, JLS 17.4.4: pairing DEATH), free their slots,
 *     and read their final values into the settled totals (IntervalCloser.retire*);
 *  3. under the lock: advance the epoch and switch every live array to it (pairing EPOCH); then,
 *     without the lock, a grace of at least GRACE_NANOS, so that reports that read the closing
 *     epoch just before the switch finish (each would otherwise be counted with its value in an
 *     older min/max slot): the collector reads live counter arrays meanwhile until it has passed
 *     (counters need no switch: the collector only reads them, and an owner that replaces its
 *     array publishes the copy with release: pairing COUNTERS) and parks for what is left of it;
 *  4. under the lock: read every live gauge and histogram array (O(live arrays x stats)) and the
 *     stripes' histograms, and their counters and gauges whose card is dirty (Stripes); then without
 *     it, the counter arrays the grace left (and those of blocks made in it);
 *  5. close each stat's value, without the lock.
 * So threads that died since the last collect cost the lock nothing per thread, nor do counters.
 *
 * Removal. remove() puts a tombstone (the same cells, the handle held weakly) in the stat's place.
 * The first collect whose step 1 sees it (so every update that happens-before remove() is read)
 * delivers its last value and marks the slot gone: later collects skip it unread (the threads'
 * arrays; in the stripes it is read when its card is dirty, into its settled totals). Once the GC has
 * cleared the handle (its reference queue, polled in step 1: no thread can update through it any
 * more), that collect reads the slot once more and makes the values the baseline of the slot's
 * next owner (IntervalCloser.rebase), and the slot goes to the free list of its kind. A histogram's
 * slot needs no wait: its arrays carry the slot's generation (Layout.H_GEN), the next histogram in
 * the slot gets the next generation and arrays of its own, and only arrays of the current
 * generation are written for it or read (a stale handle's slow paths see it reclaimed, under a
 * lock, and drop its records); so the collect that delivers a removed histogram frees its slot
 * (IntervalCloser.forget; its free list is by precision) and sweeps its arrays from the live
 * threads and the stripes. A stat registered after step 4 (Stat.seq) is left to the next collect.
 * </pre>
 */
public final class Engine {
    /** Upper bound for maxStats: keeps every cell index of every array within an int. */
    public static final int MAX_STATS_LIMIT = Registrations.MAX_STATS_LIMIT;
    /** Upper bound for hotAfter: cold counts are chars. */
    public static final int MAX_HOT_AFTER = Character.MAX_VALUE;

    /**
     * The least time collect() leaves, without the lock, between switching the arrays to the new
     * epoch and reading them: reports that read the closing epoch just before the switch (still in
     * a writer's store buffer, or a writer preempted mid-report) finish meanwhile. The collector
     * reads live counter arrays in it, one after another until it has passed, and parks for the
     * rest, if any; the OS rounds a park up
     * (by Linux's default timer slack, 50 us: prctl(2), PR_SET_TIMERSLACK; 59 us measured on the
     * Xeon 6/207). Measured with one writer and back-to-back collects: without a grace 22 % of
     * gauge intervals were inexact (MinMaxExactnessTest measures it with the grace parked and with
     * it spent reading counters). Exactness of counts and coverage of min/max never depend on it.
     * A copy made meanwhile carries the new EPOCH and SEEN along.
     */
    static final long GRACE_NANOS = 5_000L;

    /** The engine lock: registration, a thread's storage changes, and the collector's switch and reads. */
    private final Object lock = new Object();
    /** Serialises collects; the collector's state ({@link #closer}, {@link #known}) is guarded by it. */
    private final Object collectLock = new Object();

    private final Epoch epoch = new Epoch(); // guarded by lock
    private final Stripes stripes = new Stripes(lock, epoch);
    private final Registrations registrations;
    private final ThreadTable threads;
    /** The update paths' slow half, which the handles reach instead of this engine. */
    private final Writers writers;

    /** The longest single hold of {@link #lock} by the last collect(), in ns. Written by the collector (volatile). */
    private volatile long longestHoldNanos;

    // ---- guarded by collectLock ----
    /** Every block collect() has taken from the table's fresh list and not yet found dead. */
    private ArrayList<Block> known = new ArrayList<>();
    private Instant intervalStart = Instant.now();
    private final IntervalCloser closer = new IntervalCloser();
    /** The collector's side of removal: what it delivers for the last time, skips, reclaims. */
    private final Removals removals = new Removals();

    /**
     * An engine without stats.
     *
     * @param maxStats the most stats it registers, 1..{@link #MAX_STATS_LIMIT}
     * @throws IllegalArgumentException if {@code maxStats} is outside 1..{@link #MAX_STATS_LIMIT}
     */
    public Engine(int maxStats) {
        this(maxStats, dev.statvar.StatRegistry.DEFAULT_HOT_AFTER);
    }

    /**
     * An engine without stats.
     *
     * @param maxStats the most stats it registers, 1..{@link #MAX_STATS_LIMIT}
     * @param hotAfter a platform thread's updates of one gauge or histogram within an interval
     *                 before it gets its own copy (ColdCounts), 1..{@link #MAX_HOT_AFTER}
     * @throws IllegalArgumentException if an argument is outside its range
     */
    public Engine(int maxStats, int hotAfter) {
        if (hotAfter < 1 || hotAfter > MAX_HOT_AFTER) {
            throw new IllegalArgumentException("hotAfter must be in 1.." + MAX_HOT_AFTER + ", was " + hotAfter);
        }
        this.registrations = new Registrations(maxStats, stripes);
        this.threads = new ThreadTable(lock, epoch, registrations);
        this.writers = new Writers(threads, stripes, epoch, registrations, hotAfter);
    }

    /**
     * The most stats this engine registers.
     *
     * @return the {@code maxStats} it was made with
     */
    public int maxStats() {
        return registrations.maxStats();
    }

    // ------------------------------------------------------------------ registration

    /**
     * Registers a labelled family, or returns the existing one of this name.
     *
     * @param name        the family's name, checked by the caller
     * @param kind        the kind of its series
     * @param isSame      whether an existing family is the same (kind, label names, precision)
     * @param create      makes a new family
     * @param description the family as the exception message names it
     * @return the family of this name: the existing one, or the one {@code create} made
     * @throws IllegalArgumentException if the name is taken by a stat without labels or by another family
     */
    public Object registerFamily(String name, StatKind kind, Predicate<Object> isSame, Supplier<Object> create,
                                 String description) {
        synchronized (lock) {
            return registrations.family(name, isSame, create, description);
        }
    }

    /**
     * Registers a counter, or returns the existing one of this name and labels.
     *
     * @param name   its name, checked by the caller
     * @param labels its labels, {@link Labels#EMPTY} for none
     * @param help   its help text, checked by the caller; ignored if it exists
     * @return its handle
     * @throws IllegalArgumentException if the name is taken by another kind or a family, or the registry is full
     */
    public Counter counter(String name, Labels labels, String help) {
        return counter(name, labels, help, false);
    }

    /**
     * As {@link #counter(String, Labels, String)}; {@code exempt}: a new counter does not count
     * towards maxStats (a family's overflow series).
     *
     * @param name   its name, checked by the caller
     * @param labels its labels
     * @param help   its help text
     * @param exempt whether a new counter is exempt from maxStats
     * @return its handle
     */
    public Counter counter(String name, Labels labels, String help, boolean exempt) {
        synchronized (lock) {
            return registrations.cells(name, labels, help, StatKind.COUNTER, CounterImpl.class,
                    (idx, off, lim, vloc) -> new CounterImpl(threads, writers, name, idx, off, vloc), exempt);
        }
    }

    /**
     * Registers a gauge, or returns the existing one of this name and labels.
     *
     * @param name   its name, checked by the caller
     * @param labels its labels, {@link Labels#EMPTY} for none
     * @param help   its help text, checked by the caller; ignored if it exists
     * @return its handle
     * @throws IllegalArgumentException if the name is taken by another kind or a family, or the registry is full
     */
    public Gauge gauge(String name, Labels labels, String help) {
        return gauge(name, labels, help, false);
    }

    /**
     * As {@link #gauge(String, Labels, String)}; {@code exempt} as for {@link #counter(String, Labels, String, boolean)}.
     *
     * @param name   its name
     * @param labels its labels
     * @param help   its help text
     * @param exempt whether a new gauge is exempt from maxStats
     * @return its handle
     */
    public Gauge gauge(String name, Labels labels, String help, boolean exempt) {
        synchronized (lock) {
            return registrations.cells(name, labels, help, StatKind.GAUGE, GaugeImpl.class,
                    (idx, off, lim, vloc) -> new GaugeImpl(threads, writers, name, idx, off, lim, vloc), exempt);
        }
    }

    /**
     * Registers a histogram, or returns the existing one of this name and labels (same precision).
     *
     * @param name      its name, checked by the caller
     * @param labels    its labels, {@link Labels#EMPTY} for none
     * @param help      its help text, checked by the caller; ignored if it exists
     * @param precision its bucket layout
     * @return its handle
     * @throws IllegalArgumentException if the name is taken by another kind, a family or a histogram of
     *                                  another precision, or the registry is full
     */
    public Histogram histogram(String name, Labels labels, String help, HistogramPrecision precision) {
        return histogram(name, labels, help, precision, false);
    }

    /**
     * As {@link #histogram(String, Labels, String, HistogramPrecision)}; {@code exempt} as for
     * {@link #counter(String, Labels, String, boolean)}.
     *
     * @param name      its name
     * @param labels    its labels
     * @param help      its help text
     * @param precision its bucket layout
     * @param exempt    whether a new histogram is exempt from maxStats
     * @return its handle
     */
    public Histogram histogram(String name, Labels labels, String help, HistogramPrecision precision, boolean exempt) {
        int bits = precision.subBucketBits();
        synchronized (lock) {
            return registrations.histogram(name, labels, help, bits, HistogramImpl.class,
                    (hindex, gen) -> new HistogramImpl(writers, name, hindex, gen, bits, precision), exempt);
        }
    }

    // ------------------------------------------------------------------ removal

    /**
     * Removes the stat of this name and labels if {@code handle} is its handle. The next collect
     * to begin after this returns delivers its last interval; after that its cells are reused by
     * a later registration (counters and gauges) once {@code handle} and every local view of it
     * are unreachable, so no update through them ever reaches the slot's next owner.
     *
     * @param name   its name
     * @param labels its labels
     * @param handle its handle
     * @param exempt whether it was registered exempt from maxStats
     * @return whether it was registered
     */
    public boolean remove(String name, Labels labels, Object handle, boolean exempt) {
        synchronized (lock) {
            return registrations.remove(name, labels, handle, exempt);
        }
    }

    /**
     * Removes a family's registration (the caller removes its series): the name is free again.
     *
     * @param name   the family's name
     * @param family the family
     */
    public void removeFamily(String name, Object family) {
        synchronized (lock) {
            registrations.removeFamily(name, family);
        }
    }

    /**
     * The family of this name.
     *
     * @param name a name
     * @return the family, or null if there is none
     */
    public Object family(String name) {
        synchronized (lock) {
            return registrations.familyNamed(name);
        }
    }

    /**
     * The handle of the stat without labels of this name.
     *
     * @param name a name
     * @return its handle, or null if there is none
     */
    public Object unlabelled(String name) {
        synchronized (lock) {
            return registrations.unlabelled(name);
        }
    }

    /**
     * An empty value for every stat registered so far (what an interval without updates
     * delivers), with their registration times; reads no cell, closes no interval, takes no lock.
     *
     * @return the values, in registration order, with {@code start == end == now}
     */
    public Interval registered() {
        long changes = registrations.changes(); // before the list: a stat it misses makes a later count differ
        StatList stats = registrations.stats();
        int n = stats.size(); // no lock: pairing STATS
        List<StatValue> values = new ArrayList<>(n);
        long[] created = new long[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            Stat s = stats.get(i); // pairing SLOT
            if (!s.removed()) {
                created[k++] = s.createdMillis;
                values.add(s.emptyValue());
            }
        }
        Instant now = Instant.now();
        return new Interval(now, now, List.copyOf(values), Arrays.copyOf(created, k), changes);
    }

    /**
     * Registrations and removals so far (each series of a family counts); lock-free.
     *
     * @return a count that only grows: an interval whose {@link Interval#changes()} equals it
     *         holds every stat registered now
     */
    public long changes() {
        return registrations.changes();
    }

    /**
     * Number of registered stats; lock-free.
     *
     * @return the number of stats (each series of a family counts as one)
     */
    public int size() {
        return registrations.live(); // volatile
    }

    // ------------------------------------------------------------------ collection

    /**
     * The values of one closed interval; {@code createdMillis[i]}: when {@code values.get(i)}'s stat was
     * registered; {@code changes}: {@link #changes()} as of the reads (records made later are left out).
     */
    public record Interval(Instant start, Instant end, List<StatValue> values, long[] createdMillis, long changes) {
    }

    /**
     * Closes the current interval and returns its values (see the design comment's four steps). Serialised.
     *
     * @return the closed interval, from the previous one's end (or the engine's creation) to now
     */
    public Interval collect() {
        synchronized (collectLock) {
            StatList stats = registrations.stats();
            long closing;
            long held;
            synchronized (lock) { // 1. O(1), plus O(removed and not yet reclaimed)
                long t0 = System.nanoTime();
                closing = epoch.current();
                known.addAll(threads.takeFresh());
                removals.begin(registrations); // O(removed since, handles cleared since)
                held = System.nanoTime() - t0;
            }
            // 2. Without the lock: the dead, their slots, their final values.
            ArrayList<Block> live = new ArrayList<>(known.size());
            ArrayList<Block> dead = new ArrayList<>();
            for (Block b : known) {
                if (!Broken.NO_ISALIVE && b.owner.isAlive()) { // pairing DEATH. Test-only switch: NO_ISALIVE folds live threads' blocks too
                    live.add(b);
                    continue;
                }
                dead.add(b);
                threads.release(b);
            }
            int n;
            long changes;
            Stat[] histograms;
            Stat[] gauges;
            int[] counters;
            synchronized (lock) { // after the isAlive() checks: every stat a dead thread used is listed
                long t0 = System.nanoTime();
                n = stats.size();
                histograms = registrations.histograms();
                gauges = registrations.gauges();
                counters = registrations.counters();
                held = Math.max(held, System.nanoTime() - t0);
            }
            closer.begin(stats, n);
            for (Block b : dead) {
                // its owner is dead: the collector is the only reader of a detached block
                closer.retireCounters(b.counters, counters);
                releaseHistogramSlots(b.histViews);
                closer.retireCells(b.cells, gauges, closing);
                if (b.views != null) {
                    for (var v : b.views.entrySet()) {
                        closer.retire(v.getValue(), Layout.DATA_START, stats.get(v.getKey()), closing);
                    }
                }
                closer.retireHistograms(b.hists, histograms, closing);
            }
            known = live;
            // 3. Switch.
            Instant end;
            long switched;
            synchronized (lock) {
                long t0 = System.nanoTime();
                threads.released();
                known.addAll(threads.takeFresh());
                end = Instant.now();
                switchAll(epoch.advance()); // arrays made from now on start at the new epoch
                n = stats.size();
                counters = registrations.counters();
                switched = System.nanoTime();
                held = Math.max(held, switched - t0);
            }
            // The grace, without the lock: live counter arrays until GRACE_NANOS have passed (they
            // need no switch: cumulative; a counter registered since is not read from these arrays
            // until the next collect), then a park for what is left of it, if anything. The other
            // arrays after step 4, with step 4's counters.
            closer.ensure(stats, n);
            int countersRead = 0;
            long left = GRACE_NANOS;
            while (countersRead < known.size() && left > 0) {
                closer.readCounters(known.get(countersRead++).countersAcquire(), counters); // pairing COUNTERS
                left = GRACE_NANOS - (System.nanoTime() - switched);
            }
            if (left > 0) {
                LockSupport.parkNanos(left);
            }
            // 4. Read: under the lock what the collector writes to (EPOCH, G_SEEN) or what is
            // replaced under it (histogram arrays, stripe layouts); the counters, which the
            // collector only reads, after it.
            synchronized (lock) {
                long t0 = System.nanoTime();
                known.addAll(threads.takeFresh()); // made during the grace: their EPOCH is the new one already
                n = stats.size(); // stats registered since: their cells are all zero so far
                removals.beforeReads(registrations, n); // records made after this are left to the next collect
                changes = registrations.changes(); // as removals saw it: under the lock, no record made since
                histograms = registrations.histograms();
                gauges = removals.liveGauges(registrations.gauges(), registrations.gaugeIndices());
                counters = registrations.counters();
                closer.ensure(stats, n);
                for (Block b : known) {
                    readBlock(b, stats, gauges, histograms, closing);
                }
                stripes.read(stats, n, histograms, closer, closing);
                held = Math.max(held, System.nanoTime() - t0);
            }
            for (int j = countersRead; j < known.size(); j++) { // not read in the grace, or made during it
                closer.readCounters(known.get(j).countersAcquire(), counters); // pairing COUNTERS
            }
            // 5. Close: the collector's own state (the collect lock).
            List<StatValue> values = new ArrayList<>(n);
            long[] created = new long[n];
            int k = 0;
            for (int i = 0; i < n; i++) {
                Stat s = removals.toClose(i, stats, closer);
                if (s != null) {
                    values.add(closer.close(s));
                    created[k++] = s.createdMillis;
                }
            }
            removals.finish(closer, registrations, lock, this::sweep);
            Interval result = new Interval(intervalStart, end, List.copyOf(values), Arrays.copyOf(created, k), changes);
            intervalStart = end;
            longestHoldNanos = held;
            return result;
        }
    }

    /**
     * Drops the arrays and views of delivered removed histogram {@code t} from the live threads'
     * Blocks and the stripes, so that they are garbage once its handle is. Under the lock (the
     * owners replace these elements only under it; a thread not swept here keeps arrays the
     * collector never reads again, {@link HistogramCells#ownedBy}).
     */
    private void sweep(Stat t) {
        int h = t.hindex;
        for (Block b : known) {
            long[][] hs = b.hists;
            if (hs != null && h < hs.length && hs[h] != null && hs[h][Layout.H_GEN] == t.gen) {
                CellArrays.SLOTS.setRelease(hs, h, null); // pairing HISTARRAY: the owner reads it under this lock
            }
            LocalHistogram[] vs = b.histViews;
            if (vs != null && h < vs.length && vs[h] != null && vs[h].shared().gen() == t.gen) {
                vs[h] = null; // the owner checks the view it finds is its histogram's (ThreadTable.histogramView)
            }
        }
        stripes.sweep(h, t.gen);
    }

    /** Frees a terminated thread's slots in the tables of the histograms it recorded to. No lock (CASes; pairing TABLE). */
    private static void releaseHistogramSlots(LocalHistogram[] vs) {
        if (vs != null) {
            for (LocalHistogram v : vs) {
                if (v != null) {
                    v.shared().release(v);
                }
            }
        }
    }

    /** Switches every live array to epoch {@code next}: threads' cells, views and histograms, and the stripes'. Under lock. */
    private void switchAll(long next) {
        for (Block b : known) {
            CellArrays.switchEpoch(b.cells, next); // under lock: the owner replaces it only under this lock
            if (b.views != null) {
                for (long[] v : b.views.values()) {
                    CellArrays.switchEpoch(v, next);
                }
            }
            CellArrays.switchEpoch(b.hists, next);
        }
        stripes.switchEpoch(next);
    }

    /** Reads a live thread's arrays, switched already. Under lock. */
    private void readBlock(Block b, StatList stats, Stat[] gauges, Stat[] histograms, long closing) {
        closer.readCells(b.cells, gauges, closing); // under lock: the owner replaces it only under this lock
        if (b.views != null) {
            for (var v : b.views.entrySet()) {
                closer.readLive(v.getValue(), Layout.DATA_START, stats.get(v.getKey()), closing);
            }
        }
        closer.readHistograms(b.hists, histograms, closing);
    }

    // ------------------------------------------------------------------ for tests and benchmarks

    /**
     * The longest single hold of the engine's lock by the last collect().
     *
     * @return the hold in ns; 0 before the first collect
     */
    public long lastCollectLongestHoldNanos() {
        return longestHoldNanos; // volatile read: pairs with the write at the end of collect()
    }

    /**
     * Number of per-thread blocks currently held (live threads, and dead ones not yet collected).
     *
     * @return the number of blocks; takes both of the engine's locks
     */
    public int threadBlocks() {
        synchronized (collectLock) {
            synchronized (lock) {
                return known.size() + threads.freshCount();
            }
        }
    }
}
