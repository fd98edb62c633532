package dev.statvar.prometheus;

import dev.statvar.StatKind;
import dev.statvar.export.ExportOptions;

import java.util.List;

/**
 * statvar-export's text-format names and units, which this module's families keep: a counter's family
 * without {@code _total}; a stat named in {@link ExportOptions#nanosAsSeconds()} or ending in
 * {@code _nanoseconds} exposed as {@code _seconds} divided by 10^9; one ending in {@code _millionths}
 * losing that suffix, divided by 10^6. Immutable.
 *
 * @param decimals places the decimal point moves left (0, 6 or 9)
 * @param from     the suffix of the stat's name replaced, or ""
 * @param to       what replaces it
 */
record Naming(int decimals, String from, String to) {
    private static final Naming AS_IS = new Naming(0, "", "");
    private static final String NANOSECONDS = "_nanoseconds";
    private static final String MILLIONTHS = "_millionths";

    /** The unit of the stat {@code name} under {@code options}. */
    static Naming of(String name, ExportOptions options) {
        if (options.nanosAsSeconds().contains(name)) {
            return new Naming(9, "", "_seconds");
        }
        String base = counterFamily(name);
        if (base.endsWith(NANOSECONDS) && base.length() > NANOSECONDS.length()) {
            return new Naming(9, NANOSECONDS, "_seconds");
        }
        if (base.endsWith(MILLIONTHS) && base.length() > MILLIONTHS.length()) {
            return new Naming(6, MILLIONTHS, "");
        }
        return AS_IS;
    }

    /** A counter's family name: its name without a trailing {@code _total}. */
    static String counterFamily(String name) {
        return name.endsWith("_total") && name.length() > "_total".length() ? name.substring(0, name.length() - 6) : name;
    }

    /** The family name a stat of {@code kind} and {@code name} is exposed under. */
    String family(StatKind kind, String name) {
        String base = kind == StatKind.COUNTER ? counterFamily(name) : name;
        return base.substring(0, base.length() - from.length()) + to;
    }

    /** Every name a family of this kind and exposed name takes (families and samples), as statvar-export counts them. */
    static List<String> names(StatKind kind, String family) {
        return switch (kind) {
            case COUNTER -> List.of(family, family + "_total", family + "_created");
            case GAUGE -> List.of(family, family + "_count", family + "_sum", family + "_created", family + "_min",
                    family + "_max");
            case HISTOGRAM -> List.of(family, family + "_bucket", family + "_count", family + "_sum", family + "_created",
                    family + "_interval_percentile");
        };
    }

    /** {@code v} in the exposed unit; the nearest double (exact below 2^53 when not scaled). */
    double value(long v) {
        return scale((double) v);
    }

    /** The unsigned {@code v} in the exposed unit (sums and counter totals are unsigned). */
    double unsigned(long v) {
        return scale(v >= 0 ? (double) v : (double) (v >>> 1) * 2.0 + (v & 1));
    }

    /** A value already a double (e.g. a wrapped counter's total) in the exposed unit. */
    double scaled(double v) {
        return scale(v);
    }

    private double scale(double v) {
        return switch (decimals) {
            case 0 -> v;
            case 6 -> v / 1e6;
            default -> v / 1e9;
        };
    }
}
