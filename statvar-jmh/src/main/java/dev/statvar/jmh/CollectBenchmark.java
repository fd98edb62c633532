package dev.statvar.jmh;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The cost of one {@code collect()} over 1,000 stats (500 counters and 500 gauges, registered
 * interleaved) that 64 live platform threads have each written once. The writers stay alive,
 * parked, for the whole trial, so their storage stays live and every collect reads it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class CollectBenchmark {
    static final int PAIRS = 500;
    static final int WRITERS = 64;

    StatRegistry registry;
    private Thread[] writers;
    private CountDownLatch release;

    @Setup(Level.Trial)
    public void setup() throws InterruptedException {
        Crashes.install();
        registry = StatRegistry.create();
        Counter[] counters = new Counter[PAIRS];
        Gauge[] gauges = new Gauge[PAIRS];
        for (int i = 0; i < PAIRS; i++) {
            counters[i] = registry.counter("c" + i);
            gauges[i] = registry.gauge("g" + i);
        }
        CountDownLatch written = new CountDownLatch(WRITERS);
        release = new CountDownLatch(1);
        writers = new Thread[WRITERS];
        for (int w = 0; w < WRITERS; w++) {
            long value = w;
            writers[w] = new Thread(() -> {
                for (int i = 0; i < PAIRS; i++) {
                    counters[i].add();
                    gauges[i].report(value);
                }
                written.countDown();
                awaitUninterruptibly(release);
            }, "writer-" + w);
            writers[w].setDaemon(true); // never keep the fork alive if the tear-down is skipped
            writers[w].start();
        }
        if (!written.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("writers did not finish their updates");
        }
        Crashes.check();
        Snapshot first = registry.collect();
        for (int i = 0; i < PAIRS; i++) {
            long c = first.counter("c" + i);
            long g = first.gauge("g" + i).count();
            if (c != WRITERS || g != WRITERS) {
                throw new IllegalStateException("stat " + i + ": counter " + c + ", gauge count " + g
                        + ", expected " + WRITERS);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        release.countDown();
        for (Thread t : writers) {
            t.join();
        }
        Crashes.check();
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Benchmark
    public Snapshot collect() {
        return registry.collect();
    }
}
