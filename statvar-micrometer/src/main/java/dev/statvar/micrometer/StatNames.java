package dev.statvar.micrometer;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;

import java.util.List;

/**
 * How a Micrometer meter id becomes a statvar stat name and labels: Micrometer's Prometheus naming
 * convention (dots to underscores, the base unit appended, timers in seconds), with the unit statvar
 * stores spelled in the name so statvar-export scales it back (docs/EXPORT.md, "Units in the name").
 *
 * <pre>
 * Micrometer meter (name a.b, base unit u)  statvar stat                     statvar-export shows
 * Counter, FunctionCounter                  counter a_b_u_total              a_b_u_total
 * Timer                                     histogram a_b_nanoseconds        a_b_seconds_{bucket,count,sum}
 * DistributionSummary                       histogram a_b_u                  a_b_u_{bucket,count,sum}
 * Gauge, MultiGauge rows                    gauge a_b_u_millionths           a_b_u_{count,sum,min,max}
 * TimeGauge                                 gauge a_b_nanoseconds            a_b_seconds_{count,sum,min,max}
 * FunctionTimer                             counters a_b_count_total,        a_b_count_total,
 *                                           a_b_nanoseconds_total            a_b_seconds_total
 * LongTaskTimer                             gauges a_b_active_tasks,         a_b_active_tasks_*,
 *                                           a_b_duration_nanoseconds,        a_b_duration_seconds_*,
 *                                           a_b_max_nanoseconds              a_b_max_seconds_*
 * other Meter (custom)                      gauge a_b_STATISTIC_millionths   a_b_STATISTIC_*
 * </pre>
 * Tag keys become label names with every character outside {@code [a-zA-Z0-9_]} replaced by
 * {@code _} (a leading digit gets a {@code _} prefix); tag values are kept as they are.
 */
final class StatNames {
    private StatNames() {
    }

    /** {@code name} as a Prometheus name: characters outside {@code [a-zA-Z0-9_:]} become {@code _}. */
    static String sanitize(String name) {
        StringBuilder b = new StringBuilder(name.length() + 1);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || (c >= '0' && c <= '9');
            b.append(ok ? c : '_');
        }
        if (b.length() == 0 || (b.charAt(0) >= '0' && b.charAt(0) <= '9')) {
            b.insert(0, '_');
        }
        return b.toString();
    }

    /** A tag key as a label name: as {@link #sanitize} but without {@code :}. */
    static String labelName(String key) {
        return sanitize(key).replace(':', '_');
    }

    /** The base name: sanitized, with the base unit appended unless it already ends with it. */
    static String base(Meter.Id id) {
        String n = sanitize(id.getName());
        String unit = id.getBaseUnit();
        if (unit != null && !unit.isEmpty()) {
            String u = sanitize(unit);
            if (!n.endsWith("_" + u)) {
                n = n + "_" + u;
            }
        }
        return n;
    }

    /** The base name of a timer-like meter, without the unit its name may end with (seconds etc.). */
    static String timeBase(Meter.Id id) {
        String n = sanitize(id.getName());
        for (String u : List.of("_seconds", "_milliseconds", "_nanoseconds")) {
            if (n.endsWith(u) && n.length() > u.length()) {
                return n.substring(0, n.length() - u.length());
            }
        }
        return n;
    }

    static String counter(Meter.Id id) {
        String b = base(id);
        return b.endsWith("_total") ? b : b + "_total";
    }

    static String timer(Meter.Id id) {
        return timeBase(id) + "_nanoseconds";
    }

    static String summary(Meter.Id id) {
        return base(id);
    }

    static String gauge(Meter.Id id) {
        return base(id) + "_millionths";
    }

    static String timeGauge(Meter.Id id) {
        return timeBase(id) + "_nanoseconds";
    }

    /** Label names of the meter's tags, in Micrometer's (sorted) tag order. */
    static String[] labelNames(Meter.Id id) {
        List<Tag> tags = id.getTags();
        String[] n = new String[tags.size()];
        for (int i = 0; i < n.length; i++) {
            n[i] = labelName(tags.get(i).getKey());
        }
        return n;
    }

    /** Label values of the meter's tags, in the order of {@link #labelNames}. */
    static String[] labelValues(Meter.Id id) {
        List<Tag> tags = id.getTags();
        String[] v = new String[tags.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = tags.get(i).getValue();
        }
        return v;
    }
}
