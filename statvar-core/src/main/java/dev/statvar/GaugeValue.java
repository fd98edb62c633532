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
 * always cover every report counted in the interval, and are always values somebody reported;
 * a report racing the interval switch in its thread may also widen the neighbouring interval.
 * When the engine could not tell which of a thread's recent reports an interval counted (a
 * report in flight across a whole switch), min and max still cover the interval's reports but
 * may include values that thread reported earlier: {@link #isMinMaxExact()} is then false.
 *
 * @param name       the gauge's name
 * @param help       its help text
 * @param labels     its labels ({@link Labels#EMPTY} unless it is a series of a {@link StatFamily})
 * @param count      number of reports in this interval
 * @param sum        sum of the values reported in this interval (exact modulo 2^64)
 * @param min        smallest value reported in this interval, 0 when empty
 * @param max        largest value reported in this interval, 0 when empty
 * @param totalCount number of reports since the stat was registered
 * @param totalSum   sum of all values since the stat was registered, modulo 2^64
 * @param minMaxExact false when min/max may include values that thread reported earlier (see above)
 */
public record GaugeValue(String name, String help, Labels labels, long count, long sum, long min, long max,
                         long totalCount, long totalSum, boolean minMaxExact) implements StatValue {
    /**
     * A gauge value whose min and max are exact ({@code minMaxExact} true).
     *
     * @param name       the gauge's name
     * @param help       its help text
     * @param labels     its labels
     * @param count      number of reports in this interval
     * @param sum        sum of the values reported in this interval
     * @param min        smallest value reported in this interval, 0 when empty
     * @param max        largest value reported in this interval, 0 when empty
     * @param totalCount number of reports since the stat was registered
     * @param totalSum   sum of all values since the stat was registered
     */
    public GaugeValue(String name, String help, Labels labels, long count, long sum, long min, long max,
                      long totalCount, long totalSum) {
        this(name, help, labels, count, sum, min, max, totalCount, totalSum, true);
    }

    /**
     * A gauge value without labels ({@link Labels#EMPTY}) whose min and max are exact.
     *
     * @param name       the gauge's name
     * @param help       its help text
     * @param count      number of reports in this interval
     * @param sum        sum of the values reported in this interval
     * @param min        smallest value reported in this interval, 0 when empty
     * @param max        largest value reported in this interval, 0 when empty
     * @param totalCount number of reports since the stat was registered
     * @param totalSum   sum of all values since the stat was registered
     */
    public GaugeValue(String name, String help, long count, long sum, long min, long max, long totalCount, long totalSum) {
        this(name, help, Labels.EMPTY, count, sum, min, max, totalCount, totalSum, true);
    }

    /**
     * Whether min and max hold only values counted in this interval or reported while its
     * switch (or the next one) raced them (true, also when empty); false when they may also
     * hold values the reporting thread reported earlier (see the class comment).
     *
     * @return false when min and max may include values reported before this interval's reports
     */
    public boolean isMinMaxExact() {
        return minMaxExact;
    }

    @Override
    public StatKind kind() {
        return StatKind.GAUGE;
    }

    /**
     * The mean of the values reported in this interval.
     *
     * @return {@code sum / count} (the sum read signed), or NaN when the interval has no reports
     */
    public double mean() {
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    /**
     * Whether nothing landed in this interval: neither a report nor a min/max.
     *
     * @return true when count, min and max are all 0
     */
    public boolean isEmpty() {
        return count == 0 && min == 0 && max == 0;
    }

    // Explicit equals/hashCode/toString: the generated ones link through java.lang.runtime.ObjectMethods,
    // whose JDK-wide method handle cache then keeps this class, and so statvar's class loader, reachable.
    @Override
    public boolean equals(Object o) {
        return o instanceof GaugeValue g && name.equals(g.name) && help.equals(g.help) && labels.equals(g.labels)
                && count == g.count && sum == g.sum && min == g.min && max == g.max && totalCount == g.totalCount
                && totalSum == g.totalSum && minMaxExact == g.minMaxExact;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, help, labels, count, sum, min, max, totalCount, totalSum, minMaxExact);
    }

    @Override
    public String toString() {
        return "GaugeValue[name=" + name + ", help=" + help + ", labels=" + labels + ", count=" + count + ", sum=" + sum
                + ", min=" + min + ", max=" + max + ", totalCount=" + totalCount + ", totalSum=" + totalSum
                + ", minMaxExact=" + minMaxExact + "]";
    }
}
