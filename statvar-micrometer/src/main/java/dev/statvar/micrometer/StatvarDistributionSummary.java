package dev.statvar.micrometer;

import dev.statvar.Histogram;
import io.micrometer.core.instrument.AbstractMeter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;

/**
 * A Micrometer {@link DistributionSummary} backed by a statvar histogram.
 *
 * <h2>Threading contract</h2>
 * {@link #record(double)} from any thread: the amount is multiplied by the summary's scale
 * ({@code DistributionSummary.builder(..).scale(s)}, 1 by default) and rounded to the nearest whole
 * number (statvar's histograms hold longs; choose a base unit or scale that makes amounts whole, e.g.
 * bytes, or milliseconds with {@code scale(1000)} for seconds), then recorded: on a platform thread
 * without a lock or locked instruction (with service-level objectives also one counter add per SLO at
 * or above the scaled amount, compared before rounding). Negative and NaN amounts are ignored, as Micrometer's own
 * summaries do; an amount beyond {@code Long.MAX_VALUE} is recorded as {@code Long.MAX_VALUE}. The reads
 * close an interval first (see {@link HistogramReads}).
 */
final class StatvarDistributionSummary extends AbstractMeter implements DistributionSummary {
    private final Histogram stat;
    private final HistogramReads reads;
    private final double scale;
    /** Exact counts at the SLOs, or null when the summary has none. */
    private final SloCounters slos;

    StatvarDistributionSummary(Id id, Histogram stat, SloCounters slos, HistogramReads reads, double scale) {
        super(id);
        this.stat = stat;
        this.slos = slos;
        this.reads = reads;
        this.scale = scale;
    }

    @Override
    public void record(double amount) {
        double scaled = amount * scale;
        if (scaled >= 0) { // false for negative amounts and NaN
            stat.record(Math.round(scaled)); // saturates at Long.MAX_VALUE
            if (slos != null) {
                slos.record(scaled); // before rounding: SLO buckets exact as Micrometer's
            }
        }
    }

    @Override
    public long count() {
        return reads.totals().count();
    }

    @Override
    public double totalAmount() {
        return Meters.unsigned(reads.totals().sum());
    }

    @Override
    public double max() {
        return reads.max();
    }

    @Override
    public HistogramSnapshot takeSnapshot() {
        return reads.snapshot();
    }

    /** The snapshot as of {@code stats}, a snapshot just collected (a scrape reads every meter from one). */
    HistogramSnapshot snapshot(dev.statvar.Snapshot stats) {
        return reads.snapshot(stats);
    }
}
