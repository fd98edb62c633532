package dev.statvar.jmh;

import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import dev.statvar.probes.JfrContention;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What {@link JfrContention} costs the application: the same lock workloads with no recording
 * ({@code off}) and with the bridge at thresholds 0, 10 µs and 20 ms (JFR's default for these
 * events). Throughput, so the ratio to {@code off} reads directly; compare within one run.
 *
 * <ul>
 *   <li>{@code syncContended}: 2 threads increment one field under one {@code synchronized}
 *       monitor: contended enters, some of which block (jdk.JavaMonitorEnter).</li>
 *   <li>{@code lockContended}: the same under one {@link ReentrantLock}: contended acquires park
 *       (jdk.ThreadPark).</li>
 *   <li>{@code syncUncontended}: 1 thread, its own monitor: the fast path JFR does not
 *       instrument, as a control (should stay at 1.0).</li>
 * </ul>
 * With 2 benchmark threads on a 2-CPU machine, the JFR stream thread competes with them for a
 * CPU whenever it dispatches events: that is part of the cost measured, as in production. Each
 * trial prints how many events the bridge recorded, so the cost can be read per event.
 *
 * <p>Run: {@code java -jar statvar-jmh/target/benchmarks.jar JfrContentionBenchmark -f 1 -wi 3 -i 5 -w 1s -r 1s}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class JfrContentionBenchmark {

    /** {@code off}: no recording; else the bridge's threshold. */
    @Param({"off", "0", "10us", "20ms"})
    public String threshold;

    private StatRegistry registry;
    private JfrContention jfr;
    private long started;

    private final Object monitor = new Object();
    private long syncCount; // guarded by monitor
    private final ReentrantLock lock = new ReentrantLock();
    private long lockCount; // guarded by lock

    /** A monitor and a count per benchmark thread. */
    @State(Scope.Thread)
    public static class Own {
        final Object monitor = new Object();
        long count; // guarded by monitor
    }

    static Duration parse(String threshold) {
        switch (threshold) {
            case "0":
                return Duration.ZERO;
            case "10us":
                return Duration.ofNanos(10_000);
            case "20ms":
                return Duration.ofMillis(20);
            default:
                throw new IllegalArgumentException("threshold " + threshold);
        }
    }

    @Setup(Level.Trial)
    public void setup() {
        registry = StatRegistry.create();
        if (!threshold.equals("off")) {
            jfr = JfrContention.start(registry, parse(threshold));
        }
        started = System.nanoTime();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        double seconds = (System.nanoTime() - started) / 1e9;
        if (jfr == null) {
            return;
        }
        jfr.close();
        Map<String, Long> events = new TreeMap<>();
        for (StatValue v : registry.collect()) {
            if (v instanceof HistogramValue h) {
                events.merge(v.name() + v.labels(), h.totals().count(), Long::sum);
            }
        }
        long total = events.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("%nJFR events recorded in %.1f s (warm-up included): %d (%.0f/s)%n", seconds, total,
                total / seconds);
        events.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(6)
                .forEach(e -> System.out.println("  " + e.getKey() + " " + e.getValue()));
    }

    @Benchmark
    @Threads(2)
    public long syncContended() {
        synchronized (monitor) {
            return ++syncCount;
        }
    }

    @Benchmark
    @Threads(2)
    public long lockContended() {
        lock.lock();
        try {
            return ++lockCount;
        } finally {
            lock.unlock();
        }
    }

    @Benchmark
    @Threads(1)
    public long syncUncontended(Own own) {
        synchronized (own.monitor) {
            return ++own.count;
        }
    }
}
