package dev.statvar.export;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders an {@link ExportState} in the Prometheus text format 0.0.4 and in OpenMetrics 1.0
 * text. Pure functions of the state; thread-safe.
 *
 * <pre>
 * What each kind becomes (NAME is the stat's name)
 * -------------------------------------------------
 * counter    family NAME (a trailing _total is not doubled), type counter:
 *              NAME_total{labels}  the sum of every add() up to the last collect, dead threads included
 * gauge      family NAME, type summary without quantiles:
 *              NAME_count{labels}, NAME_sum{labels}  every report up to the last collect
 *            families NAME_min and NAME_max, type gauge: the last completed interval's min and max
 *              (NaN when it counted no report, even if a report racing its switch left a min/max in it)
 * histogram  family NAME, type histogram, cumulative since registration ({@link HistogramValue#totals()}, whichever
 *            intervals the exporter received):
 *              NAME_bucket{labels,le="B"} for each configured boundary B, moved up to the upper bound
 *              of the log-linear bucket that holds B, so every count is exact; le="+Inf" = NAME_count;
 *              NAME_sum
 *            family NAME_interval_percentile, type gauge: {labels,percentile="99.9"} of the last
 *              completed interval (NaN when it had no record); not "quantile", a label reserved for summaries
 * statvar_counter_wraps_total (type counter), once a counter's total wrapped past 2^64 - 1: how often;
 *            that counter's NAME_total is then written as wraps * 2^64 + total ({@link CounterWraps})
 * OpenMetrics adds NAME_created{labels} (when the series was registered, seconds since the epoch)
 * to counters, the gauges' summaries and histograms when {@link ExportOptions#createdSeries()} is on
 * (off by default, as in client_java: each is one more series unless Prometheus ingests created
 * timestamps).
 * A stat named in {@link ExportOptions#nanosAsSeconds()} is exposed as NAME_seconds (counter:
 * NAME_seconds_total), its values divided by 10^9 as exact decimals. A stat whose name (a counter's
 * without _total) ends in _nanoseconds is exposed the same way with that suffix replaced by _seconds
 * (X_nanoseconds becomes X_seconds); one ending in _millionths loses that suffix and has its values
 * divided by 10^6 (X_millionths becomes X): how statvar-micrometer stores Micrometer's timers and
 * fractional gauges. Counts (_count, _bucket) are never scaled.
 * </pre>
 * A family whose names would collide with an earlier family's (e.g. a counter {@code x} and a
 * gauge {@code x_total}) is left out and reported by {@link #render}'s {@code problems}.
 */
final class Exposition {
    private Exposition() {
    }

    /** A text format. */
    enum Format {
        PROMETHEUS_004, OPENMETRICS_100
    }

    /**
     * The exposition of {@code state} in {@code format}; a family left out because of a name
     * collision is described in {@code problems} (when not null).
     */
    static String render(ExportState state, ExportOptions options, Format format, List<String> problems) {
        boolean om = format == Format.OPENMETRICS_100;
        boolean created = om && options.createdSeries();
        StringBuilder out = new StringBuilder(4096);
        Map<String, String> taken = new HashMap<>(); // exposed name -> the stat that uses it
        for (List<StatValue> series : byName(state.values()).values()) {
            StatValue first = series.get(0);
            String name = first.name();
            Unit unit = Unit.of(name, options);
            String base = exposedBase(first.kind(), name, unit);
            List<String> names = exposedNames(first.kind(), base);
            String clash = null;
            for (String n : names) {
                if (taken.containsKey(n)) {
                    clash = n;
                    break;
                }
            }
            if (clash != null) {
                if (problems != null) {
                    problems.add(first.kind().label() + " '" + name + "' is not exported: its name '" + clash
                            + "' is already used by " + taken.get(clash));
                }
                continue;
            }
            for (String n : names) {
                taken.put(n, first.kind().label() + " '" + name + "'");
            }
            switch (first.kind()) {
                case COUNTER -> counter(out, om, created, base, first.help(), series, unit, state);
                case GAUGE -> gauge(out, om, created, base, first.help(), series, state, unit);
                case HISTOGRAM -> histogram(out, om, created, base, first.help(), series, state, options, unit);
            }
        }
        counterWraps(out, om, state.wraps(), taken, problems);
        if (om) {
            out.append("# EOF\n");
        }
        return out.toString();
    }

    /** {@code statvar_counter_wraps_total}, once a counter wrapped (unless a stat took the name). */
    private static void counterWraps(StringBuilder out, boolean om, CounterWraps.View wraps, Map<String, String> taken,
                                     List<String> problems) {
        if (wraps.total() == 0) {
            return;
        }
        for (String n : List.of(CounterWraps.FAMILY, CounterWraps.SAMPLE)) {
            if (taken.containsKey(n)) {
                if (problems != null) {
                    problems.add(CounterWraps.SAMPLE + " is not exported: its name '" + n + "' is used by " + taken.get(n));
                }
                return;
            }
        }
        header(out, om, om ? CounterWraps.FAMILY : CounterWraps.SAMPLE,
                "times a statvar counter's total passed 2^64 - 1 (its _total goes on past 2^64)", "counter");
        sample(out, CounterWraps.SAMPLE, Labels.EMPTY, null, null, Long.toString(wraps.total()));
    }

    /** A counter's family name: its name without a trailing {@code _total}. */
    static String counterFamily(String name) {
        return name.endsWith("_total") && name.length() > "_total".length() ? name.substring(0, name.length() - 6) : name;
    }

    /**
     * How one family's values are written: as they are, or as exact decimals of a scaled unit.
     * {@code decimals} places are moved left; {@code from} (a suffix of the stat's name, or "") is
     * replaced by {@code to} in the exposed name.
     */
    record Unit(int decimals, String from, String to) {
        static final Unit AS_IS = new Unit(0, "", "");
        static final String NANOSECONDS = "_nanoseconds";
        static final String MILLIONTHS = "_millionths";

        /**
         * A stat's unit: named in {@link ExportOptions#nanosAsSeconds()}, or its name (a counter's
         * without {@code _total}) ends in {@code _nanoseconds} (exposed as {@code _seconds}, / 10^9) or
         * in {@code _millionths} (suffix dropped, / 10^6).
         */
        static Unit of(String name, ExportOptions options) {
            if (options.nanosAsSeconds().contains(name)) {
                return new Unit(9, "", "_seconds");
            }
            String base = counterFamily(name);
            if (base.endsWith(NANOSECONDS) && base.length() > NANOSECONDS.length()) {
                return new Unit(9, NANOSECONDS, "_seconds");
            }
            if (base.endsWith(MILLIONTHS) && base.length() > MILLIONTHS.length()) {
                return new Unit(6, MILLIONTHS, "");
            }
            return AS_IS;
        }

        String of(long v) {
            return decimals == 0 ? Long.toString(v) : new BigDecimal(v).movePointLeft(decimals).stripTrailingZeros().toPlainString();
        }

        String ofUnsigned(long v) {
            return ofDecimal(Long.toUnsignedString(v));
        }

        /** A non-negative integer written in decimal, scaled. */
        String ofDecimal(String v) {
            return decimals == 0 ? v : new BigDecimal(v).movePointLeft(decimals).stripTrailingZeros().toPlainString();
        }

        /** An {@code le} label value: a scaled unit as a decimal, else a float as Prometheus's own clients write it ({@code 1023.0}). */
        String le(long le) {
            return decimals == 0 ? Double.toString((double) le) : of(le);
        }

        /** The exposed family name of a (counter-stripped) base name. */
        String rename(String base) {
            return base.substring(0, base.length() - from.length()) + to;
        }
    }

    /** The family name a stat is exposed under: a counter's without {@code _total}; renamed by its unit. */
    static String exposedBase(StatKind kind, String name, Unit unit) {
        String base = kind == StatKind.COUNTER ? counterFamily(name) : name;
        return unit.rename(base);
    }

    /** Every name a family of this kind and exposed base name takes in the exposition (families and samples). */
    static List<String> exposedNames(StatKind kind, String base) {
        return switch (kind) {
            case COUNTER -> List.of(base, base + "_total", base + "_created");
            case GAUGE -> List.of(base, base + "_count", base + "_sum", base + "_created", base + "_min", base + "_max");
            case HISTOGRAM -> List.of(base, base + "_bucket", base + "_count", base + "_sum", base + "_created",
                    base + "_interval_percentile");
        };
    }

    /** The values grouped by name (a family's series together), in first-registration order. */
    static Map<String, List<StatValue>> byName(List<StatValue> values) {
        Map<String, List<StatValue>> m = new LinkedHashMap<>();
        for (StatValue v : values) {
            m.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(v);
        }
        return m;
    }

    private static void counter(StringBuilder out, boolean om, boolean created, String family, String help, List<StatValue> series,
                                Unit unit, ExportState state) {
        header(out, om, om ? family : family + "_total", help, "counter");
        for (StatValue v : series) {
            sample(out, family + "_total", v.labels(), null, null, unit.ofDecimal(state.wraps().totalOf((CounterValue) v)));
            created(out, created, family, v, state);
        }
    }

    /**
     * OpenMetrics with {@link ExportOptions#createdSeries()} only: {@code NAME_created{labels}}, when the
     * series was registered, in seconds since the epoch.
     */
    private static void created(StringBuilder out, boolean on, String family, StatValue v, ExportState state) {
        if (on) {
            sample(out, family + "_created", v.labels(), null, null,
                    BigDecimal.valueOf(state.created(v).toEpochMilli()).movePointLeft(3).toPlainString());
        }
    }

    private static void gauge(StringBuilder out, boolean om, boolean created, String name, String help, List<StatValue> series,
                              ExportState state, Unit unit) {
        header(out, om, name, describe(help, "count and sum of every value reported since start"), "summary");
        for (StatValue v : series) {
            GaugeValue g = (GaugeValue) v;
            sample(out, name + "_count", g.labels(), null, null, Long.toUnsignedString(g.totalCount()));
            sample(out, name + "_sum", g.labels(), null, null, unit.of(g.totalSum()));
            created(out, created, name, g, state);
        }
        String interval = state.intervalDescription();
        header(out, om, name + "_min", describe(help, "smallest value reported in the last completed interval"
                + interval + "; NaN when none"), "gauge");
        for (StatValue v : series) {
            GaugeValue g = (GaugeValue) v;
            sample(out, name + "_min", g.labels(), null, null, g.count() == 0 ? "NaN" : unit.of(g.min()));
        }
        header(out, om, name + "_max", describe(help, "largest value reported in the last completed interval"
                + interval + "; NaN when none"), "gauge");
        for (StatValue v : series) {
            GaugeValue g = (GaugeValue) v;
            sample(out, name + "_max", g.labels(), null, null, g.count() == 0 ? "NaN" : unit.of(g.max()));
        }
    }

    private static void histogram(StringBuilder out, boolean om, boolean created, String name, String help, List<StatValue> series,
                                  ExportState state, ExportOptions options, Unit unit) {
        header(out, om, name, describe(help, "every value recorded since start"), "histogram");
        for (StatValue v : series) {
            HistogramValue h = ((HistogramValue) v).totals(); // the engine's own, since registration
            long[] les = options.boundariesAt(h.precision());
            long[] cum = cumulativeCounts(h, les);
            for (int i = 0; i < les.length; i++) {
                sample(out, name + "_bucket", h.labels(), "le", unit.le(les[i]), Long.toString(cum[i]));
            }
            sample(out, name + "_bucket", h.labels(), "le", "+Inf", Long.toString(h.count()));
            sample(out, name + "_count", h.labels(), null, null, Long.toString(h.count()));
            sample(out, name + "_sum", h.labels(), null, null, unit.ofUnsigned(h.sum()));
            created(out, created, name, v, state);
        }
        header(out, om, name + "_interval_percentile", describe(help, "percentiles of the last completed interval"
                + state.intervalDescription() + ", within the histogram's precision; NaN when it had no record"), "gauge");
        for (StatValue v : series) {
            HistogramValue h = (HistogramValue) v;
            for (double q : options.quantiles()) {
                String value = h.count() == 0 ? "NaN" : unit.of(h.valueAtPercentile(percent(q)));
                sample(out, name + "_interval_percentile", h.labels(), "percentile", percentileName(q), value);
            }
        }
    }

    /** For each boundary, the number of values {@code <=} it. */
    static long[] cumulativeCounts(HistogramValue h, long[] les) {
        long[] cum = new long[les.length];
        List<HistogramValue.Bucket> buckets = h.buckets();
        int b = 0;
        long seen = 0;
        for (int i = 0; i < les.length; i++) {
            while (b < buckets.size() && buckets.get(b).upperBound() <= les[i]) {
                seen += buckets.get(b).count();
                b++;
            }
            cum[i] = seen;
        }
        return cum;
    }

    private static String describe(String help, String what) {
        return help.isEmpty() ? what : help + " (" + what + ")";
    }

    private static void header(StringBuilder out, boolean om, String family, String help, String type) {
        if (!help.isEmpty()) {
            out.append("# HELP ").append(family).append(' ');
            for (int i = 0; i < help.length(); i++) {
                char c = help.charAt(i);
                switch (c) {
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '"' -> out.append(om ? "\\\"" : "\"");
                    default -> out.append(c);
                }
            }
            out.append('\n');
        }
        out.append("# TYPE ").append(family).append(' ').append(type).append('\n');
    }

    private static void sample(StringBuilder out, String name, Labels labels, String extraName, String extraValue,
                               String value) {
        out.append(name);
        if (!labels.isEmpty() || extraName != null) {
            out.append('{');
            for (int i = 0; i < labels.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labels.name(i)).append("=\"");
                Labels.escapeValue(labels.value(i), out);
                out.append('"');
            }
            if (extraName != null) {
                if (!labels.isEmpty()) {
                    out.append(',');
                }
                out.append(extraName).append("=\"").append(extraValue).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(value).append('\n');
    }

    /** A JSON string literal. */
    static void jsonString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A JSON number, or null for NaN. */
    static String jsonNumber(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? "null" : Double.toString(d);
    }

    /**
     * The body of {@code /stats.json}: the last completed interval and the totals since start
     * ({@code "interval":null} before the first, with the registered stats' empty values when the exporter
     * is bound to its registry).
     */
    static String json(ExportState state, ExportOptions options) {
        StringBuilder out = new StringBuilder(4096);
        if (state.values().isEmpty() && state.last() == null) {
            return "{\"interval\":null,\"stats\":[]}\n";
        }
        if (state.last() == null) {
            out.append("{\"interval\":null"); // before the first interval: the registered stats, empty
        } else {
            out.append("{\"interval\":{\"start\":");
            jsonString(state.start().toString(), out);
            out.append(",\"end\":");
            jsonString(state.end().toString(), out);
            out.append(",\"duration_ms\":").append(state.end().toEpochMilli() - state.start().toEpochMilli());
            out.append('}');
        }
        out.append(",\"stats\":[");
        boolean firstStat = true;
        for (StatValue v : state.values()) {
            out.append(firstStat ? "\n" : ",\n");
            firstStat = false;
            out.append("{\"name\":");
            jsonString(v.name(), out);
            out.append(",\"labels\":{");
            for (int i = 0; i < v.labels().size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                jsonString(v.labels().name(i), out);
                out.append(':');
                jsonString(v.labels().value(i), out);
            }
            out.append("},\"kind\":\"").append(v.kind().label()).append("\",\"help\":");
            jsonString(v.help(), out);
            if (v instanceof CounterValue c) {
                out.append(",\"interval\":{\"value\":").append(Long.toUnsignedString(c.value()))
                        .append("},\"total\":{\"value\":").append(state.wraps().totalOf(c)).append('}');
            } else if (v instanceof GaugeValue g) {
                out.append(",\"interval\":{\"count\":").append(g.count()).append(",\"sum\":").append(g.sum())
                        .append(",\"min\":").append(g.count() == 0 ? "null" : Long.toString(g.min()))
                        .append(",\"max\":").append(g.count() == 0 ? "null" : Long.toString(g.max()))
                        .append(",\"mean\":").append(jsonNumber(g.mean()))
                        .append("},\"total\":{\"count\":").append(Long.toUnsignedString(g.totalCount()))
                        .append(",\"sum\":").append(g.totalSum()).append('}');
            } else {
                HistogramValue h = (HistogramValue) v;
                out.append(",\"interval\":");
                histogramJson(h, options, out);
                out.append(",\"total\":");
                histogramJson(h.totals(), options, out);
            }
            out.append('}');
        }
        out.append("\n]}\n");
        return out.toString();
    }

    private static void histogramJson(HistogramValue h, ExportOptions options, StringBuilder out) {
        boolean empty = h.count() == 0;
        out.append("{\"count\":").append(h.count()).append(",\"sum\":").append(Long.toUnsignedString(h.sum()))
                .append(",\"min\":").append(empty ? "null" : Long.toString(h.min()))
                .append(",\"max\":").append(empty ? "null" : Long.toString(h.max()))
                .append(",\"mean\":").append(jsonNumber(h.mean()));
        for (double q : options.quantiles()) {
            out.append(",\"p").append(percentileName(q)).append("\":")
                    .append(empty ? "null" : Long.toString(h.valueAtPercentile(percent(q))));
        }
        out.append('}');
    }

    /** 0.5 -> "50", 0.999 -> "99.9". */
    static String percentileName(double q) {
        return java.math.BigDecimal.valueOf(q).movePointRight(2).stripTrailingZeros().toPlainString();
    }

    /** A quantile as a percentile without binary rounding: 0.999 -> 99.9, not 99.89999999999999. */
    static double percent(double q) {
        return java.math.BigDecimal.valueOf(q).movePointRight(2).doubleValue();
    }
}
