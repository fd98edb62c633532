package dev.statvar.lab.counters;

import java.util.Arrays;

/**
 * The paired differences of a cell: each measured run's time per op minus that of the base run
 * made right before it in the same JVM, summarised without trimming: the median, the quartiles
 * {@code q1 .. q3} (linear interpolation between order statistics, as R's type 7 and numpy's
 * default) and {@code min .. max}. Pairing cancels what drifts between runs (the JIT's code of
 * the delay loop, the host's load) as long as it drifts slower than one pair.
 */
record Paired(double median, double q1, double q3, double min, double max, int n) {

    static Paired of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no paired runs");
        }
        double[] v = values.clone();
        Arrays.sort(v);
        return new Paired(quantile(v, 0.5), quantile(v, 0.25), quantile(v, 0.75), v[0], v[v.length - 1], v.length);
    }

    /** The {@code p}-quantile of sorted values. */
    static double quantile(double[] sorted, double p) {
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /** The largest distance of a single run from zero: for a base that costs nothing, the noise floor. */
    double largestDeviation() {
        return Math.max(Math.abs(min), Math.abs(max));
    }

    double range() {
        return max - min;
    }
}
