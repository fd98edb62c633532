package dev.statvar.export;

import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a scrape shows: the last completed interval and every histogram's totals since start.
 * Immutable; built on the collector thread by {@link StatExporter#accept}.
 *
 * @param last       the last snapshot, null before the first
 * @param cumulative histogram series key ({@code name + labels}) to its merged intervals since start
 */
record ExportState(Snapshot last, Map<String, HistogramValue> cumulative) {
    static final ExportState EMPTY = new ExportState(null, Map.of());

    /** The state after {@code s}: {@code s} is the last interval; its histograms merged into the totals. */
    ExportState next(Snapshot s) {
        Map<String, HistogramValue> c = new HashMap<>(cumulative);
        for (StatValue v : s) {
            if (v instanceof HistogramValue h) {
                c.merge(key(h), h, HistogramValue::merge);
            }
        }
        return new ExportState(s, Collections.unmodifiableMap(c));
    }

    static String key(StatValue v) {
        return v.name() + v.labels();
    }

    /** A histogram's totals since start. */
    HistogramValue cumulative(StatValue v) {
        HistogramValue h = cumulative.get(key(v));
        return h != null ? h : (HistogramValue) v;
    }

    List<StatValue> values() {
        return last == null ? List.of() : last.values();
    }

    Instant start() {
        return last.start();
    }

    Instant end() {
        return last.end();
    }

    /** " (N s, ending at T)" for HELP texts; "" before the first interval. */
    String intervalDescription() {
        if (last == null) {
            return "";
        }
        Duration d = last.duration();
        long ms = d.toMillis();
        return " (" + (ms >= 1000 ? Math.round(ms / 1000.0) + " s" : ms + " ms") + ")";
    }
}
