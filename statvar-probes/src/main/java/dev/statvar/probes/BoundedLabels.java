package dev.statvar.probes;

import dev.statvar.StatFamily;

/**
 * The series of a label value in a family, or of {@value #OTHER} once the family is full: probes
 * label by values they do not choose (creation sites, class names), and a service must never get
 * an exception because it has many of them.
 *
 * <p>Design: the family's last free slot is kept for {@value #OTHER}: when a new value would take
 * it, {@value #OTHER} is created first and the value folds into it. Creation is serialised on the
 * family (the monitor {@link StatFamily} itself takes to create a series), so two threads creating
 * the last values at once cannot leave {@value #OTHER} without a slot. Lookups of existing series
 * take no lock in the family; only this method's creation path locks.
 */
final class BoundedLabels {
    /** The label value that every value past the family's cap folds into. */
    static final String OTHER = "other";

    private BoundedLabels() {
    }

    /** The series of {@code value} in the one-label family {@code family}, or of {@value #OTHER} when it is full. */
    static <T> T seriesOrOther(StatFamily<T> family, String value) {
        synchronized (family) {
            if (family.size() >= family.maxSeries() - 1) {
                family.labels(OTHER); // the last slot, kept for OTHER (a no-op once it exists)
            }
            try {
                return family.labels(value);
            } catch (IllegalArgumentException full) {
                return family.labels(OTHER);
            }
        }
    }
}
