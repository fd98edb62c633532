package dev.statvar;

import java.util.Arrays;
import java.util.List;

/**
 * The label names and values of one series of a {@link StatFamily}, in the family's label order.
 * Immutable; {@link #EMPTY} for a stat without labels.
 *
 * <p>Label names follow Prometheus ({@code [a-zA-Z_][a-zA-Z0-9_]*}, not starting with
 * {@code __}); values are any string without unpaired surrogates (exporters escape them).
 */
public final class Labels {
    /** No labels: a stat registered with {@code counter(name)}, {@code gauge(name)} or {@code histogram(name)}. */
    public static final Labels EMPTY = new Labels(new String[0], new String[0]);

    private final String[] names;
    private final String[] values;

    Labels(String[] names, String[] values) {
        this.names = names;
        this.values = values;
    }

    /**
     * Labels from alternating names and values, e.g. {@code Labels.of("method", "GET", "code", "200")}.
     *
     * @param namesAndValues name, value, name, value, ...; names {@code [a-zA-Z_][a-zA-Z0-9_]*}, not
     *                       starting with {@code __}
     * @return these labels, in the order given
     * @throws IllegalArgumentException if a name or value is invalid (or null), a name repeats, or the count is odd
     * @throws NullPointerException     if {@code namesAndValues} is null
     */
    public static Labels of(String... namesAndValues) {
        if (namesAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in name, value pairs; got " + namesAndValues.length + " strings");
        }
        String[] n = new String[namesAndValues.length / 2];
        String[] v = new String[n.length];
        for (int i = 0; i < n.length; i++) {
            n[i] = namesAndValues[2 * i];
            v[i] = namesAndValues[2 * i + 1];
        }
        checkNames("labels", n, false);
        checkValues("labels", n, v);
        return new Labels(n, v);
    }

    /**
     * Number of labels.
     *
     * @return the number of name/value pairs, 0 for {@link #EMPTY}
     */
    public int size() {
        return names.length;
    }

    /**
     * Whether there are no labels.
     *
     * @return true when {@link #size()} is 0
     */
    public boolean isEmpty() {
        return names.length == 0;
    }

    /**
     * The label names, in order.
     *
     * @return an unmodifiable list of the names
     */
    public List<String> names() {
        return List.of(names);
    }

    /**
     * The label values, in the order of {@link #names()}.
     *
     * @return an unmodifiable list of the values
     */
    public List<String> values() {
        return List.of(values);
    }

    /**
     * The name of label {@code i}.
     *
     * @param i the label's position, {@code 0 .. size() - 1}
     * @return its name
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code 0 .. size() - 1}
     */
    public String name(int i) {
        return names[i];
    }

    /**
     * The value of label {@code i}.
     *
     * @param i the label's position, {@code 0 .. size() - 1}
     * @return its value
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code 0 .. size() - 1}
     */
    public String value(int i) {
        return values[i];
    }

    /**
     * The value of the label of this name.
     *
     * @param name a label name
     * @return its value, or null when there is no label of this name
     */
    public String get(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Labels l && Arrays.equals(names, l.names) && Arrays.equals(values, l.values);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(names) + Arrays.hashCode(values);
    }

    /** {@code {name="value",...}} with {@code \}, {@code "} and newline escaped as in the Prometheus text format; "" when empty. */
    @Override
    public String toString() {
        if (names.length == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < names.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(names[i]).append("=\"");
            escapeValue(values[i], sb);
            sb.append('"');
        }
        return sb.append('}').toString();
    }

    /**
     * Appends {@code v} with backslash, double quote and line feed escaped (Prometheus text and
     * OpenMetrics label values).
     *
     * @param v   the label value
     * @param out where the escaped value is appended
     * @throws NullPointerException if {@code v} or {@code out} is null
     */
    public static void escapeValue(String v, StringBuilder out) {
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
    }

    /**
     * Checks label names: valid, distinct, not reserved ({@code __} prefix; for histograms also
     * {@code le} and {@code quantile}, which their exposition uses).
     */
    static void checkNames(String owner, String[] names, boolean histogram) {
        for (int i = 0; i < names.length; i++) {
            String n = names[i];
            if (n == null) {
                throw new IllegalArgumentException(owner + ": label name " + (i + 1) + " is null");
            }
            if (n.isEmpty()) {
                throw new IllegalArgumentException(owner + ": label name " + (i + 1) + " is empty");
            }
            for (int k = 0; k < n.length(); k++) {
                char ch = n.charAt(k);
                boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (k > 0 && ch >= '0' && ch <= '9');
                if (!ok) {
                    throw new IllegalArgumentException(owner + ": invalid label name '" + n + "': character " + (k + 1)
                            + " ('" + ch + "') is not allowed; label names must match [a-zA-Z_][a-zA-Z0-9_]*");
                }
            }
            if (n.startsWith("__")) {
                throw new IllegalArgumentException(owner + ": label name '" + n + "' is reserved (names starting with __ belong to Prometheus)");
            }
            if (histogram && (n.equals("le") || n.equals("quantile"))) {
                throw new IllegalArgumentException(owner + ": label name '" + n + "' is reserved for a histogram's buckets and quantiles");
            }
            for (int j = 0; j < i; j++) {
                if (names[j].equals(n)) {
                    throw new IllegalArgumentException(owner + ": label name '" + n + "' is given twice");
                }
            }
        }
    }

    /** Checks label values: one per name, not null, no unpaired surrogate (the exposition is UTF-8). */
    static void checkValues(String owner, String[] names, String[] values) {
        if (values.length != names.length) {
            throw new IllegalArgumentException(owner + ": expected " + names.length + " label value(s) for "
                    + Arrays.toString(names) + ", got " + values.length);
        }
        for (int i = 0; i < values.length; i++) {
            String v = values[i];
            if (v == null) {
                throw new IllegalArgumentException(owner + ": the value of label '" + names[i] + "' is null");
            }
            for (int k = 0; k < v.length(); k++) {
                char c = v.charAt(k);
                if (Character.isHighSurrogate(c) && k + 1 < v.length() && Character.isLowSurrogate(v.charAt(k + 1))) {
                    k++;
                } else if (Character.isSurrogate(c)) {
                    throw new IllegalArgumentException(owner + ": the value of label '" + names[i]
                            + "' has an unpaired surrogate at index " + k + " (not encodable as UTF-8)");
                }
            }
        }
    }
}
