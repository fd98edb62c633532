package dev.statvar.internal;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * Registration record of one stat: immutable, published to readers by {@link StatList}. The
 * collector's running state per stat is in {@link IntervalCloser}.
 */
final class Stat {
    final String name;
    final String help;
    /** {@link Labels#EMPTY}, or its labels as a series of a family. */
    final Labels labels;
    final StatKind kind;
    /** Index in registration order. */
    final int index;
    /** When it was registered, ms since the epoch (OpenMetrics {@code _created}). */
    final long createdMillis;
    /**
     * Registrations' change number when this record was made (registered, reused or removed): a
     * collect ignores records newer than its reads ({@link Registrations#changes()}).
     */
    long seq;
    /** First cell in every thread's array of its kind (a counter's in the counter arrays, a gauge's in the gauge arrays); 0 for histograms. */
    final int offset;
    /** Array length a thread's array of its kind needs to hold this stat: last cell + 1 + trailing padding; 0 for histograms. */
    final int limit;
    /** Where virtual threads' stripes keep it ({@link Stripes#place}); -1 for histograms. */
    final int vloc;
    /** Histograms: index among the registry's histograms; -1 for other kinds. */
    final int hindex;
    /** Histograms: sub-bucket bits of the precision; 0 for other kinds. */
    final int bits;
    /**
     * Histograms: the generation of its slot (0 for a new slot, one more at each reuse), which its
     * arrays carry ({@link Layout#H_GEN}); 0 for other kinds.
     */
    final int gen;
    /** The public handle ({@code Counter}, {@code Gauge} or {@code Histogram}); set once, before publication; null in a tombstone. */
    final Object handle;
    /**
     * Non-null iff this is the tombstone of a removed stat ({@link #removed}): its handle, weakly.
     * A counter's or gauge's cells are reused only once this is cleared: no thread can then update
     * through the handle (or a local view, which holds it), so none writes into the slot's next
     * owner. A histogram's slot needs no wait: its next owner gets arrays of its own ({@link #gen}).
     */
    final HandleRef removedHandle;

    /** A removed stat's handle, weakly; enqueued by the GC once cleared, naming its tombstone. */
    static final class HandleRef extends WeakReference<Object> {
        /** The tombstone holding this reference; set once, before the tombstone is published. */
        Stat tombstone;

        HandleRef(Object handle, ReferenceQueue<Object> queue) {
            super(handle, queue);
        }
    }
    /**
     * Tombstones only, collector-only (the engine's collect lock): {@link #REMOVED} until a
     * collect's first step sees it, then {@link #LAST} (that collect delivers it, all updates
     * before the removal read), {@link #DELIVERED}, {@link #RECLAIMED} (its cells rebased and free).
     */
    int state;
    /** Tombstones only, collector-only: the collect under way reclaims it (reads its cells as the baseline). */
    boolean reclaiming;
    static final int REMOVED = 0;
    static final int LAST = 1;
    static final int DELIVERED = 2;
    static final int RECLAIMED = 3;

    private Stat(String name, Labels labels, String help, StatKind kind, int index, int offset, int cells, int vloc,
                 int hindex, int bits, int gen, Object handle, long createdMillis, HandleRef removedHandle) {
        this.name = name;
        this.labels = labels;
        this.help = help;
        this.kind = kind;
        this.index = index;
        this.offset = offset;
        this.limit = cells == 0 ? 0 : offset + cells + Layout.PAD;
        this.vloc = vloc;
        this.hindex = hindex;
        this.bits = bits;
        this.gen = gen;
        this.handle = handle;
        this.createdMillis = createdMillis;
        this.removedHandle = removedHandle;
    }

    /** A counter or gauge of {@code cells} cells at {@code offset}, {@code vloc} in the stripes. */
    static Stat cells(String name, Labels labels, String help, StatKind kind, int index, int offset, int cells,
                      int vloc, Object handle) {
        return new Stat(name, labels, help, kind, index, offset, cells, vloc, -1, 0, 0, handle,
                System.currentTimeMillis(), null);
    }

    /** A histogram: no cells in the threads' shared arrays; {@code hindex} among the histograms, its slot's generation {@code gen}. */
    static Stat histogram(String name, Labels labels, String help, int index, int hindex, int bits, int gen, Object handle) {
        return new Stat(name, labels, help, StatKind.HISTOGRAM, index, 0, 0, -1, hindex, bits, gen, handle,
                System.currentTimeMillis(), null);
    }

    /**
     * This stat's slot for a new series: a counter or gauge in the same cells; a histogram in the
     * same slot, one generation on (so in arrays of its own).
     */
    Stat reuse(String name, Labels labels, String help, Object handle) {
        return new Stat(name, labels, help, kind, index, offset, limit == 0 ? 0 : limit - offset - Layout.PAD, vloc,
                hindex, bits, kind == StatKind.HISTOGRAM ? gen + 1 : gen, handle, System.currentTimeMillis(), null);
    }

    /**
     * The tombstone of this stat, removed: the same cells and labels, no handle (held weakly
     * instead, enqueued on {@code queue} once the GC cleared it).
     */
    Stat tombstone(ReferenceQueue<Object> queue) {
        HandleRef ref = new HandleRef(handle, queue);
        Stat t = new Stat(name, labels, help, kind, index, offset, limit == 0 ? 0 : limit - offset - Layout.PAD, vloc,
                hindex, bits, gen, null, createdMillis, ref);
        ref.tombstone = t;
        return t;
    }

    /** Whether this is a removed stat's tombstone. */
    boolean removed() {
        return removedHandle != null;
    }

    /** Its value in an interval without updates and before any: zero, no min/max; a histogram's totals empty too. */
    StatValue emptyValue() {
        return switch (kind) {
            case COUNTER -> new CounterValue(name, help, labels, 0, 0);
            case GAUGE -> new GaugeValue(name, help, labels, 0, 0, 0, 0, 0, 0);
            case HISTOGRAM -> {
                HistogramValue e = HistogramValue.empty(name, help, new HistogramPrecision(bits)).withLabels(labels);
                yield e.withTotals(e);
            }
        };
    }
}
