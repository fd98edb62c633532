package dev.statvar.lab.atomics;

import java.util.Arrays;

/**
 * Fairness of one run, from what each thread got: its share of the increments (Jain's index)
 * and the run lengths of consecutive counter values obtained by the same thread.
 *
 * <pre>
 * Sampling (the same in atomics.c)
 * --------
 * A thread that learns the value it set (every case but LOCK_ADD) stores it in a private int
 * array when the value lies in a sampled window: windows are WINDOW = 2^WINDOW_SHIFT
 * consecutive values, and one window in every 2^logK is sampled (logK >= 3, grown so that at
 * most 2^22 values are sampled: the arrays stay small whatever the count). The test costs a
 * shift, an and and a predictable branch per increment; the store, one increment in 2^logK.
 * After the run, each sampled value is given its owner thread; a run is a maximal sequence of
 * consecutive values with the same owner, cut at window edges (so runs longer than WINDOW
 * count as several). Mean run length = sampled values / runs: 1 means the cache line went to
 * another core after every increment; long runs mean a core kept it (exclusive) for that many.
 * </pre>
 */
final class Fairness {
    static final int WINDOW_SHIFT = 14;
    static final int WINDOW = 1 << WINDOW_SHIFT;
    /** At most this many sampled values per run. */
    static final long MAX_SAMPLED = 1L << 22;

    private Fairness() {
    }

    /** log2 of the spacing of sampled windows for a run to {@code count}. */
    static int logK(long count) {
        int logK = 3;
        while ((count >> (logK)) > MAX_SAMPLED) {
            logK++;
        }
        return logK;
    }

    /** Whether value {@code v} lies in a sampled window. */
    static boolean sampled(long v, int logK) {
        return ((v >>> WINDOW_SHIFT) & ((1L << logK) - 1)) == 0;
    }

    /** Capacity a thread's sample array needs for values up to {@code maxValue}. */
    static int capacity(long maxValue, int logK) {
        long windows = (maxValue >>> (WINDOW_SHIFT + logK)) + 1;
        return Math.toIntExact(windows << WINDOW_SHIFT);
    }

    /**
     * Jain's fairness index of the shares: (sum x)^2 / (n * sum x^2); 1 when equal, 1/n when
     * one thread did everything.
     */
    static double jain(long[] shares) {
        double s = 0;
        double sq = 0;
        for (long x : shares) {
            s += x;
            sq += (double) x * x;
        }
        return sq == 0 ? Double.NaN : s * s / (shares.length * sq);
    }

    /**
     * {sampled values, runs} of the samples {@code values[t][0 .. lengths[t])} of each thread
     * t (each ascending: a thread's values only grow). Throws if two threads got the same value.
     */
    static long[] runs(int[][] values, int[] lengths, int logK) {
        long max = 0;
        for (int t = 0; t < values.length; t++) {
            if (lengths[t] > 0) {
                max = Math.max(max, values[t][lengths[t] - 1]);
            }
        }
        short[] owner = new short[capacity(max, logK)];
        Arrays.fill(owner, (short) -1);
        long sampled = 0;
        for (int t = 0; t < values.length; t++) {
            for (int i = 0; i < lengths[t]; i++) {
                int idx = index(values[t][i], logK);
                if (owner[idx] != -1) {
                    throw new IllegalStateException("value " + values[t][i] + " obtained by threads " + owner[idx] + " and " + t);
                }
                owner[idx] = (short) t;
                sampled++;
            }
        }
        long runs = 0;
        int prev = -1;
        for (int i = 0; i < owner.length; i++) {
            int o = owner[i];
            if (o >= 0 && (o != prev || (i & (WINDOW - 1)) == 0)) {
                runs++;
            }
            prev = o;
        }
        return new long[]{sampled, runs};
    }

    /** Position of sampled value {@code v} in the compacted owner array. */
    private static int index(long v, int logK) {
        long window = v >>> (WINDOW_SHIFT + logK);
        return Math.toIntExact((window << WINDOW_SHIFT) | (v & (WINDOW - 1)));
    }
}
