package dev.statvar.export;

import dev.statvar.BucketBoundaries;
import dev.statvar.HistogramPrecision;

import java.util.Arrays;

/**
 * What the exposition shows: of histograms, the classic-histogram boundaries ({@code le}) and the
 * quantiles of the last interval; which stats are exposed in seconds; whether OpenMetrics carries
 * {@code _created} series. Immutable.
 *
 * @param histogramBoundaries requested {@code le} boundaries, increasing, each {@code >= 0}; each is
 *                            exposed as the upper bound of the log-linear bucket holding it, so
 *                            its cumulative count is exact (e.g. 1000 becomes {@code le="1007.0"}
 *                            at the default precision)
 * @param quantiles           quantiles of the last interval, each in (0, 1]
 * @param nanosAsSeconds      names of stats that record nanoseconds and are exposed in seconds, Prometheus's
 *                            base unit: as {@code NAME_seconds} (a counter: {@code NAME_seconds_total}),
 *                            every value divided by 10^9 exactly (decimal); JSON and logs keep nanoseconds
 * @param createdSeries       whether OpenMetrics carries a {@code NAME_created} series per counter, gauge
 *                            and histogram (when it was registered); off by default, as in Prometheus'
 *                            client_java: each is one more series in Prometheus unless its created-timestamp
 *                            ingestion is on
 */
