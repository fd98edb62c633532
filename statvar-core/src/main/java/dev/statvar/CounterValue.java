package dev.statvar;

/**
 * A counter in one interval.
 *
 * @param name  the counter's name
 * @param help  its help text
 * @param labels its labels ({@link Labels#EMPTY} unless it is a series of a {@link StatFamily})
 * @param value the sum of every {@code add} that landed in this interval
 * @param total the sum of every {@code add} since the stat was registered (dead threads included),
 *              modulo 2^64: it wraps to negative after 2^63 - 1, while {@code value} stays exact as
 *              long as one interval's own sum fits in a long
 */
public record CounterValue(String name, String help, Labels labels, long value, long total) implements StatValue {
    /**
     * A counter value without labels ({@link Labels#EMPTY}).
     *
     * @param name  the counter's name
     * @param help  its help text
     * @param value the sum of this interval's adds
     * @param total the sum of every add since the stat was registered, modulo 2^64
     */
    public CounterValue(String name, String help, long value, long total) {
        this(name, help, Labels.EMPTY, value, total);
    }

    @Override
    public StatKind kind() {
        return StatKind.COUNTER;
    }

    // Explicit equals/hashCode/toString: the generated ones link through java.lang.runtime.ObjectMethods,
    // whose JDK-wide method handle cache then keeps this class, and so statvar's class loader, reachable.
    @Override
    public boolean equals(Object o) {
        return o instanceof CounterValue c && name.equals(c.name) && help.equals(c.help) && labels.equals(c.labels)
                && value == c.value && total == c.total;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(name, help, labels, value, total);
    }

    @Override
    public String toString() {
        return "CounterValue[name=" + name + ", help=" + help + ", labels=" + labels + ", value=" + value
                + ", total=" + total + "]";
    }
}
