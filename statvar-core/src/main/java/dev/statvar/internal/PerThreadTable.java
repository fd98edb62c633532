package dev.statvar.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Array;

/**
 * The one per-thread table implementation, for tables of {@link PerThread} objects (the engine's
 * thread table of {@link Block}s, {@link ThreadTable}; each histogram's table of views,
 * {@link HistogramImpl}): making room, placing, freeing. The table's holder owns the table field,
 * publishes it and reads it on its update path; these methods run under the engine lock, except
 * {@link #release} (the collector, no lock).
 *
 * <pre>
 * Design
 * ------
 * The table maps (thread id &amp; (length - 1)) to that thread's object; the owner is compared by
 * reference, so a Thread subclass overriding getId() (JDK 17-18) can at worst collide, never
 * reach another thread's object. Hit: the table, the object, its fields (dependent loads from
 * the holder). The table field and the slots are written only under the engine lock
 * with setRelease and read on the update path with getAcquire (pairing TABLE); the
 * collector clears a dead thread's slot with a CAS, which fails if place() gave the slot to
 * another thread meanwhile.
 *
 * place() takes a free slot or one a terminated thread holds. When the slot is held by a live
 * thread and more than half of the slots hold live threads' objects (counted then, under the
 * lock: collisions are rare), makeRoom() doubles the table (to MAX); an object that still
 * collides stays out, and its thread takes the slow path (a Block through the thread's
 * ThreadLocal or the thread table's spilled map, a view through the thread's Block) and retries
 * placing it every INSTALL_RETRY_MASK + 1 such updates. A dead
 * thread's object copied by a grow racing the collector's release stays in the new table until
 * place() reuses the slot (it holds the dead Thread; at most one per slot).
 * </pre>
 */
final class PerThreadTable {
    static final int INITIAL = 16;
    static final int MAX = 1 << 16;
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(PerThread[].class);

    private PerThreadTable() {
    }

    /** Thread {@code t}'s slot in a table of {@code length} slots (a power of two). */
    static int slot(Thread t, int length) {
        return (int) Threads.id(t) & (length - 1);
    }

    /**
     * {@code tab}, or, if {@code x}'s slot is held by a live thread and more than half of the slots
     * are, a table of twice the length holding the live threads' objects, which the caller
     * publishes (setRelease; pairing TABLE). Engine lock held.
     */
    static <T extends PerThread> T[] makeRoom(T[] tab, T x) {
        PerThread cur = slotAt(tab, slot(x.owner, tab.length));
        if (cur == null || cur == x || !cur.owner.isAlive() || tab.length >= MAX || 2 * live(tab) <= tab.length) {
            return tab;
        }
        @SuppressWarnings("unchecked")
        T[] grown = (T[]) Array.newInstance(tab.getClass().getComponentType(), 2 * tab.length);
        for (int k = 0; k < tab.length; k++) {
            @SuppressWarnings("unchecked")
            T y = (T) slotAt(tab, k);
            if (y != null && y.owner.isAlive()) {
                grown[slot(y.owner, grown.length)] = y; // distinct old slots map to distinct new ones; published by the caller's setRelease
            }
        }
        return grown;
    }

    /** Puts {@code x} into its slot of {@code tab} if free or held by a terminated thread. Engine lock held. @return whether {@code x} is in {@code tab} */
    static boolean place(PerThread[] tab, PerThread x) {
        int i = slot(x.owner, tab.length);
        PerThread cur = slotAt(tab, i);
        if (cur == x) {
            return true;
        }
        if (cur != null && cur.owner.isAlive()) {
            return false;
        }
        SLOTS.setRelease(tab, i, x); // pairing TABLE
        return true;
    }

    private static int live(PerThread[] tab) {
        int n = 0;
        for (int k = 0; k < tab.length; k++) {
            PerThread y = slotAt(tab, k);
            if (y != null && y.owner.isAlive()) {
                n++;
            }
        }
        return n;
    }

    /**
     * Slot {@code i}, read under the engine lock. Acquire: besides place()'s writes (ordered by
     * the lock), the collector clears dead threads' slots without the lock (pairing TABLE,
     * with the compareAndSet in {@link #release}).
     */
    private static PerThread slotAt(PerThread[] tab, int i) {
        return (PerThread) SLOTS.getAcquire(tab, i);
    }

    /** Frees a terminated thread's slot in {@code tab} unless place() gave it to another thread meanwhile. Collector, no lock; pairing TABLE. */
    static void release(PerThread[] tab, PerThread x) {
        SLOTS.compareAndSet(tab, slot(x.owner, tab.length), x, null);
    }
}