public record ExportOptions(long[] histogramBoundaries, double[] quantiles, java.util.Set<String> nanosAsSeconds,
                            boolean createdSeries) {
    /** Most boundaries a histogram may expose ({@link BucketBoundaries#MAX}): each is a series per labelled histogram. */
    public static final int MAX_BOUNDARIES = BucketBoundaries.MAX;

    /** Private: a public array could be changed by anyone, and with it everybody's defaults. */
    private static final long[] DEFAULT_BOUNDARIES = BucketBoundaries.defaults().requested();
    private static final double[] DEFAULT_QUANTILES = {0.5, 0.9, 0.99, 0.999};

    /**
     * The default boundaries ({@link BucketBoundaries#defaults()}): 1, 2, 5, 10, 20, 50, ... 10^10, 31 of
     * them, e.g. nanoseconds up to 10 s or bytes up to 10 GB.
     *
     * @return a new array of them
     */
    public static long[] defaultBoundaries() {
        return DEFAULT_BOUNDARIES.clone();
    }

    /**
     * The default quantiles: p50, p90, p99, p99.9.
     *
     * @return a new array of them
     */
    public static double[] defaultQuantiles() {
        return DEFAULT_QUANTILES.clone();
    }

    /**
     * Options with copies of these boundaries, quantiles and names (the arguments are not kept).
     *
     * @param histogramBoundaries requested {@code le} boundaries, increasing, each {@code >= 0}
     * @param quantiles           quantiles of the last interval, each in (0, 1], none twice
     * @param nanosAsSeconds      names of stats that record nanoseconds and are exposed in seconds
     * @param createdSeries       whether OpenMetrics carries {@code _created} series
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if a boundary is negative, they are not increasing or more than
     *                                  {@link #MAX_BOUNDARIES}, a quantile is outside (0, 1] or given twice, or a
     *                                  name in {@code nanosAsSeconds} is null or not a valid stat name
     */
    public ExportOptions {
        histogramBoundaries = BucketBoundaries.of(histogramBoundaries).requested(); // a validated copy
        quantiles = quantiles.clone();
        for (String n : nanosAsSeconds) { // a name no stat can have would silently do nothing
            if (n == null || !n.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
                throw new IllegalArgumentException("nanosAsSeconds: " + (n == null ? "a stat name is null"
                        : "invalid stat name '" + n + "'; names must match [a-zA-Z_:][a-zA-Z0-9_:]*"));
            }
        }
        nanosAsSeconds = java.util.Set.copyOf(nanosAsSeconds);
        for (int i = 0; i < quantiles.length; i++) {
            double q = quantiles[i];
            if (!(q > 0 && q <= 1)) {
                throw new IllegalArgumentException("quantiles must be in (0, 1], was " + q);
            }
            for (int j = 0; j < i; j++) {
                if (quantiles[j] == q) { // else the exposition would repeat a series (and JSON a key)
                    throw new IllegalArgumentException("quantile " + q + " is given twice: " + Arrays.toString(quantiles));
                }
            }
        }
    }

    /**
     * Options without {@code _created} series ({@link #createdSeries()} false).
     *
     * @param histogramBoundaries requested {@code le} boundaries, increasing, each {@code >= 0}
     * @param quantiles           quantiles of the last interval, each in (0, 1], none twice
     * @param nanosAsSeconds      names of stats that record nanoseconds and are exposed in seconds
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException as the canonical constructor
     */
    public ExportOptions(long[] histogramBoundaries, double[] quantiles, java.util.Set<String> nanosAsSeconds) {
        this(histogramBoundaries, quantiles, nanosAsSeconds, false);
    }

    /**
     * The defaults: {@link #defaultBoundaries()} and {@link #defaultQuantiles()}, every stat in its own
     * unit, no {@code _created} series.
     *
     * @return new options with the defaults
     */
    public static ExportOptions defaults() {
        return new ExportOptions(DEFAULT_BOUNDARIES, DEFAULT_QUANTILES, java.util.Set.of(), false);
    }

    /**
     * These options with or without OpenMetrics' {@code NAME_created} series (when each series was
     * registered, in seconds since the epoch). Turn them on only where Prometheus ingests created
     * timestamps; otherwise each is one more series to store.
     *
     * @param on whether to expose them
     * @return new options; these are unchanged
     */
    public ExportOptions withCreatedSeries(boolean on) {
        return new ExportOptions(histogramBoundaries, quantiles, nanosAsSeconds, on);
    }

    /**
     * These options with other boundaries.
     *
     * @param boundaries requested {@code le} boundaries, as for {@link #histogramBoundaries()}
     * @return new options; these are unchanged
     * @throws IllegalArgumentException if a boundary is negative, they are not increasing or more than
     *                                  {@link #MAX_BOUNDARIES}
     */
    public ExportOptions withBoundaries(long... boundaries) {
        return new ExportOptions(boundaries, quantiles, nanosAsSeconds, createdSeries);
    }

    /**
     * These options with other quantiles.
     *
     * @param q quantiles of the last interval, each in (0, 1], none twice
     * @return new options; these are unchanged
     * @throws IllegalArgumentException if a quantile is outside (0, 1] or given twice
     */
    public ExportOptions withQuantiles(double... q) {
        return new ExportOptions(histogramBoundaries, q, nanosAsSeconds, createdSeries);
    }

    /**
     * These options with {@code statNames} exposed in seconds: e.g. a histogram
     * {@code request_duration} of {@code System.nanoTime()} differences becomes
     * {@code request_duration_seconds}, as Prometheus's conventions (and promtool) want.
     *
     * @param statNames names of stats that record nanoseconds, added to {@link #nanosAsSeconds()}
     * @return new options; these are unchanged
     * @throws IllegalArgumentException if a name is null or not a valid stat name
     */
    public ExportOptions withNanosecondsAsSeconds(String... statNames) {
        java.util.Set<String> s = new java.util.HashSet<>(nanosAsSeconds);
        s.addAll(Arrays.asList(statNames)); // a null name is rejected, with its reason, by the constructor
        return new ExportOptions(histogramBoundaries, quantiles, s, createdSeries);
    }

    /**
     * The requested {@code le} boundaries.
     *
     * @return a copy of the boundaries, increasing
     */
    @Override
    public long[] histogramBoundaries() {
        return histogramBoundaries.clone();
    }

    /**
     * The {@code le} boundaries a histogram of {@code precision} is exposed with:
     * {@link BucketBoundaries#at} of {@link #histogramBoundaries()}, each requested boundary moved up to
     * the upper bound of the bucket that holds it, so the count at or below each is exact. The
     * Prometheus exposition and statvar-prometheus use these; statvar-otel uses {@link BucketBoundaries}.
     *
     * @param precision the histogram's precision
     * @return a new array of the boundaries, increasing, each the upper bound of a bucket
     * @throws IllegalArgumentException if {@code precision} is null
     */
    public long[] boundariesAt(HistogramPrecision precision) {
        return BucketBoundaries.of(histogramBoundaries).at(precision);
    }

    /**
     * The quantiles of the last interval.
     *
     * @return a copy of the quantiles, in the order given
     */
    @Override
    public double[] quantiles() {
        return quantiles.clone();
    }

    /**
     * 1, 2, 5 times each power of ten from {@code from} up to and including {@code to}, e.g. for
     * {@link #withBoundaries(long...)}.
     *
     * @param from the smallest value wanted
     * @param to   the largest value wanted
     * @return the values in {@code [from, to]}, increasing; empty when there are none
     */
    public static long[] oneTwoFive(long from, long to) {
        return BucketBoundaries.oneTwoFive(from, to);
    }

    /**
     * Whether {@code o} is options with the same boundaries, the same quantiles in the same order
     * (compared element by element, not as arrays), the same names and the same {@code _created} choice.
     *
     * @param o the object to compare with
     * @return true if {@code o} shows histograms and units as these options do
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof ExportOptions e && Arrays.equals(histogramBoundaries, e.histogramBoundaries)
                && Arrays.equals(quantiles, e.quantiles) && nanosAsSeconds.equals(e.nanosAsSeconds)
                && createdSeries == e.createdSeries;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(histogramBoundaries) + Arrays.hashCode(quantiles))
                + nanosAsSeconds.hashCode()) + Boolean.hashCode(createdSeries);
    }

    @Override
    public String toString() {
        return "ExportOptions[boundaries=" + Arrays.toString(histogramBoundaries) + ", quantiles="
                + Arrays.toString(quantiles) + ", nanosAsSeconds=" + nanosAsSeconds + ", createdSeries=" + createdSeries + "]";
    }
}
