package dev.statvar.lab.soak;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.time.Instant;
import java.util.function.Consumer;

import static dev.statvar.lab.soak.SoakStats.BYTES;
import static dev.statvar.lab.soak.SoakStats.LATENCY;
import static dev.statvar.lab.soak.SoakStats.OPS;
import static dev.statvar.lab.soak.SoakStats.QUEUE;
import static dev.statvar.lab.soak.SoakStats.REQUESTS;

/**
 * The soak collector's sink: sums every interval of {@link SoakStats} it receives, and counts the intervals that
 * did not start where the previous one ended ({@link #gaps}). A stat it does not know fails with
 * {@link IllegalStateException} naming it.
 *
 * <p>Threads: {@link #accept} is called by the collector thread only (serialised); the sums are read by the main
 * thread only after the collector is closed (close() joins its thread). {@link #opsSoFar} and
 * {@link #intervalsSoFar}, for the progress line, are written here and read by the main thread (volatile).
 */
final class IntervalSums implements Consumer<Snapshot> {
    final SoakCounts c = new SoakCounts();
    long intervals;
    long gaps;
    private Instant lastEnd;
    volatile long opsSoFar;
    volatile long intervalsSoFar;

    @Override
    public void accept(Snapshot s) {
        if (lastEnd != null && !lastEnd.equals(s.start())) {
            gaps++;
        }
        lastEnd = s.end();
        intervals++;
        for (StatValue v : s) {
            switch (v.name()) {
                case OPS -> c.ops += ((CounterValue) v).value();
                case BYTES -> c.bytes += ((CounterValue) v).value();
                case QUEUE -> {
                    GaugeValue g = (GaugeValue) v;
                    c.gaugeCount += g.count();
                    c.gaugeSum += g.sum();
                    if (!g.isEmpty()) {
                        c.gaugeMin = Math.min(c.gaugeMin, g.min());
                        c.gaugeMax = Math.max(c.gaugeMax, g.max());
                    }
                }
                case LATENCY -> {
                    HistogramValue h = (HistogramValue) v;
                    c.histCount += h.count();
                    c.histSum += h.sum();
                }
                case REQUESTS -> c.series[SoakStats.seriesIndex(v.labels())] += ((CounterValue) v).value();
                default -> throw new IllegalStateException("unexpected stat " + v.name());
            }
        }
        opsSoFar = c.ops;
        intervalsSoFar = intervals;
    }
}
