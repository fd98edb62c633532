package dev.statvar.jmh;

import dev.statvar.GaugeValue;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
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
import org.openjdk.jmh.annotations.Warmup;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The cost of one gauge report (count, sum, min, max), statvar against a thread-confined
 * reference block. Every benchmark takes its value from the same per-thread generator
 * ({@link Values}: {@code i++ & 1023}, so min and max rarely change, as with real latencies);
 * all figures, {@code baseline} included, contain that generator's cost. Run with {@code -t 1}
 * and again with {@code -t 2}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class GaugeBenchmark {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** 32 longs, count/sum/min/max in the middle: at least 112 bytes of padding on either side. */
    private static final int CELLS = 32;
    private static final int COUNT = 14;
    private static final int SUM = 15;
    private static final int MIN = 16;
    private static final int MAX = 17;

    /** The values reported: cheap, per thread, identical for every benchmark. */
    @State(Scope.Thread)
    public static class Values {
        long i;

        long value() {
            return i++ & 1023;
        }
    }

    /** The reference: one count/sum/min/max block owned by one thread. */
    @State(Scope.Thread)
    public static class ConfinedGauge {
        long[] cells;

        @Setup(Level.Trial)
        public void setup() {
            cells = new long[CELLS]; // allocated by the benchmark thread itself
            cells[MIN] = Long.MAX_VALUE;
            cells[MAX] = Long.MIN_VALUE;
        }
    }

    /** A registry with one gauge and a real background collector, as in production. */
    @State(Scope.Benchmark)
    public static class Statvar {
        static final String NAME = "latency";

        StatRegistry registry;
        dev.statvar.Gauge gauge;
        StatCollector collector;
        final AtomicLong count = new AtomicLong();
        final AtomicLong sum = new AtomicLong();
        final AtomicLong intervals = new AtomicLong();
        volatile String bad;

        StatRegistry registryForTrial() {
            return StatRegistry.create();
        }

        @Setup(Level.Trial)
        public void setup() {
            Crashes.install();
            registry = registryForTrial();
            gauge = registry.gauge(NAME);
            collector = registry.startCollector(Duration.ofSeconds(1), this::accept);
        }

        private void accept(Snapshot s) {
            add(s.gauge(NAME));
            intervals.incrementAndGet();
        }

        private void add(GaugeValue g) {
            count.addAndGet(g.count());
            sum.addAndGet(g.sum());
            if (!g.isEmpty() && (g.min() < 0 || g.max() > 1023 || g.min() > g.max())) {
                bad = g.toString();
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            collector.close(); // delivers the last, partial interval
            Crashes.check();
            GaugeValue last = registry.collect().gauge(NAME);
            add(last);
            if (bad != null || intervals.get() < 1 || last.totalCount() <= 0
                    || count.get() != last.totalCount() || sum.get() != last.totalSum()) {
                throw new IllegalStateException("statvar gauge inconsistent: " + intervals.get()
                        + " intervals, count " + count.get() + " sum " + sum.get() + ", last " + last
                        + (bad == null ? "" : ", out of range: " + bad));
            }
        }
    }

    /** The registry of STATIC_GAUGE: static, so the handle is a compile-time constant to C2. */
    static final StatRegistry STATIC_REGISTRY = StatRegistry.create();
    static final dev.statvar.Gauge STATIC_GAUGE = STATIC_REGISTRY.gauge(Statvar.NAME);

    /** Runs the collector over {@link #STATIC_REGISTRY} and checks it, as {@link Statvar} does. */
    @State(Scope.Benchmark)
    public static class StatvarStatic extends Statvar {
        @Override
        StatRegistry registryForTrial() {
            return STATIC_REGISTRY;
        }
    }

    /** A per-thread local view of the shared statvar gauge, obtained on the benchmark thread. */
    @State(Scope.Thread)
    public static class StatvarLocal {
        dev.statvar.Gauge local;

        @Setup(Level.Trial)
        public void setup(Statvar shared) {
            local = shared.gauge.localView();
            if (local == shared.gauge) {
                throw new IllegalStateException("localView() fell back to the shared gauge on "
                        + Thread.currentThread());
            }
        }
    }

    /** JMH's per-call overhead plus the value generator: nothing is reported. */
    @Benchmark
    public long baseline(Values v) {
        return v.value();
    }

    /** The target: plain reads, opaque stores of only the cells that change. */
    @Benchmark
    public void confinedGauge(Values v, ConfinedGauge s) {
        long x = v.value();
        long[] a = s.cells;
        LONGS.setOpaque(a, SUM, a[SUM] + x);
        if (x < a[MIN]) {
            LONGS.setOpaque(a, MIN, x);
        }
        if (x > a[MAX]) {
            LONGS.setOpaque(a, MAX, x);
        }
        LONGS.setOpaque(a, COUNT, a[COUNT] + 1);
    }

    @Benchmark
    public void statvarReport(Values v, Statvar s) {
        s.gauge.report(v.value());
    }

    @Benchmark
    public void statvarLocalViewReport(Values v, StatvarLocal s) {
        s.local.report(v.value());
    }

    /** As statvarReport, with the gauge in a static final field (the usual production idiom). */
    @Benchmark
    public void statvarReportStaticFinal(Values v, StatvarStatic s) {
        STATIC_GAUGE.report(v.value());
    }
}
