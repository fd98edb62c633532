package dev.statvar.lab.throughput;

import dev.statvar.Counter;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The benchmark shape of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs": a producer thread puts consecutive values into a {@link Handoff}
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

    /** A producer this late on its schedule was held up (no CPU for it, a GC), not merely woken late. */
    static final long SLACK_NANOS = 1_000_000;
    /** Hold-ups recorded at most. */
    static final int MAX_HOLD_UPS = 10_000;

    /**
     * The producer's loop held to {@code rate} values per second: value {@code k} is due
     * {@code k / rate} seconds after the start, not before; the producer parks until then (never
     * spins) and, woken late, catches up at once, so that by any moment it was running on time it
     * has put exactly the values due. When it finds itself more than {@link #SLACK_NANOS} behind,
     * it notes a hold-up in {@code holdUps}: {the time the first late value was due, the time it
     * had caught up again} ({@link System#nanoTime()}: in between it was behind its schedule),
     * at most {@link #MAX_HOLD_UPS}.
     */
    static long produceAt(Handoff h, Counter ops, AtomicBoolean stop, long rate, List<long[]> holdUps) {
        Counter mine = ops.localView();
        long start = System.nanoTime();
        long n = 0;
        boolean behind = false;
        long behindSince = 0;
        while (!stop.getOpaque()) { // pairs with the runner's setOpaque
            long now = System.nanoTime();
            long due = start + n * 1_000_000_000L / rate;
            if (due - now > 0) {
                if (behind) {
                    note(holdUps, behindSince, now);
                    behind = false;
                }
                LockSupport.parkNanos(due - now);
                continue;
            }
            if (!behind && now - due > SLACK_NANOS) {
                behind = true;
                behindSince = due;
            }
            h.put(n);
            mine.add();
            n++;
        }
        if (behind) {
            note(holdUps, behindSince, System.nanoTime());
        }
        h.put(Handoff.END);
        return n;
    }

    private static void note(List<long[]> holdUps, long from, long to) {
        if (holdUps.size() < MAX_HOLD_UPS) {
            holdUps.add(new long[] {from, to});
        }
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
