package dev.statvar.jmh;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.micrometer.StatvarMeterRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
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
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cost of one update through the Micrometer API only, the same code on three registries side
 * by side in one run ({@code @Param registry}): statvar's {@link StatvarMeterRegistry},
 * Micrometer's {@link SimpleMeterRegistry} and its {@link PrometheusMeterRegistry}, both with their
 * default configuration. A service that moves from one registry to the other changes only the
 * registry it creates; this is what its {@code increment()} and {@code record(..)} calls then cost.
 * Run with {@code -t 1} and again with {@code -t 2} (both benchmark threads then update the same
 * meters, as a service's request threads do).
 *
 * <p>Timers and summaries record values taken in turn from a fixed table of 1,024 latencies or
 * sizes (log-normal, fixed seed; {@link #NANOS}, {@link #SIZES}), the same table and order for
 * every registry. Every figure includes reading the next value (an index increment and a masked
 * array load, well under a nanosecond); counters read nothing.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class MicrometerRegistryBenchmark {

    /** Number of precomputed values; a power of two, so the next index is a mask. */
    private static final int VALUES = 1024;
    private static final int MASK = VALUES - 1;

    /**
     * Request latencies in nanoseconds: log-normal, median 1 ms, σ = 1.5 (about 90 % between
     * 85 µs and 12 ms), clamped to 1 µs .. 10 s. Input data, identical for every registry: static
     * final because it is a constant table, not a meter.
     */
    static final long[] NANOS = new long[VALUES];

    /** Payload sizes in bytes: log-normal, median 4 KiB, σ = 2, clamped to 1 B .. 64 MiB, whole bytes. */
    static final double[] SIZES = new double[VALUES];

    static {
        SplittableRandom r = new SplittableRandom(18);
        for (int i = 0; i < VALUES; i++) {
            NANOS[i] = (long) Math.min(10e9, Math.max(1e3, 1e6 * Math.exp(1.5 * gaussian(r))));
            SIZES[i] = Math.rint(Math.min(64.0 * 1024 * 1024, Math.max(1, 4096 * Math.exp(2 * gaussian(r)))));
        }
    }

    /** A standard normal deviate (Box-Muller; SplittableRandom has no nextGaussian on JDK 17). */
    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /**
     * One registry and its three meters, held in ordinary fields as a service holds the meters it
     * registered at start-up; shared by the benchmark threads. The statvar registry runs a real
     * background collector ({@code startCollector(1 s)}), as in production; the other two need
     * none (they are read at scrape or publish time).
     */
    @State(Scope.Benchmark)
    public static class Meters {
        @Param({"statvar", "simple", "prometheus"})
        String registry;

        MeterRegistry meters;
        Counter counter;
        Timer timer;
        DistributionSummary summary;
        StatCollector collector;
        final AtomicLong intervals = new AtomicLong();

        @Setup(Level.Trial)
        public void setup() {
            Crashes.install();
            switch (registry) {
                case "statvar": {
                    StatRegistry stats = StatRegistry.create();
                    meters = new StatvarMeterRegistry(stats);
                    collector = stats.startCollector(Duration.ofSeconds(1), s -> intervals.incrementAndGet());
                    break;
                }
                case "simple":
                    meters = new SimpleMeterRegistry();
                    break;
                case "prometheus":
                    meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                    break;
                default:
                    throw new IllegalArgumentException("registry: " + registry);
            }
            counter = meters.counter("requests");
            timer = meters.timer("request.latency");
            summary = meters.summary("response.size");
        }

        /** Fails the trial if a background thread died, nothing was recorded, or statvar's collector never ran. */
        @TearDown(Level.Trial)
        public void tearDown() {
            if (collector != null) {
                collector.close(); // delivers the last, partial interval
            }
            Crashes.check();
            long counted = (long) counter.count() + timer.count() + summary.count(); // the benchmarks that ran
            boolean ok = counted > 0 && (collector == null || intervals.get() >= 1);
            meters.close();
            if (!ok) {
                throw new IllegalStateException(registry + ": nothing recorded (counter " + counter.count()
                        + ", timer " + timer.count() + ", summary " + summary.count() + ") or no interval ("
                        + intervals.get() + ")");
            }
        }
    }

    /** The benchmark thread's position in the value tables; threads start apart. */
    @State(Scope.Thread)
    public static class Cursor {
        private static final AtomicLong THREADS = new AtomicLong();

        int i;

        @Setup(Level.Trial)
        public void setup() {
            i = (int) (THREADS.getAndIncrement() * (VALUES / 2));
        }

        int next() {
            return i++ & MASK;
        }
    }

    @Benchmark
    public void counterIncrement(Meters m) {
        m.counter.increment();
    }

    @Benchmark
    public void timerRecord(Meters m, Cursor c) {
        m.timer.record(NANOS[c.next()], TimeUnit.NANOSECONDS);
    }

    @Benchmark
    public void summaryRecord(Meters m, Cursor c) {
        m.summary.record(SIZES[c.next()]);
    }
}
