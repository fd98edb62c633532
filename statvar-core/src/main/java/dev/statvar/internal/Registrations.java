package dev.statvar.internal;

import dev.statvar.HistogramPrecision;
import dev.statvar.Labels;
import dev.statvar.StatKind;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.lang.ref.ReferenceQueue;
import java.util.Arrays;
import java.util.HashMap;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * What a registry holds: its stats by name and labels, its labelled families, and where each
 * stat's cells are (an offset in every thread's array, a place in the stripes, or a histogram
 * index). Every method but {@link #stats()} is called with the engine lock held; stats are
 * appended there and read by anyone without a lock (pairing STATS, in {@link StatList}).
 *
 * <p>Each kind has its own arrays: a counter is one cell of a thread's counter array, a gauge
 * {@link Layout#GAUGE_CELLS} cells of its gauge array, a histogram an array of its own. Offsets
 * are assigned in registration order within a kind, so a thread's array sized before a stat was
 * registered is simply too short for it (the update then grows it), and a collector reading an
 * array stops at the first stat it does not cover. The stripes lay counters and gauges out
 * together, at places of their own ({@link Stripes#place}).
 */
final class Registrations {
    /** Upper bound for maxStats: keeps every cell index of every array within an int. */
    static final int MAX_STATS_LIMIT = 10_000_000;

    private final int maxStats;
    private final Stripes stripes;
    /** Every registered stat, lock-free to read. */
    private final StatList stats = new StatList();

    // ---- guarded by the engine lock ----
    /** The histograms among the stats, by histogram index. */
    private final ArrayList<Stat> histograms = new ArrayList<>();
    /** Stats by series key: the name, plus the labels for a family's series ({@link #key}). */
    private final HashMap<String, Stat> byKey = new HashMap<>();
    /** Labelled families by name: {@code StatFamily} objects, made and typed by StatRegistry. */
    private final HashMap<String, Object> families = new HashMap<>();
    /** The counters among the stats, by counter index: their registration indices. */
    private int[] counters = new int[16];
    private int counterCount;
    /** The gauges among the stats, by gauge index. */
    private final ArrayList<Stat> gauges = new ArrayList<>();
    /** Their registration indices, by gauge index (a reclaimed slot keeps its index). */
    private int[] gaugeIndices = new int[16];
    /** The next free cell of a thread's gauge array ({@code Block.cells}). */
    private int nextGaugeOffset = Layout.DATA_START;
    /** The next free cell of the stripes' layout (counters and gauges, see {@link Stripes#place}). */
    private int nextStripeOffset = Layout.DATA_START;
    /** Registered stats not removed (the ones {@link #maxStats} bounds), not counting exempt ones (overflow series). */
    private volatile int live; // volatile: read without the lock by size()
    /** Number of stat records made so far (registered, reused, removed); stamps each ({@link Stat#seq}). */
    private volatile long changes; // written under the engine lock; read lock-free by changes()
    /** Reclaimed slots (tombstones whose handles are gone and whose cells the collector has rebased), by kind. */
    private final ArrayDeque<Stat> freeCounters = new ArrayDeque<>();
    private final ArrayDeque<Stat> freeGauges = new ArrayDeque<>();
    /** Reclaimed histogram slots (delivered tombstones), by sub-bucket bits: a slot is reused at its precision. */
    private final HashMap<Integer, ArrayDeque<Stat>> freeHistograms = new HashMap<>();
    /** Tombstones whose last interval is not delivered yet, in removal order. */
    private final ArrayList<Stat> removed = new ArrayList<>();
    /** Where the GC enqueues removed stats' handle references once cleared; polled by the collector. */
    private final ReferenceQueue<Object> cleared = new ReferenceQueue<>();
    /** Registration indices of reclaimed slots given to new stats since the collector last asked ({@link #takeReused}). */
    private int[] reused = new int[16];
    private int reusedCount;

    Registrations(int maxStats, Stripes stripes) {
        if (maxStats < 1 || maxStats > MAX_STATS_LIMIT) {
            throw new IllegalArgumentException("maxStats must be in 1.." + MAX_STATS_LIMIT + ", was " + maxStats);
        }
        this.maxStats = maxStats;
        this.stripes = stripes;
    }

    int maxStats() {
        return maxStats;
    }

    /** Every registered stat; any thread, no lock. */
    StatList stats() {
        return stats;
    }

    /**
     * The histograms registered so far, by histogram index (a copy): removed ones' tombstones until
     * reclaimed, null for a free slot. Engine lock held.
     */
    Stat[] histograms() {
        return histograms.toArray(new Stat[0]);
    }

    /** The generation of histogram slot {@code hindex} (its registration's or tombstone's), -1 if free. Engine lock held. */
    int histogramGen(int hindex) {
        Stat s = histograms.get(hindex);
        return s == null ? -1 : s.gen;
    }

    /** The registration indices of the gauges, by gauge index (a copy). Engine lock held. */
    int[] gaugeIndices() {
        return Arrays.copyOf(gaugeIndices, gauges.size());
    }

    /** The gauges registered so far, by gauge index, i.e. in offset order (a copy). Engine lock held. */
    Stat[] gauges() {
        return gauges.toArray(new Stat[0]);
    }

    /** The length a thread's counter array needs to hold every counter registered so far. Engine lock held. */
    int countersLimit() {
        return Layout.DATA_START + counterCount + Layout.PAD;
    }

    /** The length a thread's gauge array needs to hold every gauge registered so far. Engine lock held. */
    int gaugesLimit() {
        return nextGaugeOffset + Layout.PAD;
    }

    /** The registration indices of the counters registered so far, by counter index (a copy). Engine lock held. */
    int[] counters() {
        return Arrays.copyOf(counters, counterCount);
    }

    /** A stat's key in {@link #byKey}: unique per series; a name cannot contain '{'. */
    private static String key(String name, Labels labels) {
        return labels.isEmpty() ? name : name + labels;
    }

    /**
     * The family of this name, registered by {@code create} if there is none.
     *
     * @throws IllegalArgumentException if the name is taken by a stat without labels, or by a
     *                                  family that is not the same ({@code isSame})
     */
    Object family(String name, Predicate<Object> isSame, Supplier<Object> create, String description) {
        Object f = families.get(name);
        if (f != null) {
            if (!isSame.test(f)) {
                throw new IllegalArgumentException("'" + name + "' is already registered as " + f
                        + "; cannot register it as " + description);
            }
            return f;
        }
        Stat s = byKey.get(name);
        if (s != null) {
            throw new IllegalArgumentException("'" + name + "' is already registered as a " + s.kind.label()
                    + " without labels; cannot register it as " + description);
        }
        f = create.get();
        families.put(name, f);
        return f;
    }

    /** Creates a counter's or a gauge's handle. */
    @FunctionalInterface
    interface CellsHandle<H> {
        H create(int index, int offset, int limit, int vloc);
    }

    /** Creates a histogram's handle. */
    @FunctionalInterface
    interface HistogramHandle<H> {
        H create(int hindex, int gen);
    }

    /**
     * The handle of the counter or gauge of this name and labels, registered if new: into a
     * reclaimed slot of its kind if there is one, else into new cells.
     *
     * @param exempt whether a new stat is exempt from {@link #maxStats} (a family's overflow series)
     */
    <H> H cells(String name, Labels labels, String help, StatKind kind, Class<H> type, CellsHandle<H> handle,
                boolean exempt) {
        Stat s = existing(name, labels, kind, exempt);
        if (s != null) {
            return type.cast(s.handle); // of this kind: existing() checked
        }
        boolean counter = kind == StatKind.COUNTER;
        live += exempt ? 0 : 1;
        Stat free = (counter ? freeCounters : freeGauges).poll();
        if (free != null) {
            H h = handle.create(free.index, free.offset, free.limit, free.vloc);
            s = free.reuse(name, labels, help, h);
            s.seq = ++changes; // before publication
            if (!counter) {
                gauges.set((s.offset - Layout.DATA_START) / Layout.GAUGE_CELLS, s);
            }
            stats.set(s.index, s); // pairing SLOT
            byKey.put(key(name, labels), s);
            noteReused(s.index);
            return h;
        }
        int cells = counter ? Layout.COUNTER_CELLS : Layout.GAUGE_CELLS;
        int index = stats.size();
        // A counter's cell in a thread's counter array is DATA_START + its counter index; a gauge's
        // cells follow the gauges before it in the thread's gauge array. No array holds the other kind.
        int offset = counter ? Layout.DATA_START + counterCount : nextGaugeOffset;
        int stripeCells = Stripes.stripeCells(cells);
        int vloc = stripes.place(nextStripeOffset, stripeCells, index);
        nextStripeOffset += stripeCells;
        H h = handle.create(index, offset, offset + cells + Layout.PAD, vloc);
        s = Stat.cells(name, labels, help, kind, index, offset, cells, vloc, h);
        if (counter) {
            if (counterCount == counters.length) {
                counters = Arrays.copyOf(counters, 2 * counterCount);
            }
            counters[counterCount++] = index;
        } else {
            gauges.add(s);
            if (gaugeIndices.length == gauges.size() - 1) {
                gaugeIndices = Arrays.copyOf(gaugeIndices, 2 * gauges.size());
            }
            gaugeIndices[gauges.size() - 1] = index;
            nextGaugeOffset += cells;
        }
        add(s);
        return h;
    }

    /** The handle of the histogram of this name and labels, registered if new. */
    <H> H histogram(String name, Labels labels, String help, int bits, Class<H> type, HistogramHandle<H> handle,
                    boolean exempt) {
        Stat s = existing(name, labels, StatKind.HISTOGRAM, exempt);
        if (s != null) {
            if (s.bits != bits) {
                throw new IllegalArgumentException("histogram '" + name + "' is already registered with "
                        + new HistogramPrecision(s.bits) + "; cannot register it with " + new HistogramPrecision(bits));
            }
            return type.cast(s.handle); // a histogram: existing() checked
        }
        live += exempt ? 0 : 1;
        ArrayDeque<Stat> free = freeHistograms.get(bits);
        Stat slot = free == null ? null : free.poll();
        if (slot != null) {
            H h = handle.create(slot.hindex, slot.gen + 1);
            s = slot.reuse(name, labels, help, h); // the next generation
            histograms.set(s.hindex, s);
            s.seq = ++changes; // before publication
            stats.set(s.index, s); // pairing SLOT
            byKey.put(key(name, labels), s);
            noteReused(s.index);
            return h;
        }
        int hindex = histograms.size();
        H h = handle.create(hindex, 0);
        s = Stat.histogram(name, labels, help, stats.size(), hindex, bits, 0, h);
        histograms.add(s);
        add(s);
        return h;
    }

    private void noteReused(int index) {
        if (reusedCount == reused.length) {
            reused = Arrays.copyOf(reused, 2 * reusedCount);
        }
        reused[reusedCount++] = index;
    }

    /** Registered stats that count towards {@link #maxStats}: not removed, not exempt. Engine lock held. */
    int live() {
        return live;
    }

    /**
     * Removes the stat of this name and labels whose handle is {@code handle}: its key is freed
     * (the same name and labels register a new stat) and its place in {@link #stats} holds its
     * tombstone, which the collector delivers once more and later reclaims ({@link #reclaim}).
     *
     * @param exempt whether it was registered exempt from {@link #maxStats}
     * @return whether it was registered (false if removed already)
     */
    boolean remove(String name, Labels labels, Object handle, boolean exempt) {
        String k = key(name, labels);
        Stat s = byKey.get(k);
        if (s == null || s.handle != handle) {
            return false;
        }
        byKey.remove(k);
        Stat t = s.tombstone(cleared);
        t.seq = ++changes; // before publication
        if (s.kind == StatKind.GAUGE) {
            gauges.set((s.offset - Layout.DATA_START) / Layout.GAUGE_CELLS, t);
        } else if (s.kind == StatKind.HISTOGRAM) {
            histograms.set(s.hindex, t);
        }
        stats.set(s.index, t); // pairing SLOT
        removed.add(t);
        live -= exempt ? 0 : 1;
        return true;
    }

    /**
     * Makes the slot of removed stat {@code t} available to the next registration of its kind: a
     * counter's or gauge's cells (a tombstone the collector has delivered and rebased, whose handle
     * is gone); a histogram's slot (delivered; its arrays the next generation does not use) for
     * the next histogram of its precision.
     */
    void reclaim(Stat t) {
        if (t.kind == StatKind.COUNTER) {
            freeCounters.add(t);
        } else if (t.kind == StatKind.GAUGE) {
            freeGauges.add(t);
        } else {
            histograms.set(t.hindex, null); // free: the collector reads no array for it
            freeHistograms.computeIfAbsent(t.bits, b -> new ArrayDeque<>()).add(t);
        }
    }

    /** Removed stats whose last interval is not delivered yet (a copy). Engine lock held. */
    Stat[] removed() {
        return removed.toArray(new Stat[0]);
    }

    /** Drops the delivered tombstones from {@link #removed()}. One pass. Engine lock held. */
    void pruneRemoved() {
        removed.removeIf(t -> t.state >= Stat.DELIVERED);
    }

    /** The next removed stat whose handle the GC has cleared (so no thread can update through it), or null. Any thread. */
    Stat polledCleared() {
        Stat.HandleRef r = (Stat.HandleRef) cleared.poll();
        return r == null ? null : r.tombstone;
    }

    /** The registration indices of the slots reused since the last call. Engine lock held. */
    int[] takeReused() {
        int[] r = Arrays.copyOf(reused, reusedCount);
        reusedCount = 0;
        return r;
    }

    /** Unregisters the family of this name (its series are removed by the caller). */
    void removeFamily(String name, Object family) {
        families.remove(name, family);
    }

    /** The family of this name, null if none. */
    Object familyNamed(String name) {
        return families.get(name);
    }

    /** The handle of the stat without labels of this name, null if none. */
    Object unlabelled(String name) {
        Stat s = byKey.get(name);
        return s == null ? null : s.handle;
    }

    /**
     * Stat records made so far: a record whose {@link Stat#seq} is larger was made after this call.
     * Any thread, no lock (volatile read: pairs with the increments under the engine lock).
     */
    long changes() {
        return changes;
    }

    private void add(Stat s) {
        s.seq = ++changes; // before publication
        stats.add(s); // pairing STATS
        byKey.put(key(s.name, s.labels), s);
    }

    /** The registered stat of this name, labels and kind, null if none; throws if of another kind or the registry is full. */
    private Stat existing(String name, Labels labels, StatKind kind, boolean exempt) {
        if (labels.isEmpty() && families.containsKey(name)) {
            throw new IllegalArgumentException("'" + name + "' is already registered as " + families.get(name)
                    + "; cannot register a " + kind.label() + " of that name without labels");
        }
        Stat s = byKey.get(key(name, labels));
        if (s != null) {
            if (s.kind != kind) {
                throw new IllegalArgumentException("'" + name + "' is already registered as a "
                        + s.kind.label() + "; cannot register it as a " + kind.label());
            }
            return s;
        }
        if (live >= maxStats && !exempt) {
            throw new RegistryFullException("cannot register '" + key(name, labels) + "': this registry holds its maximum of "
                    + maxStats + " stats (set a larger maxStats with StatRegistry.builder())");
        }
        return null;
    }
}
