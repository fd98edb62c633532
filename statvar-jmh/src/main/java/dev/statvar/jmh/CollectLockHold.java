package dev.statvar.jmh;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.StatRegistry;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * How long an update's slow path can wait for {@code collect()}: the longest single hold of the
 * registry's lock per collect (the engine records it), over 1,000 stats (500 counters, 500
 * gauges) written by 64 live threads, as in {@link CollectBenchmark}. Not a JMH benchmark: the
 * figure is a distribution of one internal duration, printed as percentiles.
 *
 * <p>Run: {@code java -cp statvar-jmh/target/benchmarks.jar dev.statvar.jmh.CollectLockHold [collects]}
 */
public final class CollectLockHold {
    public static void main(String[] args) throws Exception {
        int collects = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        StatRegistry r = StatRegistry.create();
        Counter[] counters = new Counter[CollectBenchmark.PAIRS];
        Gauge[] gauges = new Gauge[CollectBenchmark.PAIRS];
        for (int i = 0; i < CollectBenchmark.PAIRS; i++) {
            counters[i] = r.counter("c" + i);
            gauges[i] = r.gauge("g" + i);
        }
        CountDownLatch written = new CountDownLatch(CollectBenchmark.WRITERS);
        CountDownLatch release = new CountDownLatch(1);
        for (int w = 0; w < CollectBenchmark.WRITERS; w++) {
            long value = w;
            Thread t = new Thread(() -> {
                for (int i = 0; i < CollectBenchmark.PAIRS; i++) {
                    counters[i].add();
                    gauges[i].report(value);
                }
                written.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "writer-" + w);
            t.setDaemon(true);
            t.start();
        }
        written.await();
        // Package-private on purpose (not public API); reflection is fine for a measurement tool.
        Method hold = StatRegistry.class.getDeclaredMethod("lastCollectLongestHoldNanos");
        hold.setAccessible(true);
        long[] holds = new long[collects];
        long[] whole = new long[collects];
        for (int i = 0; i < collects; i++) {
            long t0 = System.nanoTime();
            r.collect();
            whole[i] = System.nanoTime() - t0;
            holds[i] = (long) hold.invoke(r);
        }
        release.countDown();
        int from = collects / 2; // the first half warms up
        long[] h = Arrays.copyOfRange(holds, from, collects);
        long[] c = Arrays.copyOfRange(whole, from, collects);
        Arrays.sort(h);
        Arrays.sort(c);
        System.out.printf("%d stats x %d threads, collects %d..%d of %d (%s): longest lock hold per collect"
                        + " p50 %.0f us, p99 %.0f us, max %.0f us; whole collect p50 %.0f us, p99 %.0f us%n",
                2 * CollectBenchmark.PAIRS, CollectBenchmark.WRITERS, from + 1, collects, collects, Runtime.version(),
                p(h, 50) / 1e3, p(h, 99) / 1e3, h[h.length - 1] / 1e3, p(c, 50) / 1e3, p(c, 99) / 1e3);
    }

    private static long p(long[] sorted, int percentile) {
        return sorted[Math.min(sorted.length - 1, sorted.length * percentile / 100)];
    }
}
