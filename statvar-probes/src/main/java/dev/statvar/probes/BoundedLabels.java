package dev.statvar.probes;

import dev.statvar.StatFamily;

/**
 * The series of a label value in a family, or of {@value #OTHER} once the family is nearly full:
 * probes label by values they do not choose (creation sites, class names), and a service must
 * never get an exception because it has many of them.
 *
 * <p>Design: the first label is the unbounded one; the other labels (if any) take a few known
 * values, so a family needs at most {@code otherSeries} series whose first label is
 * {@value #OTHER} (one per combination of the other labels). Those last slots are kept for them:
 * a value seen before keeps its series ({@link StatFamily#existing}); a new value gets one while
 * more than {@code otherSeries} slots are free, and goes to {@value #OTHER} (with the same other
 * labels) after that. So the totals stay exact and the family never overflows. Creation is
 * serialised on the family (the monitor {@link StatFamily} itself takes to create a series), so
 * two threads cannot both take the last free slot. Callers look a series up once (when a lock is
 * made, or per JFR event class) and keep it; this lock is not on any update path.
 */
final class BoundedLabels {
    /** The label value that every value past the family's cap folds into. */
    static final String OTHER = "other";

    private BoundedLabels() {
    }

    /** The series of {@code value} in the one-label family {@code family}, or of {@value #OTHER} once it is nearly full. */
    static <T> T seriesOrOther(StatFamily<T> family, String value) {
        return seriesOrOther(family, 1, value);
    }

    /**
     * The series of ({@code first}, {@code rest}...) in {@code family}, or of ({@value #OTHER},
     * {@code rest}...) when that series is new and no more than {@code otherSeries} slots are free.
     *
     * @param otherSeries how many distinct ({@value #OTHER}, rest...) series the family can need
     */
    static <T> T seriesOrOther(StatFamily<T> family, int otherSeries, String first, String... rest) {
        String[] values = values(first, rest);
        synchronized (family) {
            T seen = family.existing(values);
            if (seen != null) {
                return seen;
            }
            boolean room = family.maxSeries() - family.size() > otherSeries;
            return family.labels(room ? values : values(OTHER, rest));
        }
    }

    private static String[] values(String first, String[] rest) {
        String[] v = new String[1 + rest.length];
        v[0] = first;
        System.arraycopy(rest, 0, v, 1, rest.length);
        return v;
    }
}
