package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Histogram;

import java.util.Arrays;

/**
 * The slow half of every update path, the one writer role the handles reach (the {@link Engine}
 * keeps registration and collection): a thread's first update, a stat registered after the
 * thread's array was sized, a thread cold for a gauge or histogram ({@link ColdCounts}), a value
 * beyond a histogram array's octaves, a thread not in a table, virtual threads, local views. Each
 * handle owns its fast path ({@link CounterImpl#add(long)}, {@link GaugeImpl#report},
 * {@link HistogramImpl#record}) and calls exactly one method here when it misses.
 *
 * <p>Threading: any thread, for itself. The methods take the engine lock where a thread's storage
 * changes (through {@link ThreadTable}) and a stripe's lock for stripe updates ({@link Stripes});
 * none is on a hot platform thread's fast path (UpdatePathTest checks the bytecode).
 */
final class Writers {
    private final ThreadTable threads;
    private final Stripes stripes;
    private final Epoch epoch;
    private final Registrations registrations;
    /** A platform thread's updates of one gauge or histogram per interval before it gets its own copy (ColdCounts). */
    private final int hotAfter;

    Writers(ThreadTable threads, Stripes stripes, Epoch epoch, Registrations registrations, int hotAfter) {
        this.threads = threads;
        this.stripes = stripes;
        this.epoch = epoch;
        this.registrations = registrations;
        this.hotAfter = hotAfter;
    }

    /** A counter add that missed the thread table or the thread's counter array: see {@link CounterImpl}. */
    @SlowPath("a virtual thread (an atomic add), or a platform thread not in the table or whose counter array is too short (the engine lock)")
    void addSlow(CounterImpl h, Thread t, long n) {
        if (Threads.isVirtual(t)) {
            stripes.add(t, h.vloc(), n);
        } else {
            CounterCells.add(threads.counters(t, h.cell() + 1 + Layout.PAD), h.cell(), n);
        }
    }

    /** A gauge report that missed the thread table or the thread's gauge array: see {@link GaugeImpl}. */
    @SlowPath("a virtual thread or a cold platform thread (a stripe lock), or a platform thread not in the table or whose array is too short (the engine lock)")
    void reportSlow(GaugeImpl g, Thread t, long v) {
        if (Threads.isVirtual(t)) {
            stripes.report(t, g.vloc(), v);
            return;
        }
        Block b = threads.own(t);
        if (g.limit() > b.cells.length // owner-only field: our own write
                && !b.coldGauges.hot((g.offset() - Layout.DATA_START) / Layout.GAUGE_CELLS, epoch.recent(), hotAfter)) {
            stripes.report(t, g.vloc(), v); // cold: no copy of its own yet (ColdCounts)
            return;
        }
        GaugeCells.report(threads.cells(b, g.limit()), g.offset(), v);
    }

    /** A histogram record that missed the histogram's table: see {@link HistogramImpl}. */
    @SlowPath("a virtual thread (a stripe lock), or a platform thread's first record of the histogram or one whose slot another live thread holds (the engine lock)")
    void recordSlow(HistogramImpl h, Thread t, long v) {
        if (Threads.isVirtual(t)) {
            stripes.record(t, h, v);
        } else {
            LocalHistogram view = threads.histogramView(t, h);
            if (!HistogramCells.record(view.cells, h.bits(), v)) { // owner-only field: we are the owner
                view.recordOwn(v);
            }
        }
    }

    /**
     * Records {@code v} for the calling platform thread, which holds no array of histogram
     * {@code h} yet ({@code cold}) or one that does not cover {@code v}: into the stripes while
     * the thread is cold for it (ColdCounts), else into its own array, made or grown as needed
     * (for a reclaimed {@code h}, an array nobody reads: {@link ThreadTable#histogram}).
     *
     * @return the thread's array (for its view to keep), or null if {@code v} went to the stripes
     */
    @SlowPath("a cold platform thread (a stripe lock), its first record once hot, or a value beyond the octaves its array covers (the engine lock)")
    long[] recordOwn(Thread t, HistogramImpl h, boolean cold, long v) {
        Block b = threads.own(t);
        if (cold && !b.coldHistograms.hot(h.hindex(), epoch.recent(), hotAfter)) {
            stripes.record(t, h, v);
            return null;
        }
        long[] c = threads.histogram(t, b, h, LogLinear.index(v, h.bits()));
        if (!HistogramCells.record(c, h.bits(), v)) {
            throw new AssertionError("histogram array does not cover " + v);
        }
        return c;
    }

    /** The calling platform thread's view of counter {@code h} (one per thread), its cell made as needed; {@code h} on a virtual thread. */
    Counter localView(CounterImpl h) {
        Thread t = Thread.currentThread();
        if (Threads.isVirtual(t)) {
            return h;
        }
        Block b = threads.own(t);
        long[] c = threads.counters(b, h.cell() + 1 + Layout.PAD);
        int k = h.cell() - Layout.DATA_START; // the counter's index among counters
        LocalCounter[] vs = b.counterViews; // owner-only field: our own write
        if (vs == null || k >= vs.length) {
            vs = b.counterViews = vs == null ? new LocalCounter[Math.max(4, k + 1)] : Arrays.copyOf(vs, Math.max(k + 1, 2 * vs.length));
        }
        if (vs[k] == null) {
            vs[k] = new LocalCounter(h, t, c);
        }
        return vs[k];
    }

    /** The calling platform thread's view of histogram {@code h}, made and installed as needed; {@code h} on a virtual thread. */
    Histogram localView(HistogramImpl h) {
        Thread t = Thread.currentThread();
        if (Threads.isVirtual(t)) {
            return h;
        }
        LocalHistogram v = threads.histogramView(t, h);
        v.hot = true; // owner-only field: asked for a view, so it records into its own array from now on
        return v;
    }

    /**
     * The calling platform thread's own cell array for local views of gauge {@code index} (the stat
     * at {@link Layout#DATA_START}), created on first use; null on a virtual thread.
     */
    long[] localCells(int index) {
        Thread t = Thread.currentThread();
        return Threads.isVirtual(t) ? null : threads.localCells(t, registrations.stats().get(index));
    }
}
