package dev.statvar.internal;

import dev.statvar.Labels;
import dev.statvar.StatKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.function.Consumer;

/**
 * The collector's side of removal (see the Engine's design comment, "Removal"): which removed
 * stats a collect delivers for the last time, which slots it skips unread, which it reclaims.
 * Confined to the collector (the engine's collect lock); the methods named "under the engine
 * lock" are called with it held, since they read {@link Registrations}.
 */
final class Removals {
    /**
     * By registration index: the slot holds a removed stat whose last interval is delivered, so
     * collect() skips it without reading its record or cells; cleared when a new stat takes the
     * slot ({@link Registrations#takeReused}), and for the collect that reclaims it.
     */
    private boolean[] gone = new boolean[0];
    /** This collect: the removed stats whose handles are gone, reclaimed after the reads. */
    private final ArrayList<Stat> reclaim = new ArrayList<>();
    /** This collect: the removed histograms it delivers, whose slots it frees after (no wait for the GC: {@link Stat#gen}). */
    private final ArrayList<Stat> histograms = new ArrayList<>();
    /** This collect: whether it delivers a removed stat's last interval. */
    private boolean delivered;
    /** This collect: the series of removed stats it shows, by name and labels. */
    private final HashSet<SeriesKey> shownRemoved = new HashSet<>();
    /** This collect: {@link Registrations#changes()} at its reads; a record made after is left to the next collect. */
    private long seen;

    /** A series' identity in a snapshot: its name and labels. */
    private record SeriesKey(String name, Labels labels) {
    }

    /**
     * Step 1, under the engine lock: every stat removed so far is delivered by this collect, which
     * reads after this point every update made before the removal; the stats whose handles the GC
     * has cleared (no thread can update through them any more) are reclaimed by it.
     */
    void begin(Registrations registrations) {
        reclaim.clear();
        histograms.clear();
        delivered = false;
        for (Stat t : registrations.removed()) {
            t.state = Stat.LAST;
            if (Broken.REUSE_HELD && t.kind != StatKind.HISTOGRAM) { // test-only switch: reclaims without
                reclaim(t); // waiting for the handle to be unreachable
            }
        }
        // Removed before this point too (its reference was made at the removal): LAST or DELIVERED.
        for (Stat t; (t = registrations.polledCleared()) != null; ) {
            if (t.kind != StatKind.HISTOGRAM && !t.reclaiming && t.state != Stat.RECLAIMED) {
                reclaim(t);
            }
        }
    }

    private void reclaim(Stat t) {
        reclaim.add(t); // its cells read by this collect are final
        t.reclaiming = true;
    }

    /**
     * Step 4, under the engine lock, before the reads of the first {@code n} slots: slots reused
     * since the last collect and slots reclaimed now are read; the removed series this collect
     * shows are noted.
     */
    void beforeReads(Registrations registrations, int n) {
        seen = registrations.changes();
        for (int i : registrations.takeReused()) {
            gone[i] = false; // a new stat in a reclaimed slot (gone then, so in range)
        }
        if (gone.length < n) {
            gone = Arrays.copyOf(gone, Math.max(n, 2 * gone.length));
        }
        for (Stat t : reclaim) {
            gone[t.index] = false; // read once more: the baseline of the slot's next owner
        }
        shownRemoved.clear();
        for (Stat t : registrations.removed()) {
            shownRemoved.add(new SeriesKey(t.name, t.labels));
        }
    }

    /**
     * {@code gauges} (by gauge index; {@code indices}: their registration indices) with null for
     * the gone slots: nothing reads their cells until the collect that reclaims them (cells are
     * cumulative, so that one reads all of it), which keeps a collect's cost per slot waiting for
     * the GC low.
     */
    Stat[] liveGauges(Stat[] gauges, int[] indices) {
        for (int j = 0; j < gauges.length; j++) {
            if (gone[indices[j]]) {
                gauges[j] = null;
            }
        }
        return gauges;
    }

    /**
     * Step 5: the stat in slot {@code i} if this interval shows it, else null: a gone slot; a stat
     * registered after the reads; a new series of a removed one this interval still shows (one
     * series per name and labels in an interval: it is deferred to the next, {@link IntervalCloser#defer}).
     */
    Stat toClose(int i, StatList stats, IntervalCloser closer) {
        if (gone[i]) {
            return null;
        }
        Stat s = stats.get(i); // pairing SLOT
        if (s.seq > seen && !s.removed() || s.state >= Stat.DELIVERED) {
            return null;
        }
        if (!s.removed() && !shownRemoved.isEmpty() && shownRemoved.contains(new SeriesKey(s.name, s.labels))) {
            closer.defer(i);
            return null;
        }
        if (s.state == Stat.LAST) {
            s.state = Stat.DELIVERED; // its last interval
            delivered = true;
            gone[i] = true;
            if (s.kind == StatKind.HISTOGRAM) {
                histograms.add(s);
            }
        }
        return s;
    }

    /**
     * After step 5: the reclaimed slots' baselines, the delivered histograms forgotten, then
     * (under the engine lock) their handles marked reclaimed, their arrays swept by {@code sweep},
     * and the free lists.
     */
    void finish(IntervalCloser closer, Registrations registrations, Object engineLock, Consumer<Stat> sweep) {
        for (Stat t : reclaim) {
            closer.rebase(t.index);
            gone[t.index] = true;
            t.state = Stat.RECLAIMED;
            t.reclaiming = false;
        }
        for (Stat t : histograms) {
            closer.forget(t.index);
            t.state = Stat.RECLAIMED;
        }
        if (!reclaim.isEmpty() || delivered) {
            synchronized (engineLock) {
                for (Stat t : reclaim) {
                    registrations.reclaim(t);
                }
                for (Stat t : histograms) {
                    if (t.removedHandle.get() instanceof HistogramImpl h) {
                        h.reclaimed = true; // guarded by the engine lock: its slow paths drop its records from now on
                    }
                    sweep.accept(t);
                    registrations.reclaim(t);
                }
                registrations.pruneRemoved();
            }
        }
    }
}
