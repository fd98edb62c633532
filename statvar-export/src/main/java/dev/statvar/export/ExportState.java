package dev.statvar.export;

import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What a scrape shows: the last completed interval. Every value a collect delivers carries its
 * cumulative totals (counters {@code total()}, gauges {@code totalCount()}/{@code totalSum()},
 * histograms {@code totals()}), so nothing is accumulated here: whichever intervals the exporter
 * received, the totals are everything since registration. Immutable.
 *
 * @param last the last snapshot, null before the first
 */
record ExportState(Snapshot last) {
    static final ExportState EMPTY = new ExportState(null);

    List<StatValue> values() {
        return last == null ? List.of() : last.values();
    }

    Instant start() {
        return last.start();
    }

    Instant end() {
        return last.end();
    }

    /** When {@code v}'s stat was registered. */
    Instant created(StatValue v) {
        return last.created(v);
    }

    /** " (N s)" for HELP texts; "" before the first interval. */
    String intervalDescription() {
        if (last == null) {
            return "";
        }
        Duration d = last.duration();
        long ms = d.toMillis();
        return " (" + (ms >= 1000 ? Math.round(ms / 1000.0) + " s" : ms + " ms") + ")";
    }
}
