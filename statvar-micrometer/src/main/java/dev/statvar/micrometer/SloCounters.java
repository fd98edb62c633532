package dev.statvar.micrometer;

import dev.statvar.Snapshot;

/**
 * Exact counts at a timer's or summary's service-level objectives: one statvar counter per SLO,
 * counting the values at or below it (cumulative, as Prometheus' {@code le} buckets), so a scrape's
 * SLO buckets are exact where statvar's histogram buckets are within its precision.
 *
 * <h2>Threading contract</h2>
 * {@link #record} from any thread: one statvar {@code add} per SLO the value is at or below (on a
 * platform thread no lock, no locked instruction). {@link #countAt} reads a collected snapshot.
 */
final class SloCounters {
    /** Ascending SLOs in the histogram's unit (nanoseconds for a timer). */
    private final double[] bounds;
    private final dev.statvar.Counter[] counters;
    private final Series[] series;

    SloCounters(double[] bounds, dev.statvar.Counter[] counters, Series[] series) {
        this.bounds = bounds;
        this.counters = counters;
        this.series = series;
    }

    /** Counts {@code value} (in the histogram's unit, before rounding) at every SLO at or above it. */
    void record(double value) {
        for (int i = bounds.length - 1; i >= 0 && value <= bounds[i]; i--) {
            counters[i].add(1);
        }
    }

    /** The exact count at or below {@code bound} since registration, or -1 when it is not an SLO. */
    long countAt(Snapshot s, double bound) {
        for (int i = 0; i < bounds.length; i++) {
            if (bounds[i] == bound) {
                return s.counterValue(series[i].name(), series[i].labels()).total();
            }
        }
        return -1;
    }
}
