package dev.statvar.lab.kit;

import java.util.Arrays;
import java.util.List;

/**
 * The lab's one verdict scheme: what a study's data says of a claim of the articles. Every study's
 * JSON and every section of docs/LAB.md uses these words and no others for a verdict
 * ({@code LabDocTest} rejects any other).
 * <ul>
 *   <li>{@link #CONFIRMED}: the claimed difference (or bound) holds in every repeat, by more than the
 *       study's noise measure;</li>
 *   <li>{@link #REFUTED}: the opposite holds in every repeat, by more than the noise measure, with the
 *       numbers;</li>
 *   <li>{@link #WITHIN_NOISE}: the difference is smaller than the noise measure, or the repeats
 *       disagree: this run neither supports nor contradicts the claim;</li>
 *   <li>{@link #NOT_TESTABLE}: this machine or this measure cannot decide it, and the verdict says why.</li>
 * </ul>
 * A study's noise measure is the spread of the same figure between repeats (fresh JVMs), or within a
 * run between its measured runs where the study has no repeats; each claim names the one it used.
 */
public enum Verdict {
    CONFIRMED("confirmed"),
    REFUTED("refuted"),
    WITHIN_NOISE("within noise"),
    NOT_TESTABLE("not testable here");

    private final String word;

    Verdict(String word) {
        this.word = word;
    }

    /** The verdict as written in the JSON and the document. */
    public String word() {
        return word;
    }

    @Override
    public String toString() {
        return word;
    }

    /** Every verdict's word, in the scheme's order. */
    public static List<String> words() {
        return Arrays.stream(values()).map(Verdict::word).toList();
    }

    /** The verdict whose {@link #word()} begins {@code text} (e.g. "refuted: 0.92x"), or null. */
    public static Verdict leading(String text) {
        for (Verdict v : values()) {
            if (text.startsWith(v.word)) {
                return v;
            }
        }
        return null;
    }

    /**
     * The verdict on a claim that a figure is at least {@code bound} ({@code values}: one per repeat):
     * confirmed when every value is at least {@code bound}, refuted when every value is below
     * {@code refute} ({@code <= bound}; the band between is the study's noise band), within noise otherwise.
     */
    public static Verdict band(double[] values, double bound, double refute) {
        if (values.length == 0 || Arrays.stream(values).anyMatch(Double::isNaN)) {
            return NOT_TESTABLE;
        }
        double lo = Arrays.stream(values).min().orElseThrow();
        double hi = Arrays.stream(values).max().orElseThrow();
        return lo >= bound ? CONFIRMED : hi < refute ? REFUTED : WITHIN_NOISE;
    }

    /**
     * The verdict on a claim that {@code a} exceeds {@code b} (one figure per repeat or per run each):
     * confirmed when every {@code a} is above every {@code b} (their ranges do not overlap), refuted when
     * every {@code a} is below every {@code b}, within noise when the ranges overlap.
     */
    public static Verdict greater(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            return NOT_TESTABLE;
        }
        double aLo = Arrays.stream(a).min().orElseThrow();
        double aHi = Arrays.stream(a).max().orElseThrow();
        double bLo = Arrays.stream(b).min().orElseThrow();
        double bHi = Arrays.stream(b).max().orElseThrow();
        return aLo > bHi ? CONFIRMED : aHi < bLo ? REFUTED : WITHIN_NOISE;
    }
}
