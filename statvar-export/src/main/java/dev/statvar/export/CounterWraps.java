package dev.statvar.export;

import dev.statvar.CounterValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;

/*
 * Design
 * ------
 * statvar counters only add (add(n) refuses n < 0) and their totals are never reset, but a total is a
 * long modulo 2^64: past 2^64 - 1 it wraps and the exposition, which writes it unsigned, would drop to
 * a small value, which Prometheus reads as a counter reset. So the exporter remembers each counter's
 * total from the previous snapshot it received: a total that is now smaller, read unsigned, has
 * wrapped (once: that needs fewer than 2^64 added between two received snapshots). It counts wraps
 * per series, shows the total as wraps * 2^64 + total (an exact decimal: the series keeps rising),
 * and counts every wrap in statvar_counter_wraps_total, which users can alert on.
 */

/**
 * The wraps of every counter series an exporter has received. {@link #update} is called by
 * {@link StatExporter#accept} (the collector's thread), serialised by this object's monitor; the
 * {@link View} it returns is immutable and reaches scrapes inside the exporter's state (a volatile
 * write and read).
 */
final class CounterWraps {
    /** The exposed series counting wraps (family {@value #FAMILY}, sample {@value #SAMPLE}). */
    static final String FAMILY = "statvar_counter_wraps";
    static final String SAMPLE = FAMILY + "_total";

    private static final System.Logger LOG = System.getLogger("dev.statvar.export");
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    /** One series: its name and labels. */
    private record Series(String name, Labels labels) {
    }

    /** The wraps as of one snapshot: immutable. */
    static final class View {
        static final View NONE = new View(Map.of(), 0);
        private final Map<Series, Long> wraps;
        private final long total;

        private View(Map<Series, Long> wraps, long total) {
            this.wraps = wraps;
            this.total = total;
        }

        /** Times any counter's total wrapped since this exporter's first snapshot. */
        long total() {
            return total;
        }

        /** {@code c}'s total, unsigned, plus 2^64 per wrap seen, as the nearest double: never decreasing. */
        double totalAsDouble(CounterValue c) {
            Long w = wraps.get(new Series(c.name(), c.labels()));
            long t = c.total();
            double unsigned = t >= 0 ? t : (double) (t >>> 1) * 2.0 + (t & 1);
            return w == null ? unsigned : unsigned + Math.scalb((double) w, 64);
        }

        /** {@code c}'s total as an unsigned decimal, plus 2^64 per wrap seen: never decreasing. */
        String totalOf(CounterValue c) {
            Long w = wraps.get(new Series(c.name(), c.labels()));
            if (w == null) {
                return Long.toUnsignedString(c.total());
            }
            return TWO_TO_64.multiply(BigInteger.valueOf(w)).add(new BigInteger(Long.toUnsignedString(c.total())))
                    .toString();
        }
    }

    /** Per series: {total at the previous snapshot, wraps}. Guarded by this. */
    private final Map<Series, long[]> seen = new HashMap<>();
    /** Guarded by this. */
    private View view = View.NONE;

    /** Compares {@code s}'s counter totals with the previous snapshot's; returns the wraps as of {@code s}. */
    synchronized View update(Snapshot s) {
        boolean wrapped = false;
        for (StatValue v : s.values()) {
            if (v instanceof CounterValue c) {
                long[] p = seen.computeIfAbsent(new Series(c.name(), c.labels()), k -> new long[2]);
                if (Long.compareUnsigned(c.total(), p[0]) < 0) {
                    p[1]++;
                    wrapped = true;
                    LOG.log(System.Logger.Level.WARNING, "statvar: counter " + c.name() + c.labels() + " passed 2^64 - 1 ("
                            + p[1] + " time(s)); its _total goes on past 2^64 and " + SAMPLE + " counts it");
                }
                p[0] = c.total();
            }
        }
        if (wrapped) {
            Map<Series, Long> wraps = new HashMap<>();
            long total = 0;
            for (Map.Entry<Series, long[]> e : seen.entrySet()) {
                if (e.getValue()[1] > 0) {
                    wraps.put(e.getKey(), e.getValue()[1]);
                    total += e.getValue()[1];
                }
            }
            view = new View(Map.copyOf(wraps), total);
        }
        return view;
    }
}
