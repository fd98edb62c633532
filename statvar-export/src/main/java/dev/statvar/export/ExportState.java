package dev.statvar.export;

import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a scrape shows: the last completed interval, plus (for an exporter bound to its registry) the
 * empty value of every registered stat that interval lacks. Every value a collect delivers carries its
 * cumulative totals (counters {@code total()}, gauges {@code totalCount()}/{@code totalSum()},
 * histograms {@code totals()}), so nothing is accumulated here: whichever intervals the exporter
 * received, the totals are everything since registration. Immutable.
 */
final class ExportState {
    static final ExportState EMPTY = new ExportState(null, null, List.of(), Set.of(), CounterWraps.View.NONE);

    /** The last snapshot delivered, null before the first. */
    private final Snapshot last;
    /** {@code registry.registered()} when it supplied values, else null. */
    private final Snapshot registered;
    /** The last snapshot's values, then the registered values it lacks, in registration order. */
    private final List<StatValue> values;
    /** Series keys of the values taken from {@link #registered}. */
    private final Set<String> fromRegistered;
    /** The counters' wraps as of {@link #last}. */
    private final CounterWraps.View wraps;

    private ExportState(Snapshot last, Snapshot registered, List<StatValue> values, Set<String> fromRegistered,
                        CounterWraps.View wraps) {
        this.last = last;
        this.registered = registered;
        this.values = values;
        this.fromRegistered = fromRegistered;
        this.wraps = wraps;
    }

    /** The state showing {@code last}, whose counters wrapped as {@code wraps} says. */
    static ExportState of(Snapshot last, CounterWraps.View wraps) {
        return new ExportState(last, null, last.values(), Set.of(), wraps);
    }

    /**
     * This state with the values of {@code registered} (a registry's {@code registered()}) that it lacks
     * appended: stats registered since the last interval, or every stat before the first.
     */
    ExportState withRegistered(Snapshot registered) {
        Set<String> have = new HashSet<>();
        for (StatValue v : values) {
            have.add(key(v));
        }
        List<StatValue> all = new ArrayList<>(values);
        Set<String> added = new HashSet<>();
        for (StatValue v : registered) {
            String k = key(v);
            if (!have.contains(k)) {
                all.add(v);
                added.add(k);
            }
        }
        return new ExportState(last, registered, Collections.unmodifiableList(all), added, wraps);
    }

    static String key(StatValue v) {
        return v.name() + v.labels();
    }

    /** How often each counter's total wrapped past 2^64 - 1, as far as the exporter saw. */
    CounterWraps.View wraps() {
        return wraps;
    }

    /** The last snapshot delivered, null before the first. */
    Snapshot last() {
        return last;
    }

    /** Every value to show, in registration order (a family's series are grouped by the exposition). */
    List<StatValue> values() {
        return values;
    }

    /** When the interval shown began; only when {@link #last()} is not null. */
    Instant start() {
        return last.start();
    }

    /** When the interval shown ended; only when {@link #last()} is not null. */
    Instant end() {
        return last.end();
    }

    /** When {@code v}'s stat was registered. */
    Instant created(StatValue v) {
        return fromRegistered.contains(key(v)) ? registered.created(v) : last.created(v);
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
