package dev.statvar.lab.throughput;

import dev.statvar.Counter;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The child JVM of pitfall 3 (Cliff Click, "A Pair of (somebody else's) Concurrency Bugs": "Bad Code from the required OSR compiles, Bad Code from
 * using 'long' types for the for-loop iterators"). One thread does the same work two ways, each
 * in a fresh JVM: {@code osr SECONDS} runs it as one huge loop with a {@code long} induction
 * variable, entered once ({@link #hugeLoop}: it can only ever run interpreted, then as OSR code);
 * {@code method SECONDS} runs it in a method called again and again, each call a short
 * {@code int} loop ({@link #batch}: compiled the normal way, with the profile of many calls).
 * The work, one op: put a value into a {@link RingHandoff} and take it out again on the same
 * thread (it never waits), and count the op. Prints {@link TimedRun}'s lines, named
 * {@code osr-loop} and {@code method-loop}; the {@code COMPILED} lines show which compilations
 * the two loops got.
 */
public final class OsrRunner {
    static final String WORKER = "tp-work";
    /** Ops per call of {@link #batch}. */
    static final int BATCH = 1_000;

    private OsrRunner() {
    }

    public static void main(String[] args) throws Exception {
        boolean osr = args[0].equals("osr");
        int seconds = Integer.parseInt(args[1]);
        AtomicBoolean stop = new AtomicBoolean();
        RingHandoff ring = new RingHandoff();
        long[] sink = new long[1];
        boolean exact = TimedRun.run(osr ? "osr-loop" : "method-loop", seconds, stop, List.of(
                new TimedRun.Job(WORKER, "tp_ops", true, c -> {
                    long[] r = osr ? hugeLoop(ring, c, stop) : calls(ring, c, stop);
                    sink[0] = r[1];
                    return r[0];
                })), System.out);
        System.out.println("NOTE " + (osr ? "osr-loop" : "method-loop") + " checksum " + sink[0]);
        System.exit(exact ? 0 : 1);
    }

    /** The article's shape: one loop, a long counter, entered once. Returns {ops, checksum}. */
    static long[] hugeLoop(RingHandoff ring, Counter ops, AtomicBoolean stop) {
        Counter mine = ops.localView();
        long sum = 0;
        long i;
        for (i = 0; i < Long.MAX_VALUE; i++) {
            if (stop.getOpaque()) { // pairs with TimedRun's setOpaque
                break;
            }
            ring.put(i);
            sum += ring.take();
            mine.add();
        }
        return new long[] {i, sum};
    }

    /** The honest shape: the same work in {@link #batch}, called until told to stop. Returns {ops, checksum}. */
    static long[] calls(RingHandoff ring, Counter ops, AtomicBoolean stop) {
        Counter mine = ops.localView();
        long n = 0;
        long sum = 0;
        while (!stop.getOpaque()) { // pairs with TimedRun's setOpaque
            sum += batch(ring, mine, n);
            n += BATCH;
        }
        return new long[] {n, sum};
    }

    /** {@link #BATCH} ops from value {@code first} on; returns their checksum. */
    static long batch(RingHandoff ring, Counter mine, long first) {
        long sum = 0;
        for (int i = 0; i < BATCH; i++) {
            ring.put(first + i);
            sum += ring.take();
            mine.add();
        }
        return sum;
    }
}
