package dev.statvar;

/**
 * A gauge in one interval: how many values were reported, their sum, min and max.
 *
 * <p>An interval without reports has {@code count() == 0}, {@code sum() == 0},
 * {@code min() == 0}, {@code max() == 0} and {@code mean()} NaN; {@link #isEmpty()} tells it
 * apart from an interval whose values were all 0.
 *
 * <p>count and sum are exact (a report racing the switch lands, as a whole, in one of the
 * two adjacent intervals for the count, and the sum of every counted report is included;
 * the sum may already include a report whose count lands in the next interval). min and max
 * cover every report of the interval except one that raced the interval switch in its
 * thread (see {@code StatRegistry#collect()}); over all intervals they are exact.
 *
 * @param name       the gauge's name
 * @param help       its help text
 * @param labels     its labels ({@link Labels#EMPTY} unless it is a series of a {@link StatFamily})
 * @param count      number of reports in this interval
 * @param sum        sum of the values reported in this interval (exact modulo 2^64)
 * @param min        smallest value reported in this interval, 0 when empty
 * @param max        largest value reported in this interval, 0 when empty
 * @param totalCount number of reports since the registry was created
 * @param totalSum   sum of all values since the registry was created, modulo 2^64
 */
public record GaugeValue(String name, String help, Labels labels, long count, long sum, long min, long max,
                         long totalCount, long totalSum) implements StatValue {
    /** A gauge value without labels. */
    public GaugeValue(String name, String help, long count, long sum, long min, long max, long totalCount, long totalSum) {
        this(name, help, Labels.EMPTY, count, sum, min, max, totalCount, totalSum);
    }

    @Override
    public StatKind kind() {
        return StatKind.GAUGE;
    }

    /** {@code sum / count}, or NaN when the interval has no reports. */
    public double mean() {
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    /** True when neither a report nor a min/max landed in this interval. */
    public boolean isEmpty() {
        return count == 0 && min == 0 && max == 0;
    }
}
