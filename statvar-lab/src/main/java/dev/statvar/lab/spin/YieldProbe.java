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
 *   <li>{@code SHARE kind k passes ratio yields}: a worker doing the seed's work for MS ms beside
 *       {@code k} other threads that spin ({@code SPIN}, onSpinWait), call {@code Thread.yield()}
 *       in a loop ({@code YIELD}) or are parked ({@code PARK}); its work done as a fraction of what
 *       it did alone (the better of two runs alone, {@code NONE} before the others and
 *       {@code AGAIN} after them, so that drift shows as a share below 1 of one of them): whether
 *       yielding hands the CPU to the thread with real work.</li>
 * </ul>
 */
public final class YieldProbe {
    private static volatile boolean stop;

    private YieldProbe() {
    }

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
        long first = share("NONE", 0, ms)[0];
        List<String> kinds = List.of("SPIN", "YIELD", "PARK");
        long[][] r = new long[kinds.size() * 2][];
        for (int i = 0; i < r.length; i++) {
            r[i] = share(kinds.get(i / 2), i % 2 == 0 ? 1 : 7, ms);
        }
        long again = share("NONE", 0, ms)[0]; // alone once more: how far the host's speed (or the JIT's code) drifted
        long alone = Math.max(first, again); // the worker's best alone: a share above 1 would be drift, not a gift
        System.out.printf(Locale.ROOT, "SHARE NONE 0 %d %.3f 0%n", first, first / (double) alone);
        for (int i = 0; i < r.length; i++) {
            System.out.printf(Locale.ROOT, "SHARE %s %d %d %.3f %d%n", kinds.get(i / 2), i % 2 == 0 ? 1 : 7, r[i][0],
                    r[i][0] / (double) alone, r[i][1]);
        }
        System.out.printf(Locale.ROOT, "SHARE AGAIN 0 %d %.3f 0%n", again, again / (double) alone);
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
