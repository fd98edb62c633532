package dev.statvar.lab.throughput;

import java.util.Arrays;
import java.util.List;

/**
 * What a {@link Timeline} says about a run: from which second it is steady, the spread of its
 * steady seconds, and whether they sit at two levels (Cliff Click, "A Pair of (somebody else's) Concurrency Bugs": "Performance stabilizes at N
 * ops/sec ... and the system gets stable again ... but with a radically different performance
 * level").
 *
 * <p><b>First steady second</b>: the first full second {@code s} such that it and the
 * {@link #PLATEAU} - 1 seconds after it are each <i>JIT-quiet</i> (at most
 * {@link #QUIET_SHARE} of the busiest second's compilations, or {@link #QUIET_FLOOR}, whichever
 * is more) and their rates are all within {@link #BAND} of the median of those
 * {@link #PLATEAU}. Compilations never stop altogether while JFR and the sampler run (their own
 * code is compiled too, a few to a few tens a second, now and then an OSR compilation of a
 * parser loop), hence a share of the peak rather than zero, and OSR compilations counted like
 * the others: a workload's own loops are compiled in the busy first seconds (the study lists
 * them with their second). The steady seconds are {@code s} to the last full second; without such an {@code s} the
 * run has no steady second and the report says so.
 *
 * <p><b>Bimodal</b>: sort the steady rates and split them at the largest ratio between two
 * neighbours; the timeline is bimodal when each side holds at least {@link #MIN_SHARE} of the
 * steady seconds (and at least 2) and the upper side's median is at least {@link #LEVEL_RATIO}
 * times the lower side's. One outlier second is not a level; a steady run with ordinary noise has
 * no gap that large.
 */
public final class Steadiness {
    /** Consecutive quiet, level seconds that start the steady part. */
    public static final int PLATEAU = 3;
    /** A plateau's rates lie within this fraction of its median. */
    public static final double BAND = 0.20;
    /** A JIT-quiet second has at most this share of the busiest second's compilations... */
    public static final double QUIET_SHARE = 0.20;
    /** ... or at most this many, whichever is more. */
    public static final int QUIET_FLOOR = 5;
    /** Each level of a bimodal timeline holds at least this share of the steady seconds. */
    public static final double MIN_SHARE = 0.20;
    /** The levels' medians differ at least this much. */
    public static final double LEVEL_RATIO = 1.5;

    private Steadiness() {
    }

    /**
     * The verdict on one timeline.
     *
     * @param firstSteady the first steady second, or -1
     * @param steady      the steady seconds' count
     * @param median      their median rate (NaN without steady seconds)
     * @param min         their lowest rate
     * @param max         their highest rate
     * @param levels      the two levels, or null when not bimodal
     */
    public record Verdict(int firstSteady, int steady, double median, double min, double max, Levels levels) {
        public boolean bimodal() {
            return levels != null;
        }
    }

    /** Two levels: each side's median and how many seconds it has. */
    public record Levels(double lowMedian, int low, double highMedian, int high) {
        public double ratio() {
            return highMedian / lowMedian;
        }
    }

    /** The verdict on the full (not partial) seconds of a timeline. */
    public static Verdict of(List<TimelineSecond> seconds) {
        List<TimelineSecond> full = seconds.stream().filter(s -> !s.partial()).toList();
        double[] rate = full.stream().mapToDouble(TimelineSecond::rate).toArray();
        int[] comp = full.stream().mapToInt(TimelineSecond::compilations).toArray();
        return of(rate, comp);
    }

    /** The verdict on rates and compilations a second (index = second). */
    public static Verdict of(double[] rate, int[] compilations) {
        int s = firstSteady(rate, compilations);
        if (s < 0) {
            return new Verdict(-1, 0, Double.NaN, Double.NaN, Double.NaN, null);
        }
        double[] steady = Arrays.copyOfRange(rate, s, rate.length);
        double[] sorted = steady.clone();
        Arrays.sort(sorted);
        return new Verdict(s, steady.length, median(sorted), sorted[0], sorted[sorted.length - 1], levels(steady));
    }

    /** The first steady second (see the class comment), or -1. */
    public static int firstSteady(double[] rate, int[] compilations) {
        int peak = Arrays.stream(compilations).max().orElse(0);
        double quiet = Math.max(QUIET_FLOOR, QUIET_SHARE * peak);
        for (int s = 0; s + PLATEAU <= rate.length; s++) {
            boolean ok = true;
            for (int i = s; i < s + PLATEAU && ok; i++) {
                ok = compilations[i] <= quiet;
            }
            if (!ok) {
                continue;
            }
            double[] p = Arrays.copyOfRange(rate, s, s + PLATEAU);
            Arrays.sort(p);
            double m = median(p);
            if (m > 0 && p[0] >= (1 - BAND) * m && p[p.length - 1] <= (1 + BAND) * m) {
                return s;
            }
        }
        return -1;
    }

    /** The two levels of {@code steady} rates (see the class comment), or null. */
    public static Levels levels(double[] steady) {
        double[] v = steady.clone();
        Arrays.sort(v);
        int n = v.length;
        int split = -1; // the upper side starts here
        double widest = 1;
        for (int i = 1; i < n; i++) {
            if (v[i - 1] > 0 && v[i] / v[i - 1] > widest) {
                widest = v[i] / v[i - 1];
                split = i;
            }
        }
        if (split < 0) {
            return null;
        }
        int low = split;
        int high = n - split;
        int least = Math.max(2, (int) Math.ceil(MIN_SHARE * n));
        if (low < least || high < least) {
            return null;
        }
        double lm = median(Arrays.copyOfRange(v, 0, split));
        double hm = median(Arrays.copyOfRange(v, split, n));
        return hm >= LEVEL_RATIO * lm ? new Levels(lm, low, hm, high) : null;
    }

    /** The median of sorted values. */
    public static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
