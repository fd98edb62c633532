package dev.statvar;

/** The kinds of stat a registry holds. */
public enum StatKind {
    /** Monotonic count of events ({@link Counter}). */
    COUNTER("counter"),
    /** Count, sum, min and max of reported values ({@link Gauge}). */
    GAUGE("gauge"),
    /** Distribution of recorded values ({@link Histogram}). */
    HISTOGRAM("histogram");

    private final String label;

    StatKind(String label) {
        this.label = label;
    }

    /**
     * Lower-case name used in messages and exports.
     *
     * @return {@code "counter"}, {@code "gauge"} or {@code "histogram"}
     */
    public String label() {
        return label;
    }
}
