package dev.statvar.micrometer;

import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Meter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The statvar series one meter registered, removed with the meter. Two Micrometer ids can map to one
 * statvar series (tag keys that sanitize alike), so series are counted ({@code refs}): a series is
 * removed from statvar ({@link StatFamily#remove}, {@link StatRegistry#remove}) when its last meter
 * goes, after {@code onLastRef} (the registry's per-series state: a counter's last fractions are
 * carried first, so its last interval holds them). A series statvar answered with its family's
 * overflow series (the family at its cap) is refused with {@link IllegalStateException}: the meter
 * could not read its own counts back from it.
 *
 * <h2>Threading</h2>
 * One instance per meter registration, used by the registering thread, then by the removing thread
 * ({@link #removeAll}); {@code refs} is a concurrent map updated with {@code compute}.
 */
final class MeterStats {
    private final StatRegistry stats;
    private final Map<Series, Integer> refs;
    private final Consumer<Series> onLastRef;
    private final String help;
    /** What to remove, in registration order: each series and how to remove it from statvar. */
    private final List<Series> series = new ArrayList<>();
    private final List<Runnable> removers = new ArrayList<>();

    MeterStats(StatRegistry stats, Map<Series, Integer> refs, Consumer<Series> onLastRef, Meter.Id id) {
        this.stats = stats;
        this.refs = refs;
        this.onLastRef = onLastRef;
        this.help = id.getDescription() == null ? "" : id.getDescription();
    }

    dev.statvar.Counter counter(String name, Meter.Id id) {
        return counter(name, StatNames.labelNames(id), StatNames.labelValues(id));
    }

    dev.statvar.Counter counter(String name, String[] labelNames, String[] labelValues) {
        if (labelNames.length == 0) {
            return bound(name, labelNames, labelValues, stats.counter(name, help), null);
        }
        StatFamily<dev.statvar.Counter> f = stats.counterFamily(name, help, labelNames);
        return bound(name, labelNames, labelValues, f.labels(labelValues), f);
    }

    Gauge gauge(String name, Meter.Id id) {
        String[] ln = StatNames.labelNames(id);
        String[] lv = StatNames.labelValues(id);
        if (ln.length == 0) {
            return bound(name, ln, lv, stats.gauge(name, help), null);
        }
        StatFamily<Gauge> f = stats.gaugeFamily(name, help, ln);
        return bound(name, ln, lv, f.labels(lv), f);
    }

    Histogram histogram(String name, Meter.Id id) {
        String[] ln = StatNames.labelNames(id);
        String[] lv = StatNames.labelValues(id);
        if (ln.length == 0) {
            return bound(name, ln, lv, stats.histogram(name, help, HistogramPrecision.DEFAULT), null);
        }
        StatFamily<Histogram> f = stats.histogramFamily(name, help, HistogramPrecision.DEFAULT, ln);
        return bound(name, ln, lv, f.labels(lv), f);
    }

    /** A family past its cap answered with its overflow series ({@link #stat}). */
    static final class Overflow extends IllegalStateException {
        final transient Object stat;

        Overflow(StatFamily<?> family, Object stat) {
            super(family + " holds its maximum of " + family.maxSeries() + " series: new label values go to its"
                    + " overflow series, which a meter cannot read its own counts from");
            this.stat = stat;
        }
    }

    private <T> T bound(String name, String[] labelNames, String[] labelValues, T stat, StatFamily<T> family) {
        if (family != null && family.existing(labelValues) != stat) {
            throw new Overflow(family, stat);
        }
        Series s = Series.of(name, labelNames, labelValues);
        refs.merge(s, 1, Integer::sum);
        series.add(s);
        removers.add(family == null ? () -> stats.remove(name) : () -> family.remove(labelValues));
        return stat;
    }

    /** Releases every series; a series whose last meter this was is cleaned up and removed from statvar. */
    void removeAll() {
        for (int i = series.size() - 1; i >= 0; i--) {
            Series s = series.get(i);
            boolean last = refs.compute(s, (k, n) -> n == null || n <= 1 ? null : n - 1) == null;
            if (last) {
                onLastRef.accept(s);
                removers.get(i).run();
            }
        }
        series.clear();
        removers.clear();
    }
}
