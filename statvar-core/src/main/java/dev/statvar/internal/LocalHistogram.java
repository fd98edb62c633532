package dev.statvar.internal;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;

/**
 * One platform thread's view of one histogram: it holds the owner's array for the histogram
 * (the one the collector reads through the owner's {@link Block}). The histogram's any-thread
 * path finds it in the histogram's table ({@link HistogramImpl}); {@link Histogram#localView()}
 * returns it. Used from another thread, it records through the shared histogram instead.
 */
final class LocalHistogram extends PerThread implements Histogram {
    private final HistogramImpl shared;
    private final int bits;
    /**
     * The owner's array for this histogram. Owner-only field: read and written only by the owner
     * thread. Starts as {@link HistogramCells#NO_BUCKETS} and is refreshed from the engine whenever
     * a record falls outside it (first use, growth, or after the array was replaced).
     */
    long[] cells = HistogramCells.NO_BUCKETS;
    /** Owner-only: made by {@link Histogram#localView()}, so hot from its first record (ColdCounts). */
    boolean hot;

    LocalHistogram(Thread owner, HistogramImpl shared) {
        super(owner);
        this.shared = shared;
        this.bits = shared.bits();
    }

    @Override
    public void record(long value) {
        if (value < 0) {
            throw HistogramImpl.negative(shared.name(), value);
        }
        if (Thread.currentThread() != owner) {
            shared.record(value);
        } else if (!HistogramCells.record(cells, bits, value)) {
            recordOwn(value);
        }
    }

    /** Records {@code value} as the owner: in the stripes while cold, else into an array that covers it, made or grown as needed. */
    @SlowPath("a cold thread (a stripe lock), or a value outside the owner's array (the engine lock)")
    void recordOwn(long value) {
        long[] c = shared.writers().recordOwn(owner, shared, cells == HistogramCells.NO_BUCKETS && !hot, value);
        if (c != null) {
            cells = c;
        }
    }

    HistogramImpl shared() {
        return shared;
    }

    @Override
    public Histogram localView() {
        return Thread.currentThread() == owner ? this : shared.localView();
    }

    @Override
    public String name() {
        return shared.name();
    }

    @Override
    public HistogramPrecision precision() {
        return shared.precision();
    }

    @Override
    public String toString() {
        return "Histogram[" + shared.name() + ", local to " + owner.getName() + "]";
    }
}
