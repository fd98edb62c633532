package dev.statvar.lab.spin;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The article's barrier (Java Grande LUFact's, simplified as Cliff Click's "A Pair of (somebody else's) Concurrency Bugs" shows it): thread 0 waits until
 * every other thread has set its flag, then sets its own; the others set theirs and wait for
 * thread 0's. The flags are a {@code boolean[]} reversing sense every episode (odd episodes wait
 * for {@code true}, even ones for {@code false}), so the barrier can be used again without a reset.
 * Subclasses differ only in how a flag is set and waited for.
 */
abstract class FlagBarrier implements BarrierDesign.Barrier {
    final int parties;

    FlagBarrier(int parties) {
        this.parties = parties;
    }

    @Override
    public final void await(int tid, long episode) {
        boolean sense = (episode & 1) != 0;
        if (tid != 0) {
            set(tid, sense);
            waitFor(0, sense);
        } else {
            for (int i = 1; i < parties; i++) {
                waitFor(i, sense);
            }
            set(0, sense);
        }
    }

    abstract void set(int i, boolean sense);

    abstract void waitFor(int i, boolean sense);

    /**
     * Plain stores and plain loads, the array held in a local: nothing in the loop tells the JIT
     * that another thread writes the element, so it may load it once before the loop (the hang).
     */
    static final class PlainLocal extends FlagBarrier {
        private final boolean[] flags;

        PlainLocal(int parties) {
            super(parties);
            flags = new boolean[parties];
        }

        @Override
        void set(int i, boolean sense) {
            flags[i] = sense; // plain store: no happens-before with the reader (the article's bug)
        }

        @Override
        void waitFor(int i, boolean sense) {
            boolean[] f = flags;
            while (f[i] != sense) { // plain load of an element: loop-invariant to the JIT
            }
        }
    }

    /**
     * LUFact as written: {@code volatile boolean[] barrier}, so every iteration re-reads the array
     * reference (a volatile load: nothing after it may move before it), then the element (plain).
     * The element itself is not volatile; it works on HotSpot because the volatile load of the
     * field keeps the element load in the loop, not because the JMM promises it.
     */
    static final class VolatileField extends FlagBarrier {
        private volatile boolean[] flags;

        VolatileField(int parties) {
            super(parties);
            flags = new boolean[parties];
        }

        @Override
        void set(int i, boolean sense) {
            flags[i] = sense; // volatile load of the field, plain store of the element
        }

        @Override
        void waitFor(int i, boolean sense) {
            while (flags[i] != sense) { // volatile load of the field each iteration, then a plain element load
            }
        }
    }

    /** VarHandle flags: {@code setRelease}, waited for with {@code getAcquire} (pairs with it) and a wait policy. */
    static final class Acquire extends FlagBarrier {
        static final int SPIN = 0;
        static final int ON_SPIN_WAIT = 1;
        static final int YIELD = 2;
        static final int BACKOFF = 3;
        /** BACKOFF: spins (with onSpinWait) before yielding, yields before parking, and the longest park. */
        static final int BACKOFF_SPINS = 100;
        static final int BACKOFF_YIELDS = 10;
        static final long BACKOFF_MAX_PARK_NS = 1_000_000;
        private static final VarHandle FLAG = MethodHandles.arrayElementVarHandle(boolean[].class);

        private final boolean[] flags;
        private final int policy;

        Acquire(int parties, int policy) {
            super(parties);
            this.flags = new boolean[parties];
            this.policy = policy;
        }

        @Override
        void set(int i, boolean sense) {
            FLAG.setRelease(flags, i, sense); // pairs with getAcquire in waitFor
        }

        @Override
        void waitFor(int i, boolean sense) {
            int n = 0;
            long park = 1_000;
            while ((boolean) FLAG.getAcquire(flags, i) != sense) { // pairs with setRelease in set
                switch (policy) {
                    case ON_SPIN_WAIT -> Thread.onSpinWait();
                    case YIELD -> Thread.yield(); // measured here, as LUFact uses it; never in statvar itself
                    case BACKOFF -> {
                        if (n < BACKOFF_SPINS) {
                            Thread.onSpinWait();
                        } else if (n < BACKOFF_SPINS + BACKOFF_YIELDS) {
                            Thread.yield();
                        } else {
                            LockSupport.parkNanos(this, park);
                            park = Math.min(2 * park, BACKOFF_MAX_PARK_NS);
                        }
                        n++;
                    }
                    default -> { }
                }
            }
        }
    }
}
