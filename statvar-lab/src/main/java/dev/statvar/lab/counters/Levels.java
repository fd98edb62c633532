package dev.statvar.lab.counters;

import java.util.Arrays;

/**
 * Two levels in one cell: on this VM a contended cell's runs sometimes split into two clusters
 * (e.g. one run at 135 ns and four at 243 .. 283), and an average or median across them
 * describes neither. Sorted, the runs are cut at their largest gap; the cell has two levels when
 * that gap
 * <ul>
 *   <li>is at least {@link #GAP_OVER_RANGE} x the wider cluster's own range (clusters, not a
 *       spread-out row),</li>
 *   <li>is wider than the noise's whole range in the same cell ({@code minGap}: the empty
 *       implementation's paired min .. max), so that noise alone could not open it, and</li>
 *   <li>is at least {@link #MIN_RELATIVE} of the higher level (1.39 against 1.52 ns is one level).</li>
 * </ul>
 * At least {@link #MIN_RUNS} runs are needed: of three runs, one far from the other two is an
 * outlier as much as a level ({@code --quick} makes three), and its median is still reported.
 * Each level is reported by its median and its run count.
 */
record Levels(double low, int lowRuns, double high, int highRuns) {
    static final double GAP_OVER_RANGE = 2.0;
    static final double MIN_RELATIVE = 0.2;
    static final int MIN_RUNS = 4;

    /** The two levels of {@code values}, or null when they form one. */
    static Levels of(double[] values, double minGap) {
        if (values.length < MIN_RUNS) {
            return null;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int cut = 0; // the low cluster is v[0 .. cut]
        for (int i = 1; i < v.length - 1; i++) {
            if (v[i + 1] - v[i] > v[cut + 1] - v[cut]) {
                cut = i;
            }
        }
        double gap = v[cut + 1] - v[cut];
        double[] low = Arrays.copyOfRange(v, 0, cut + 1);
        double[] high = Arrays.copyOfRange(v, cut + 1, v.length);
        double widest = Math.max(low[low.length - 1] - low[0], high[high.length - 1] - high[0]);
        double lowLevel = Paired.quantile(low, 0.5);
        double highLevel = Paired.quantile(high, 0.5);
        if (gap < GAP_OVER_RANGE * widest || !(gap > minGap) || highLevel - lowLevel < MIN_RELATIVE * Math.abs(highLevel)) {
            return null;
        }
        return new Levels(lowLevel, low.length, highLevel, high.length);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%.2f (%d run%s) / %.2f (%d run%s)", low, lowRuns, lowRuns == 1 ? "" : "s",
                high, highRuns, highRuns == 1 ? "" : "s");
    }
}
