package dev.statvar.internal;

import java.util.Arrays;

/**
 * The registered stats in registration order: appended under {@code Engine.lock}, read by
 * anyone without a lock (a scrape asking what is registered never waits for a collect).
 *
 * <p>Publication: {@link #add} stores the element, then the count (volatile); a reader reads the
 * count (volatile; pairing STATS), then the array (volatile): every element below the
 * count is visible, and a replaced array holds copies of them all.
 */
final class StatList {
    private volatile Stat[] array = new Stat[16];
    private volatile int size;

    /** Appends; the caller holds {@code Engine.lock} (the only writer). */
    void add(Stat s) {
        int n = size;
        Stat[] a = array;
        if (n == a.length) {
            a = Arrays.copyOf(a, 2 * n);
            array = a; // volatile: a reader that sees the new count below also sees this array or a newer one
        }
        a[n] = s;
        size = n + 1; // volatile: publishes the element. Pairing STATS
    }

    /** Number of stats; any thread. */
    int size() {
        return size; // pairing STATS
    }

    /** Stat {@code i}, for {@code i < size()} as read before; any thread. */
    Stat get(int i) {
        return array[i];
    }

    /** The first {@code n} stats, copied; {@code n <= size()} as read before. */
    Stat[] first(int n) {
        return Arrays.copyOf(array, n);
    }
}
