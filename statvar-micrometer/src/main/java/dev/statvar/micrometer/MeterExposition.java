package dev.statvar.micrometer;

import io.micrometer.core.instrument.Tag;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The families of one scrape, written as micrometer-registry-prometheus 1.17.2 writes them
 * (client_java's text formats): families sorted by name, labels sorted by key, {@code # HELP} with
 * the description or a blank, counters with {@code _total}.
 *
 * <h2>Threading</h2>
 * Confined to the scraping thread: built, written and dropped by one scrape.
 */
final class MeterExposition {
    /** Prometheus and OpenMetrics types, as the text formats spell them. */
    enum Type {
        COUNTER("counter", "counter"), GAUGE("gauge", "gauge"), SUMMARY("summary", "summary"),
        HISTOGRAM("histogram", "histogram"), GAUGE_HISTOGRAM("histogram", "gaugehistogram"), INFO("gauge", "info");

        final String text;
        final String openMetrics;

        Type(String text, String openMetrics) {
            this.text = text;
            this.openMetrics = openMetrics;
        }
    }

    /** One sample: the suffix added to the family's name, its labels (sorted), its value as written. */
    record Sample(String suffix, List<String[]> labels, String value) {
    }

    static final class Family {
        final String name;
        final Type type;
        final String help;
        final List<Sample> samples = new ArrayList<>();

        Family(String name, Type type, String help) {
            this.name = name;
            this.type = type;
            this.help = help;
        }
    }

    private final Map<String, Family> families = new TreeMap<>();

    /** The family of this name, created with this type and help by the first meter that names it. */
    Family family(String name, Type type, String help) {
        return families.computeIfAbsent(name, n -> new Family(n, type, help));
    }

    static List<String[]> labels(List<Tag> tags, String... extra) {
        TreeMap<String, String> sorted = new TreeMap<>();
        for (Tag t : tags) {
            sorted.put(t.getKey(), t.getValue());
        }
        for (int i = 0; i < extra.length; i += 2) {
            sorted.put(extra[i], extra[i + 1]);
        }
        List<String[]> l = new ArrayList<>(sorted.size());
        sorted.forEach((k, v) -> l.add(new String[]{k, v}));
        return l;
    }

    /** A double as client_java writes it: {@code Double.toString}, {@code +Inf}, {@code -Inf}, {@code NaN}. */
    static String number(double v) {
        if (v == Double.POSITIVE_INFINITY) {
            return "+Inf";
        }
        if (v == Double.NEGATIVE_INFINITY) {
            return "-Inf";
        }
        return Double.toString(v);
    }

    /**
     * Prometheus text format 0.0.4. As client_java writes it: a counter's header names it with
     * {@code _total}, an info's with {@code _info}; a gauge histogram's {@code _gcount} and
     * {@code _gsum} follow its buckets as gauges of their own.
     */
    String text() {
        StringBuilder b = new StringBuilder(families.size() * 128);
        for (Family f : families.values()) {
            String head = f.type == Type.COUNTER ? f.name + "_total" : f.type == Type.INFO ? f.name + "_info" : f.name;
            header(b, head, f.type.text, f.help);
            for (Sample s : f.samples) {
                if (f.type == Type.GAUGE_HISTOGRAM && !s.suffix.equals("_bucket")) {
                    header(b, f.name + s.suffix, "gauge", f.help);
                }
                sample(b, f.name, s);
            }
        }
        return b.toString();
    }

    private static void header(StringBuilder b, String name, String type, String help) {
        b.append("# HELP ").append(name).append(' ');
        escape(b, help, false);
        b.append("\n# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    /** OpenMetrics 1.0 text (client_java's writer without {@code _created}). */
    String openMetrics() {
        StringBuilder b = new StringBuilder(families.size() * 128);
        for (Family f : families.values()) {
            b.append("# TYPE ").append(f.name).append(' ').append(f.type.openMetrics).append('\n');
            if (!f.help.isBlank()) {
                b.append("# HELP ").append(f.name).append(' ');
                escape(b, f.help, true);
                b.append('\n');
            }
            samples(b, f);
        }
        return b.append("# EOF\n").toString();
    }

    /** Every sample as {@code [{"name":..,"labels":{..},"value":..}]}; values as numbers or strings (+Inf, NaN). */
    String json() {
        StringBuilder b = new StringBuilder("[");
        for (Family f : families.values()) {
            for (Sample s : f.samples) {
                if (b.length() > 1) {
                    b.append(',');
                }
                b.append("{\"name\":");
                jsonString(b, f.name + s.suffix);
                b.append(",\"labels\":{");
                for (int i = 0; i < s.labels.size(); i++) {
                    jsonString(b.append(i == 0 ? "" : ","), s.labels.get(i)[0]);
                    jsonString(b.append(':'), s.labels.get(i)[1]);
                }
                b.append("},\"value\":");
                boolean finite = !s.value.equals("NaN") && !s.value.endsWith("Inf");
                if (finite) {
                    b.append(s.value);
                } else {
                    jsonString(b, s.value);
                }
                b.append('}');
            }
        }
        return b.append(']').toString();
    }

    private static void samples(StringBuilder b, Family f) {
        for (Sample s : f.samples) {
            sample(b, f.name, s);
        }
    }

    private static void sample(StringBuilder b, String name, Sample s) {
        b.append(name).append(s.suffix);
        if (!s.labels.isEmpty()) {
            b.append('{');
            for (int i = 0; i < s.labels.size(); i++) {
                String[] l = s.labels.get(i);
                b.append(i == 0 ? "" : ",").append(l[0]).append("=\"");
                escape(b, l[1], true);
                b.append('"');
            }
            b.append('}');
        }
        b.append(' ').append(s.value).append('\n');
    }

    /** Escapes {@code \} and newlines, and {@code "} in label values. */
    private static void escape(StringBuilder b, String s, boolean quotes) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '"' -> b.append(quotes ? "\\\"" : "\"");
                default -> b.append(c);
            }
        }
    }

    private static void jsonString(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        b.append('"');
    }
}
