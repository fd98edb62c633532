package dev.statvar.micrometer;

import dev.statvar.HistogramValue;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

import java.time.Duration;
import java.util.NavigableSet;

/**
 * What a statvar-backed timer or summary reads, in the histogram's own unit (nanoseconds for a
 * timer): count and sum since registration (the engine's totals), max and percentiles over the
 * {@link HistogramWindow} of the distribution config's expiry, and cumulative counts at Micrometer's
 * histogram buckets (service-level objectives and percentile-histogram buckets).
 *
 * <p>A count at an SLO is exact ({@link SloCounters}). A count at another boundary B is the count of
 * every statvar bucket whose lower bound is at most B: exact for values up to B, and it also counts
 * values above B that share B's bucket (at most {@link dev.statvar.HistogramPrecision#maxRelativeError()}
 * above it; statvar-export instead moves the boundary up to that bucket's upper bound). Every read
 * closes an interval first, except {@link #snapshot(dev.statvar.Snapshot)}, which reads a collect made
 * by its caller.
 */
final class HistogramReads {
    private final Series series;
    private final SnapshotFeed feed;
    private final HistogramWindow window;
    private final DistributionStatisticConfig config;
    /** Exact counts at the SLOs, or null when the meter has none. */
    private final SloCounters slos;

    HistogramReads(Series series, SnapshotFeed feed, DistributionStatisticConfig config, SloCounters slos) {
        this.series = series;
        this.feed = feed;
        this.config = config;
        this.slos = slos;
        Duration expiry = config.getExpiry() != null ? config.getExpiry() : Duration.ofMinutes(2);
        Integer buffers = config.getBufferLength();
        this.window = feed.window(series, expiry.toMillis(), buffers != null && buffers > 0 ? buffers : 3);
    }

    /** Everything recorded since registration, as of a collect made now. */
    HistogramValue totals() {
        return feed.fresh().histogram(series.name(), series.labels()).totals();
    }

    /** The largest value of the window ending now; 0 when it recorded nothing. */
    double max() {
        feed.fresh();
        HistogramValue w = window.merged(feed.wallTime());
        return w == null ? 0 : w.max();
    }

    HistogramSnapshot snapshot() {
        return snapshot(feed.fresh());
    }

    /**
     * The snapshot as of a collected {@code stats}: count and sum exact, max and percentiles over the
     * window, counts at Micrometer's histogram buckets ({@code getHistogramBuckets(true)}, as
     * micrometer-registry-prometheus): exact at the SLOs, within statvar's precision elsewhere.
     */
    HistogramSnapshot snapshot(dev.statvar.Snapshot stats) {
        HistogramValue totals = stats.histogram(series.name(), series.labels()).totals();
        HistogramValue w = window.merged(feed.wallTime());
        double[] ps = config.getPercentiles();
        ValueAtPercentile[] values = new ValueAtPercentile[ps == null ? 0 : ps.length];
        for (int i = 0; i < values.length; i++) {
            values[i] = new ValueAtPercentile(ps[i], percentile(w, ps[i]));
        }
        NavigableSet<Double> bounds = config.getHistogramBuckets(true);
        CountAtBucket[] counts = new CountAtBucket[bounds.size()];
        int i = 0;
        for (double b : bounds) {
            long exact = slos == null ? -1 : slos.countAt(stats, b);
            counts[i++] = new CountAtBucket(b, exact >= 0 ? exact : countAtOrBelow(totals, b));
        }
        return new HistogramSnapshot(totals.count(), Meters.unsigned(totals.sum()), w == null ? 0 : w.max(),
                values, counts, null);
    }

    private static double percentile(HistogramValue w, double p) {
        if (w == null || w.count() == 0) {
            return 0;
        }
        if (p <= 0) {
            return w.min();
        }
        return w.valueAtPercentile(Math.min(100, p * 100));
    }

    /** The count of every bucket whose lower bound is at most {@code bound}. */
    static long countAtOrBelow(HistogramValue v, double bound) {
        long n = 0;
        for (HistogramValue.Bucket b : v.buckets()) {
            if (b.lowerBound() > bound) {
                break;
            }
            n += b.count();
        }
        return n;
    }
}
