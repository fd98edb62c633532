package dev.statvar.lab.signals;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How the critical thread wakes its partner: Jean-Philippe Bempel's {@code wait}/{@code notify} ("Notify... oh, wait! I have a signal.", 2015), its
 * {@code await}/{@code signal} twin, {@code LockSupport.park}/{@code unpark}, and a spin hand-off
 * (bounded {@code onSpinWait} spin, then park) for contrast.
 *
 * <p>What "the cost of the signal" covers: for {@code WAIT_NOTIFY} and {@code CONDITION} the call
 * and the release of the monitor or lock it must hold (HotSpot's {@code notify} and AQS's
 * {@code signal} only move the waiter to the lock's queue; the thread is woken when the lock is
 * released); for {@code PARK} the {@code unpark} call; for {@code SPIN} the volatile store, the
 * volatile read of the partner's parking flag and, when it had parked, the {@code unpark}.
 *
 * <p>A spurious wake-up of {@code SPIN} may be of its own making: when the signaller reads the
 * parking flag while the partner, about to park, re-reads {@code posted} and returns, its
 * {@code unpark} leaves a permit, and the partner's next park returns at once with nothing posted.
 * The other mechanisms never unpark a thread that is not waiting, so theirs are the JVM's or the OS's.
 */
enum Mechanism {
    WAIT_NOTIFY("Object.wait / notify (the article's)"),
    CONDITION("ReentrantLock Condition.await / signal"),
    PARK("LockSupport.park / unpark"),
    SPIN("onSpinWait spin for at most " + SpinChannel.SPIN_NS / 1000 + " us, then park / unpark");

    final String description;

    Mechanism(String description) {
        this.description = description;
    }

    Channel channel() {
        return switch (this) {
            case WAIT_NOTIFY -> new WaitNotifyChannel();
            case CONDITION -> new ConditionChannel();
            case PARK -> new ParkChannel();
            case SPIN -> new SpinChannel();
        };
    }

    /** wait/notify on a monitor: the partner's loop runs holding it, so once the signaller holds it the partner is in wait(). */
    private static final class WaitNotifyChannel extends Channel {
        private final Object lock = new Object();

        @Override
        long await(long i, long limitNs) throws InterruptedException {
            synchronized (lock) {
                return waitLoop(i, limitNs);
            }
        }

        @Override
        void block(long ns) throws InterruptedException {
            TimeUnit.NANOSECONDS.timedWait(lock, ns); // called holding lock
        }

        @Override
        long signal(long i) {
            long t0;
            synchronized (lock) {
                t0 = post(i, false);
                lock.notify();
            }
            return System.nanoTime() - t0;
        }
    }

    /** A ReentrantLock and its Condition, the same shape as wait/notify. */
    private static final class ConditionChannel extends Channel {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition signalled = lock.newCondition();

        @Override
        long await(long i, long limitNs) throws InterruptedException {
            lock.lock();
            try {
                return waitLoop(i, limitNs);
            } finally {
                lock.unlock();
            }
        }

        @Override
        void block(long ns) throws InterruptedException {
            signalled.awaitNanos(ns); // called holding lock
        }

        @Override
        long signal(long i) {
            long t0;
            lock.lock();
            try {
                t0 = post(i, false);
                signalled.signal();
            } finally {
                lock.unlock();
            }
            return System.nanoTime() - t0;
        }
    }

    /** park/unpark: the signaller waits until the partner is parked (its thread state), so that unpark wakes a blocked thread. */
    private static final class ParkChannel extends Channel {
        @Override
        long await(long i, long limitNs) throws InterruptedException {
            return waitLoop(i, limitNs);
        }

        @Override
        boolean partnerWaiting(long i) {
            Thread.State s = partner.getState();
            return super.partnerWaiting(i) && (s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING);
        }

        @Override
        void block(long ns) {
            LockSupport.parkNanos(this, ns);
        }

        @Override
        long signal(long i) {
            long t0 = post(i, false);
            LockSupport.unpark(partner);
            return System.nanoTime() - t0;
        }
    }

    /**
     * Spin hand-off: the partner spins with onSpinWait for at most {@link #SPIN_NS}, then parks.
     * {@code parking} and {@code posted} are a Dekker pair: the partner stores {@code parking}
     * (volatile) before re-reading {@code posted}, the signaller stores {@code posted} (volatile)
     * before reading {@code parking} (volatile), so at least one of them sees the other's store
     * and a parked partner is always unparked.
     */
    private static final class SpinChannel extends Channel {
        static final long SPIN_NS = 100_000;
        private static final VarHandle PARKING;

        static {
            try {
                PARKING = MethodHandles.lookup().findVarHandle(SpinChannel.class, "parking", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Written by the partner (setVolatile), read by the signaller (getVolatile). */
        @SuppressWarnings("unused") // through PARKING
        private boolean parking;

        @Override
        long await(long i, long limitNs) throws InterruptedException {
            announce(i);
            long end = System.nanoTime() + SPIN_NS;
            for (int n = 1; !posted(i); n++) {
                if ((n & 63) == 0 && System.nanoTime() - end > 0) {
                    PARKING.setVolatile(this, true); // pairs with getVolatile in signal; before waitLoop's re-read of posted
                    try {
                        return waitLoop(i, limitNs);
                    } finally {
                        PARKING.setVolatile(this, false);
                    }
                }
                Thread.onSpinWait();
            }
            spun++;
            return wakeLatency();
        }

        @Override
        void block(long ns) {
            LockSupport.parkNanos(this, ns);
        }

        @Override
        long signal(long i) {
            long t0 = post(i, true);
            if ((boolean) PARKING.getVolatile(this)) { // pairs with the partner's setVolatile; after the volatile store of posted
                LockSupport.unpark(partner);
            }
            return System.nanoTime() - t0;
        }
    }
}
