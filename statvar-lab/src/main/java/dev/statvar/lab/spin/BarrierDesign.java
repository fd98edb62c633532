package dev.statvar.lab.spin;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Phaser;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * The barrier designs the spin study compares, each a factory of {@link Barrier}s for a number
 * of parties. The first six are the barrier of Cliff
 * Click's "A Pair of (somebody else's) Concurrency Bugs" (thread 0 waits for every other thread's
 * flag, then sets its own; the others wait for thread 0's), a sense-reversing {@code boolean[]}
 * so that it can be used episode after episode, with six ways of waiting for a flag; the last
 * three are the JDK's.
 */
enum BarrierDesign {
    PLAIN_LOCAL("plain loads, the array in a local (LUFact as the JIT may compile it: the load can be hoisted)",
            FlagBarrier.PlainLocal::new),
    VOLATILE_FIELD("plain element loads, the array re-read through a volatile field every iteration (LUFact's code)",
            FlagBarrier.VolatileField::new),
    ACQUIRE("VarHandle getAcquire spin, setRelease flags", n -> new FlagBarrier.Acquire(n, FlagBarrier.Acquire.SPIN)),
    ON_SPIN_WAIT("getAcquire spin with Thread.onSpinWait() (x86 PAUSE)", n -> new FlagBarrier.Acquire(n, FlagBarrier.Acquire.ON_SPIN_WAIT)),
    YIELD("getAcquire spin with Thread.yield() (LUFact's remedy)", n -> new FlagBarrier.Acquire(n, FlagBarrier.Acquire.YIELD)),
    BACKOFF("getAcquire: 100 onSpinWait, then 10 yields, then parkNanos 1 us doubling to 1 ms",
            n -> new FlagBarrier.Acquire(n, FlagBarrier.Acquire.BACKOFF)),
    PARK("LockSupport: the last to arrive unparks the others, who park until released", ParkBarrier::new),
    CYCLIC_BARRIER("java.util.concurrent.CyclicBarrier (a lock and a condition)", JdkBarrier::cyclic),
    PHASER("java.util.concurrent.Phaser.arriveAndAwaitAdvance (spins a little, then blocks)", JdkBarrier::phaser);

    final String description;
    private final IntFunction<Barrier> factory;

    BarrierDesign(String description, IntFunction<Barrier> factory) {
        this.description = description;
        this.factory = factory;
    }

    /** A barrier for {@code parties} threads numbered 0 .. parties - 1. */
    Barrier create(int parties) {
        return factory.apply(parties);
    }

    /** Whether its waiting threads only ever spin (never give the CPU up on their own). */
    boolean spinsOnly() {
        return this == PLAIN_LOCAL || this == VOLATILE_FIELD || this == ACQUIRE || this == ON_SPIN_WAIT;
    }

    /**
     * A reusable barrier. Thread {@code tid} calls {@link #await} with episodes 1, 2, 3, ...; it
     * returns once every party has called it for that episode, and everything a party did before
     * its call happens-before every party's return (for the JMM-correct designs; PLAIN_LOCAL and
     * VOLATILE_FIELD give no such guarantee: that is the article's point).
     */
    interface Barrier {
        /** Registers the thread that will call with {@code tid} (for designs that unpark). */
        default void register(int tid, Thread t) {
        }

        void await(int tid, long episode) throws InterruptedException;
    }

    /** The JDK's barriers. */
    static final class JdkBarrier {
        private JdkBarrier() {
        }

        static Barrier cyclic(int parties) {
            CyclicBarrier b = new CyclicBarrier(parties);
            return (tid, episode) -> {
                try {
                    b.await();
                } catch (BrokenBarrierException e) {
                    throw new IllegalStateException("barrier broken", e);
                }
            };
        }

        static Barrier phaser(int parties) {
            Phaser p = new Phaser(parties);
            return (tid, episode) -> p.arriveAndAwaitAdvance();
        }
    }

    /**
     * Park/unpark: parties count themselves in ({@code getAndIncrement} on an AtomicInteger); the
     * last resets the count, publishes the episode ({@code setRelease} on {@code released}) and
     * unparks the others, who park until they read it ({@code getAcquire}, pairs with that
     * setRelease). An unpark that comes before the park makes the park return at once.
     */
    static final class ParkBarrier implements Barrier {
        private final int parties;
        private final Thread[] threads;
        private final AtomicInteger arrived = new AtomicInteger();
        private volatile long released;

        ParkBarrier(int parties) {
            this.parties = parties;
            this.threads = new Thread[parties];
        }

        @Override
        public void register(int tid, Thread t) {
            threads[tid] = t;
        }

        @Override
        public void await(int tid, long episode) {
            if (arrived.incrementAndGet() == parties) {
                arrived.set(0); // next episode's arrivals come after they read 'released' below
                released = episode; // volatile store; pairs with the volatile load in the loop below
                for (int i = 0; i < parties; i++) {
                    if (i != tid) {
                        LockSupport.unpark(threads[i]);
                    }
                }
            } else {
                while (released < episode) { // volatile load; pairs with the store above
                    LockSupport.park(this);
                }
            }
        }
    }
}
