package dev.statvar.internal;

import java.util.Arrays;

/**
 * Collector-side bucket counts over a growing range of bucket indices {@code lo .. lo + length}.
 * Confined to the collector ({@link IntervalCloser}, under the engine's collect lock).
 */
final class BucketCounts {
    private int lo;
    private long[] v = new long[0];

    int lo() {
        return lo;
    }

    /** One past the last index held; {@code lo() == hi()} when nothing is held. */
    int hi() {
        return lo + v.length;
    }

    boolean isEmpty() {
        return v.length == 0;
    }

    long get(int index) {
        int i = index - lo;
        return i < 0 || i >= v.length ? 0 : v[i];
    }

    void add(int index, long n) {
        ensure(index, index + 1);
        v[index - lo] += n;
    }

    void set(int index, long n) {
        ensure(index, index + 1);
        v[index - lo] = n;
    }

    /** The counts of {@code lo() .. hi()}, copied. */
    long[] copy() {
        return v.clone();
    }

    /** Zeroes every count, keeping the range. */
    void clear() {
        Arrays.fill(v, 0);
    }

    /** Makes the range cover {@code from .. to}. */
    void ensure(int from, int to) {
        if (v.length == 0) {
            lo = from;
            v = new long[to - from];
            return;
        }
        int nlo = Math.min(lo, from);
        int nhi = Math.max(hi(), to);
        if (nlo == lo && nhi == hi()) {
            return;
        }
        long[] n = new long[nhi - nlo];
        System.arraycopy(v, 0, n, lo - nlo, v.length);
        lo = nlo;
        v = n;
    }
}
