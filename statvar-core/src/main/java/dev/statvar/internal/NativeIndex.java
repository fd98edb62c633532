package dev.statvar.internal;

import java.util.Arrays;

/**
 * Prometheus native-histogram bucket indices. At schema {@code s} (-4..8) bucket {@code i} holds the
 * values in {@code (base^(i-1), base^i]}, {@code base = 2^(2^-s)}; a bucket of schema {@code s - 1} is
 * buckets {@code 2j - 1} and {@code 2j} of schema {@code s}. The boundaries are client_golang's and
 * client_java's (same table, same rounding), so a value lands where their histograms put it.
 * Stateless; thread-safe.
 */
public final class NativeIndex {
    public static final int MIN_SCHEMA = -4;
    public static final int MAX_SCHEMA = 8;
    /** {@code BOUNDS[s - 1][k] = 2^(k / 2^s) / 2}: the boundaries of one power of two at schema s >= 1. */
    private static final double[][] BOUNDS = new double[MAX_SCHEMA][];

    static {
        for (int s = 1; s <= MAX_SCHEMA; s++) {
            double[] b = new double[1 << s];
            b[0] = 0.5;
            double base = Math.pow(2, Math.pow(2, -s));
            for (int k = 1; k < b.length; k++) {
                // an even k is a boundary of schema s - 1: take it from there (client_golang's precision trick)
                b[k] = k % 2 == 0 && s > 1 ? BOUNDS[s - 2][k / 2] : b[k - 1] * base;
            }
            BOUNDS[s - 1] = b;
        }
    }

    private NativeIndex() {
    }

    /**
     * The bucket of {@code x} at {@code schema}.
     *
     * @param x      a positive, finite, normal value
     * @param schema -4..8
     */
    public static int of(double x, int schema) {
        int exp = Math.getExponent(x) + 1; // x = frac * 2^exp, frac in [0.5, 1)
        double frac = Math.scalb(x, -exp);
        if (schema > 0) {
            double[] b = BOUNDS[schema - 1];
            int k = Arrays.binarySearch(b, frac);
            return (k >= 0 ? k : -k - 1) + (exp - 1) * b.length;
        }
        int i = frac == 0.5 ? exp - 1 : exp; // a power of two is the upper bound of its bucket
        return (i + (1 << -schema) - 1) >> -schema;
    }

    /** The bucket of schema {@code s - 1} that holds bucket {@code i} of schema {@code s}: ceil(i / 2), as client_java merges. */
    public static int halve(int i) {
        return (i > 0 ? i + 1 : i) / 2;
    }

    /** The upper bound of bucket {@code i} at {@code schema}: {@code 2^(i * 2^-schema)}. */
    public static double upperBound(int i, int schema) {
        return Math.pow(2, Math.scalb((double) i, -schema));
    }
}
