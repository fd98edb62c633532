package dev.statvar.lab.soak;

import dev.statvar.Labels;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition (format 0.0.4), read as the soak's scrapers read
 * statvar-export's {@code /metrics}: {@code name{label="value",...} value [timestamp]} per line;
 * comments ({@code # HELP}, {@code # TYPE}, any {@code #} line) and blank lines skipped; label
 * values unescaped ({@code \\}, {@code \"}, {@code \n}). A line that is none of these fails with
 * {@link IllegalArgumentException} naming the line's number, what was expected and the line.
 * None of the lab's dependencies parses this format (client_java writes it only), hence this
 * small reader. Stateless: any thread may call it.
 */
final class PrometheusText {
    private PrometheusText() {
    }

    /**
     * One sample.
     *
     * @param name   the metric name
     * @param labels label names to values (unescaped), in the order written
     * @param value  the value as written (statvar writes counts unsigned, up to 2^64 - 1)
     */
    record Sample(String name, Map<String, String> labels, String value) {
        /** The series as statvar-export writes it: {@code name{a="x",b="y"}}, or the name alone. */
        String series() {
            if (labels.isEmpty()) {
                return name;
            }
            StringBuilder b = new StringBuilder(name).append('{');
            labels.forEach((k, v) -> {
                b.append(k).append("=\"");
                Labels.escapeValue(v, b);
                b.append("\",");
            });
            b.setCharAt(b.length() - 1, '}');
            return b.toString();
        }
    }

    /**
     * Every sample of {@code text}, by series ({@link Sample#series()}) to value.
     *
     * @throws IllegalArgumentException at the first malformed line, or a series given twice
     * @throws NullPointerException     if {@code text} is null
     */
    static Map<String, String> samples(String text) {
        Map<String, String> out = new HashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Sample s = parseLine(line, i + 1);
            if (out.put(s.series(), s.value()) != null) {
                throw new IllegalArgumentException("line " + (i + 1) + ": series " + s.series() + " given twice");
            }
        }
        return out;
    }

    /** One sample line; {@code number} for the message. */
    static Sample parseLine(String line, int number) {
        return new Reader(line, number).sample();
    }

    /** A cursor over one line. */
    private static final class Reader {
        private final String line;
        private final int number;
        private int at;
        /** Where the last {@link #token} began: a bad value or timestamp is reported there. */
        private int tokenStart;

        Reader(String line, int number) {
            this.line = line;
            this.number = number;
        }

        Sample sample() {
            String name = name(true);
            Map<String, String> labels = new LinkedHashMap<>();
            if (peek() == '{') {
                at++;
                while (peek() != '}') {
                    String label = name(false);
                    expect('=', "'=' after label name " + label);
                    expect('"', "'\"' opening the value of label " + label);
                    if (labels.put(label, quoted(label)) != null) {
                        throw bad("label " + label + " given twice");
                    }
                    if (peek() == ',') {
                        at++;
                    } else if (peek() != '}') {
                        throw bad("',' or '}' after the value of label " + label);
                    }
                }
                at++;
            }
            String value = token("a value after the series");
            checkNumber(value, "value");
            if (at < line.length() && !line.substring(at).isBlank()) {
                String ts = token("a timestamp");
                try {
                    Long.parseLong(ts);
                } catch (NumberFormatException e) {
                    at = tokenStart;
                    throw bad("a timestamp (integer milliseconds), not '" + ts + "'");
                }
                if (!line.substring(at).isBlank()) {
                    throw bad("the end of the line after the timestamp");
                }
            }
            return new Sample(name, Collections.unmodifiableMap(labels), value);
        }

        /** A metric name ({@code [a-zA-Z_:][a-zA-Z0-9_:]*}) or label name (no colon). */
        private String name(boolean metric) {
            int start = at;
            while (at < line.length()) {
                char c = line.charAt(at);
                boolean ok = c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (metric && c == ':')
                        || (at > start && c >= '0' && c <= '9');
                if (!ok) {
                    break;
                }
                at++;
            }
            if (at == start) {
                throw bad(metric ? "a metric name" : "a label name");
            }
            return line.substring(start, at);
        }

        /** A label value after its opening quote, unescaped, up to and past its closing quote. */
        private String quoted(String label) {
            StringBuilder v = new StringBuilder();
            while (true) {
                if (at >= line.length()) {
                    throw bad("'\"' closing the value of label " + label);
                }
                char c = line.charAt(at++);
                if (c == '"') {
                    return v.toString();
                }
                if (c == '\\') {
                    char e = at < line.length() ? line.charAt(at++) : ' ';
                    switch (e) {
                        case '\\' -> v.append('\\');
                        case '"' -> v.append('"');
                        case 'n' -> v.append('\n');
                        default -> throw bad("an escape \\\\, \\\" or \\n in the value of label " + label);
                    }
                } else {
                    v.append(c);
                }
            }
        }

        /** Blanks, then a run of non-blanks. */
        private String token(String what) {
            int blanks = at;
            while (at < line.length() && (line.charAt(at) == ' ' || line.charAt(at) == '\t')) {
                at++;
            }
            int start = at;
            tokenStart = start;
            while (at < line.length() && line.charAt(at) != ' ' && line.charAt(at) != '\t') {
                at++;
            }
            if (start == blanks || at == start) {
                throw bad(what);
            }
            return line.substring(start, at);
        }

        private void checkNumber(String v, String what) {
            if (v.equals("NaN") || v.equals("+Inf") || v.equals("-Inf")) {
                return;
            }
            boolean ok = !v.isEmpty() && v.chars().allMatch(c -> (c >= '0' && c <= '9') || "+-.eE".indexOf(c) >= 0);
            if (ok) {
                try {
                    Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    ok = false;
                }
            }
            if (!ok) {
                at = tokenStart;
                throw bad("a number for the " + what + " (or NaN, +Inf, -Inf), not '" + v + "'");
            }
        }

        private void expect(char c, String what) {
            if (peek() != c) {
                throw bad(what);
            }
            at++;
        }

        private char peek() {
            return at < line.length() ? line.charAt(at) : '\0';
        }

        private IllegalArgumentException bad(String expected) {
            return new IllegalArgumentException("line " + number + ", column " + (at + 1) + ": expected " + expected
                    + ": " + line);
        }
    }
}
