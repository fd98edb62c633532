package dev.statvar.jmh;

import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.internal.Layout;
import dev.statvar.internal.LogLinear;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
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
import org.openjdk.jmh.annotations.Warmup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cost of one histogram record, statvar against a thread-confined log-linear reference
 * histogram of the same precision and the usual peers. Every benchmark generates one value
 * with the same per-thread generator ({@link #next(Values)}: xorshift64, latency-like values
 * spread log-uniformly over 2^10 .. 2^30 ns, about 1 µs .. 1 s) and records it; all figures,
 * {@code values} included, contain that generator's cost. Run with {@code -t 1} and again with
 * {@code -t 2} (shared objects are then hit by two threads at once).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class HistogramBenchmark {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** Sub-bucket bits of the confined reference: statvar's default precision (64 sub-buckets). */
    private static final int BITS = 6;

    /** Smallest and largest value {@link #next(Values)} generates (inclusive). */
    static final long MIN_VALUE = 1L << 10;
    static final long MAX_VALUE = (1L << 30) - 1;

    /** The generator's per-thread state: xorshift64, seeded differently per thread. */
    @State(Scope.Thread)
    public static class Values {
        private static final AtomicLong THREADS = new AtomicLong();

        long x;

        @Setup(Level.Trial)
        public void setup() {
            x = THREADS.incrementAndGet() * 0x9E3779B97F4A7C15L; // odd constant: never 0
        }
    }

    /**
     * The values recorded, identical for every benchmark: one xorshift64 step, then a latency
     * {@code 2^e + low bits} with the exponent {@code e} uniform in 10..29 (from the top bits)
     * and the mantissa from the low bits. Branch-free.
     */
    static long next(Values v) {
        long x = v.x;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        v.x = x;
        int e = 10 + (int) (((x >>> 40) * 20) >>> 24);
        return (1L << e) | (x & ((1L << e) - 1));
    }

    /**
     * The reference: one log-linear histogram (b = 6, all buckets) owned by one thread, padded
     * by {@link Layout#PAD} longs on both ends.
     */
    @State(Scope.Thread)
    public static class ConfinedHistogram {
        long[] buckets;

        @Setup(Level.Trial)
        public void setup() {
            // allocated by the benchmark thread itself
            buckets = new long[Layout.PAD + LogLinear.bucketCount(BITS) + Layout.PAD];
        }
    }

    /** A registry with one histogram and a real background collector, as in production. */
    @State(Scope.Benchmark)
    public static class Statvar {
        static final String NAME = "latency";

        StatRegistry registry;
        dev.statvar.Histogram histogram;
        StatCollector collector;
        final AtomicLong count = new AtomicLong();
        final AtomicLong intervals = new AtomicLong();
        volatile String bad;

        StatRegistry registryForTrial() {
            return StatRegistry.create();
        }

        @Setup(Level.Trial)
        public void setup() {
            Crashes.install();
            registry = registryForTrial();
            histogram = registry.histogram(NAME);
            collector = registry.startCollector(Duration.ofSeconds(1), this::accept);
        }

        private void accept(Snapshot s) {
            add(s.histogram(NAME));
            intervals.incrementAndGet();
        }

        private void add(HistogramValue h) {
            count.addAndGet(h.count());
            if (!h.isEmpty() && (h.min() < MIN_VALUE || h.max() > MAX_VALUE || h.min() > h.max())) {
                bad = h.toString();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            collector.close(); // delivers the last, partial interval
            Crashes.check();
            HistogramValue last = registry.collect().histogram(NAME);
            add(last);
            if (bad != null || intervals.get() < 1 || count.get() <= 0) {
                throw new IllegalStateException("statvar histogram inconsistent: " + intervals.get()
                        + " intervals, count " + count.get() + ", last " + last
                        + (bad == null ? "" : ", out of range: " + bad));
            }
        }
    }

    /** The registry of STATIC_HISTOGRAM: static, so the handle is a compile-time constant to C2. */
    static final StatRegistry STATIC_REGISTRY = StatRegistry.create();
    static final dev.statvar.Histogram STATIC_HISTOGRAM = STATIC_REGISTRY.histogram(Statvar.NAME);

    /** Runs the collector over {@link #STATIC_REGISTRY} and checks it, as {@link Statvar} does. */
    @State(Scope.Benchmark)
    public static class StatvarStatic extends Statvar {
        @Override
        StatRegistry registryForTrial() {
            return STATIC_REGISTRY;
        }
    }

    /** A per-thread local view of the shared statvar histogram, obtained on the benchmark thread. */
    @State(Scope.Thread)
    public static class StatvarLocal {
        dev.statvar.Histogram local;

        @Setup(Level.Trial)
        public void setup(Statvar shared) {
            local = shared.histogram.localView();
            if (local == shared.histogram) {
                throw new IllegalStateException("localView() fell back to the shared histogram on "
                        + Thread.currentThread());
            }
        }
    }

    /** HdrHistogram's interval recorder, 2 significant digits, auto-resizing. */
    @State(Scope.Benchmark)
    public static class Hdr {
        org.HdrHistogram.Recorder recorder;

        @Setup(Level.Trial)
        public void setup() {
            recorder = new org.HdrHistogram.Recorder(2);
        }
    }

    /**
     * A classic (fixed-bucket) Prometheus histogram. The default bounds (5 ms .. 10 s, in
     * seconds) would put every nanosecond value in +Inf, so the bounds are one per power of two
     * over the generated range, 2^11 .. 2^30 ns, and +Inf.
     */
    @State(Scope.Benchmark)
    public static class Prometheus {
        io.prometheus.metrics.core.metrics.Histogram histogram;

        @Setup(Level.Trial)
        public void setup() {
            histogram = io.prometheus.metrics.core.metrics.Histogram.builder()
                    .name("latency")
                    .classicOnly()
                    .classicExponentialUpperBounds(2 * MIN_VALUE, 2, 20)
                    .register(new PrometheusRegistry());
        }
    }

    @State(Scope.Benchmark)
    public static class Micrometer {
        DistributionSummary summary;

        @Setup(Level.Trial)
        public void setup() {
            summary = DistributionSummary.builder("latency")
                    .publishPercentileHistogram()
                    .register(new SimpleMeterRegistry());
        }
    }

    @State(Scope.Benchmark)
    public static class Dropwizard {
        com.codahale.metrics.Histogram histogram;

        @Setup(Level.Trial)
        public void setup() {
            histogram = new com.codahale.metrics.MetricRegistry().histogram("latency");
        }
    }

    /** JMH's per-call overhead plus the value generator: nothing is recorded. */
    @Benchmark
    public long values(Values v) {
        return next(v);
    }

    /** The target: bucket index, then a plain read and an opaque store of a bucket only this thread writes. */
    @Benchmark
    public void confinedHistogram(Values v, ConfinedHistogram s) {
        int i = Layout.PAD + LogLinear.index(next(v), BITS);
        long[] a = s.buckets;
        LONGS.setOpaque(a, i, a[i] + 1);
    }

    @Benchmark
    public void statvarRecord(Values v, Statvar s) {
        s.histogram.record(next(v));
    }

    /** As statvarRecord, with the histogram in a static final field (the usual production idiom). */
    @Benchmark
    public void statvarRecordStaticFinal(Values v, StatvarStatic s) {
        STATIC_HISTOGRAM.record(next(v));
    }

    @Benchmark
    public void statvarLocalViewRecord(Values v, StatvarLocal s) {
        s.local.record(next(v));
    }

    @Benchmark
    public void hdrRecorder(Values v, Hdr s) {
        s.recorder.recordValue(next(v));
    }

    @Benchmark
    public void prometheusClassic(Values v, Prometheus s) {
        s.histogram.observe(next(v));
    }

    @Benchmark
    public void micrometerPercentileHistogram(Values v, Micrometer s) {
        s.summary.record(next(v));
    }

    @Benchmark
    public void dropwizardHistogram(Values v, Dropwizard s) {
        s.histogram.update(next(v));
    }
}
