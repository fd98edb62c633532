package dev.statvar.lab.spin;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * The spin study's {@code Thread.yield()} probe, a child JVM the lab starts on one CPU
 * ({@code taskset -c 0}) when it can. Usage: {@code YieldProbe MS}. Prints:
 * <ul>
 *   <li>{@code YIELD_COST ns calls}: one thread calling {@code Thread.yield()} for MS ms with
 *       nothing else of this JVM runnable, ns per call;</li>
 *   <li>{@code SHARE kind k 0 share yields min max}: a worker doing the work of Cliff Click's
 *       "A Pair of (somebody else's) Concurrency Bugs" beside
 *       {@code k} other threads that spin ({@code SPIN}, onSpinWait), call {@code Thread.yield()}
 *       in a loop ({@code YIELD}) or are parked ({@code PARK}), its work done as a fraction of what
 *       it did alone in the same round: whether yielding hands the CPU to the thread with real
 *       work. {@link #ROUNDS} rounds run every case once, interleaved, so that the host's drift
 *       falls on all cases alike; the median round's share is reported, with the lowest and
 *       highest. {@code NONE}'s shares are the worker alone against the first round's: the
 *       drift itself.</li>
 * </ul>
 */
public final class YieldProbe {
    private static volatile boolean stop;

    private YieldProbe() {
    }

    /** Rounds: every case once per round, its share taken against the worker alone in the same round. */
    static final int ROUNDS = 5;

    public static void main(String[] args) throws Exception {
        long ms = Long.parseLong(args[0]);
        long[] calls = new long[1];
        long t0 = System.nanoTime();
        long end = t0 + ms * 1_000_000;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                Thread.yield();
            }
            calls[0] += 1000;
        }
        System.out.printf(Locale.ROOT, "YIELD_COST %.1f %d%n", (System.nanoTime() - t0) / (double) calls[0], calls[0]);
        share("NONE", 0, 2 * ms); // compiles the worker's loop: every measured share runs the same code
        List<String> kinds = List.of("NONE", "SPIN", "YIELD", "PARK");
        int cases = 1 + 2 * (kinds.size() - 1);
        double[][] ratio = new double[cases][ROUNDS];
        long[][] yields = new long[cases][ROUNDS];
        long slice = Math.max(100, ms / ROUNDS * 2);
        long aloneFirst = 1;
        for (int round = 0; round < ROUNDS; round++) {
            long alone = share("NONE", 0, slice)[0];
            ratio[0][round] = 1;
            for (int c = 1; c < cases; c++) {
                long[] r = share(kinds.get((c + 1) / 2), c % 2 == 1 ? 1 : 7, slice);
                ratio[c][round] = r[0] / (double) alone;
                yields[c][round] = r[1];
            }
            if (round > 0) { // the worker alone against the first round's: how far the host drifted
                ratio[0][round] = alone / (double) Math.max(1, aloneFirst);
            } else {
                aloneFirst = alone;
            }
        }
        for (int c = 0; c < cases; c++) {
            double[] sorted = ratio[c].clone();
            java.util.Arrays.sort(sorted);
            long[] ys = yields[c].clone();
            java.util.Arrays.sort(ys);
            System.out.printf(Locale.ROOT, "SHARE %s %d %.3f %.3f %d %.3f %.3f%n", c == 0 ? "NONE" : kinds.get((c + 1) / 2),
                    c == 0 ? 0 : c % 2 == 1 ? 1 : 7, 0.0, sorted[ROUNDS / 2], ys[ROUNDS / 2], sorted[0], sorted[ROUNDS - 1]);
        }
    }

    /** The worker's passes over the work in {@code ms} beside {@code k} threads of {@code kind}, and their yields. */
    private static long[] share(String kind, int k, long ms) throws InterruptedException {
        stop = false;
        long[] yields = new long[k];
        List<Thread> others = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            int me = i;
            Thread t = new Thread(() -> {
                long n = 0;
                while (!stop) { // volatile load; pairs with the main thread's store
                    switch (kind) {
                        case "SPIN" -> Thread.onSpinWait();
                        case "YIELD" -> {
                            Thread.yield();
                            n++;
                        }
                        default -> LockSupport.parkNanos(1_000_000_000L);
                    }
                }
                yields[me] = n; // read after join (JLS 17.4.4)
            }, "spin-y" + i);
            others.add(t);
            t.start();
        }
        Thread.sleep(50); // let them start
        long[] passes = new long[1];
        double[] a = new double[1000];
        Thread worker = new Thread(() -> {
            long p = 0;
            while (!stop) {
                SpinRunner.work(a, 0, a.length);
                p++;
            }
            passes[0] = p; // read after join
        }, "spin-worker");
        worker.start();
        Thread.sleep(ms);
        stop = true;
        worker.join();
        long y = 0;
        for (Thread t : others) {
            LockSupport.unpark(t);
            t.join();
        }
        for (long n : yields) {
            y += n;
        }
        return new long[] {passes[0], y};
    }
}
