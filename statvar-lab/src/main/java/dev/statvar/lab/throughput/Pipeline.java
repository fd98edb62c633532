package dev.statvar.lab.throughput;

import dev.statvar.Counter;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The seed's benchmark shape: a producer thread puts consecutive values into a {@link Handoff}
 * until told to stop, then {@link Handoff#END}; a consumer thread takes them, checks their
 * order and stops at END. Each counts every op on a statvar counter (through its
 * {@link Counter#localView()}) and in a local of its own.
 *
 * <p>These static methods are the call sites every implementation runs through: in a JVM of its
 * own only one {@link Handoff} class ever reaches them; the profile-pollution pitfall runs two
 * through them one after the other.
 *
 * <p>Threads: {@code stop} is written by the runner (setOpaque) and read by the producer each op
 * (getOpaque: it sees the write eventually, which is all a stop needs); the producer's and
 * consumer's results are read by the runner after {@code join()} (happens-before).
 */
final class Pipeline {
    private Pipeline() {
    }

    /** The producer's loop, as fast as the handoff goes; returns the values put (END not counted). */
    static long produce(Handoff h, Counter ops, AtomicBoolean stop) {
        Counter mine = ops.localView();
        long n = 0;
        while (!stop.getOpaque()) { // pairs with the runner's setOpaque
            h.put(n);
            mine.add();
            n++;
        }
        h.put(Handoff.END);
        return n;
    }

    /**
     * The producer's loop held to {@code rate} values per second: value {@code k} is put at
     * {@code start + k / rate} seconds, not before; the producer parks until then (never spins),
     * and catches up at once after a late wake-up.
     */
    static long produceAt(Handoff h, Counter ops, AtomicBoolean stop, long rate) {
        Counter mine = ops.localView();
        long start = System.nanoTime();
        long n = 0;
        while (!stop.getOpaque()) { // pairs with the runner's setOpaque
            long wait = start + n * 1_000_000_000L / rate - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            h.put(n);
            mine.add();
            n++;
        }
        h.put(Handoff.END);
        return n;
    }

    /** The consumer's loop: {ops, values out of order}. */
    static long[] consume(Handoff h, Counter ops) {
        Counter mine = ops.localView();
        long n = 0;
        long disorder = 0;
        while (true) {
            long v = h.take();
            if (v == Handoff.END) {
                return new long[] {n, disorder};
            }
            if (v != h.expected(n)) {
                disorder++;
            }
            mine.add();
            n++;
        }
    }
}
