package dev.statvar.jcstress;

import dev.statvar.GaugeValue;
import dev.statvar.HistogramValue;

/**
 * Result encodings and outcome patterns shared by the tests (not a test).
 *
 * <h2>Min/max code</h2>
 * An interval's min and max as one result field, for tests whose values are {@code low} and
 * {@code high} ({@code low == high} for tests of one value): 0 none (min and max 0); 1
 * {@code (low, low)}; 2 {@code (low, high)}; 3 {@code (high, high)}; 9 anything else (a value
 * that was never reported, or min above max). Negated when {@code isMinMaxExact()} is false.
 */
final class Codes {
    /** Any long result field. */
    static final String F = "-?[0-9]+";

    // ---- one value (42) racing two intervals; fields c1, s1, c2, s2, m1, m2, phase (Race)

    /** Wholly in interval 1: its count, sum and min/max, exact; nothing of it in interval 2. */
    static final String ONE_IN_1 = "1, 42, 0, 0, 1, 0, [01]";
    /** Wholly in interval 2. */
    static final String ONE_IN_2 = "0, 0, 1, 42, 0, 1, [12]";
    /**
     * The documented races of a value that raced the switch (phase 1): its sum already in interval 1
     * while its count is in 2; its min/max also widening the other interval; min/max marked
     * inexact. Always: counted once, and the interval that counts it has min/max 42.
     */
    static final String ONE_RACES = "(0, 42, 1, 0, -?[01], -?1|1, 42, 0, 0, -?1, -?[01]|0, 0, 1, 42, -?[01], -?1), 1";
    static final String ONE_RACES_DESC = "documented race (phase 1): the sum of interval 1 already holds the value counted in "
            + "interval 2, and/or the value also widens the other interval's min/max, and/or isMinMaxExact() false; "
            + "counted once, the counting interval's min/max is 42";
    static final String ONE_LOST = "0, 0, 0, 0, .*";
    static final String ONE_DOUBLED = "1, 42, 1, 42, .*";
    /** Counted in interval 1, its value only in interval 2's sum. */
    static final String ONE_SUM_LAGS = "1, 0, 0, 42, .*";
    /** The interval counting the value has no min/max, or one that is not 42. */
    static final String ONE_NO_MINMAX = "(1, " + F + ", 0, " + F + ", [09], .*|0, " + F + ", 1, " + F + ", " + F + ", [09], .*)";
    static final String ONE_NO_MINMAX_DESC = "the interval that counts the value has no min/max 42 (the old contract's "
            + "'a racing value may be missing from the interval that counts it': forbidden now)";
    static final String ONE_UNRACED = "(0, " + F + ", 1, " + F + ", " + F + ", " + F + ", 0|1, " + F + ", 0, " + F + ", " + F + ", " + F
            + ", 2|0, 42, 1, 0, .*, [02]|" + F + ", " + F + ", " + F + ", " + F + ", -?[1-9], -?[1-9], [02])";
    static final String ONE_UNRACED_DESC = "the value did not race collect() (phase 0: done before it began; 2: began after it "
            + "returned), yet some of it is in the other interval";

    private Codes() {
    }

    /** The min/max code (see the class comment). */
    static long minMax(long min, long max, boolean exact, long low, long high) {
        long code;
        if (min == 0 && max == 0) {
            code = 0;
        } else if (min == low && max == low) {
            code = 1;
        } else if (min == low && max == high) {
            code = 2;
        } else if (min == high && max == high) {
            code = 3;
        } else {
            code = 9;
        }
        return exact ? code : -code;
    }

    static long minMax(GaugeValue g, long low, long high) {
        return minMax(g.min(), g.max(), g.isMinMaxExact(), low, high);
    }

    static long minMax(HistogramValue h, long low, long high) {
        return minMax(h.min(), h.max(), h.isMinMaxExact(), low, high);
    }
}
