package dev.statvar.internal;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;

/**
 * A histogram bound to one platform thread: it holds the owner's histogram array for this
 * histogram, the same array the any-thread path finds through the table. Other threads go
 * through the shared histogram.
 */
final class LocalHistogram implements Histogram {
    private final HistogramImpl shared;
    private final Thread owner;
    private final int bits;
    /**
     * The owner's array for this histogram. Owner-only field: read and written only by the owner
     * thread (others never read it). Starts as {@link HistogramCells.NO_BUCKETS} and is refreshed from the
     * engine whenever a record falls outside it (first use, growth, or after the array was replaced).
     */
    private long[] cells = HistogramCells.NO_BUCKETS;

    LocalHistogram(HistogramImpl shared, Thread owner) {
        this.shared = shared;
        this.owner = owner;
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
            cells = shared.engine().recordOwn(owner, shared.hindex(), bits, value);
        }
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
