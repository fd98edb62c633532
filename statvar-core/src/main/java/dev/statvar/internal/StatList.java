package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * The registered stats in registration order: appended under {@code Engine.lock}, read by
 * anyone without a lock (a scrape asking what is registered never waits for a collect).
 *
 * <p>Publication: {@link #add} stores the element, then the count (volatile); a reader reads the
 * count (volatile; pairing STATS), then the array (volatile): every element below the
 * count is visible, and a replaced array holds copies of them all. An element replaced later
 * ({@link #set}: removal, reuse of a slot) is written with release into the current array and
 * read with acquire (pairing SLOT); a reader of a just-replaced array may still see the previous
 * element, as if it had read before the replacement.
 */
final class StatList {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Stat[].class);

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

    /**
     * Replaces stat {@code i < size()} (a removed stat's tombstone, or a new stat in a reclaimed
     * slot); the caller holds {@code Engine.lock}. Release: pairing SLOT, with {@link #get}.
     */
    void set(int i, Stat s) {
        SLOTS.setRelease(array, i, s);
    }

    /** Stat {@code i}, for {@code i < size()} as read before; any thread. Acquire: pairing SLOT, with {@link #set}. */
    Stat get(int i) {
        return (Stat) SLOTS.getAcquire(array, i);
    }

    /** The first {@code n} stats, copied; {@code n <= size()} as read before. */
    Stat[] first(int n) {
        Stat[] a = new Stat[n];
        for (int i = 0; i < n; i++) {
            a[i] = get(i);
        }
        return a;
    }
}
