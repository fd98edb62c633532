package dev.statvar.jmh;

import dev.statvar.CounterValue;
import dev.statvar.Snapshot;
import dev.statvar.StatValue;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
import java.util.concurrent.atomic.LongAdder;

/**
 * The cost of one counter increment, statvar against a thread-confined reference cell and the
 * usual peers. Every benchmark does exactly one update, so the figures of one run compare side
 * by side; run it with {@code -t 1} and again with {@code -t 2} (shared objects are then hit by
 * two threads at once).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class CounterBenchmark {

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    /** 32 longs, the middle one used: 128 bytes of padding on either side against false sharing. */
    private static final int CELLS = 32;
    private static final int MID = CELLS / 2;

    /** The reference: one cell owned by one thread, updated as a single-owner statvar cell is. */
    @State(Scope.Thread)
    public static class ConfinedCell {
        long[] cells;

        @Setup(Level.Trial)
        public void setup() {
            cells = new long[CELLS]; // allocated by the benchmark thread itself
        }
    }

    /** A registry with one counter and a real background collector, as in production. */
    @State(Scope.Benchmark)
    public static class Statvar {
        static final String NAME = "requests";

        StatRegistry registry;
        dev.statvar.Counter counter;
        StatCollector collector;
        /** Per counter, the sum of the interval values the collector delivered: must equal its total. */
        final java.util.Map<String, Long> delivered = new java.util.concurrent.ConcurrentHashMap<>();
        final AtomicLong intervals = new AtomicLong();

        StatRegistry registryForTrial() {
            return StatRegistry.create();
        }

        dev.statvar.Counter counterForTrial(StatRegistry r) {
            return r.counter(NAME);
        }

        @Setup(Level.Trial)
        public void setup() {
            Crashes.install();
            registry = registryForTrial();
            counter = counterForTrial(registry);
            collector = registry.startCollector(Duration.ofSeconds(1), this::accept);
        }

        private void accept(Snapshot s) {
            for (StatValue v : s) {
                delivered.merge(v.name(), ((CounterValue) v).value(), Long::sum);
            }
            intervals.incrementAndGet();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            collector.close(); // delivers the last, partial interval
            Crashes.check();
            long updates = 0;
            for (StatValue v : registry.collect()) {
                CounterValue last = (CounterValue) v;
                long sum = delivered.getOrDefault(last.name(), 0L) + last.value();
                if (sum != last.total()) {
                    throw new IllegalStateException("statvar counter '" + last.name() + "' inconsistent: "
                            + intervals.get() + " intervals delivered " + (sum - last.value()) + ", then "
                            + last.value() + ", but the total is " + last.total());
                }
                updates += last.total();
            }
            if (intervals.get() < 1 || updates <= 0) {
                throw new IllegalStateException("statvar: no interval delivered or nothing counted");
            }
        }
    }

    /** The registry of STATIC_COUNTER: static, so the handle is a compile-time constant to C2. */
    static final StatRegistry STATIC_REGISTRY = StatRegistry.create();
    static final dev.statvar.Counter STATIC_COUNTER = STATIC_REGISTRY.counter(Statvar.NAME);

    /** Runs the collector over {@link #STATIC_REGISTRY} and checks it, as {@link Statvar} does. */
    @State(Scope.Benchmark)
    public static class StatvarStatic extends Statvar {
        @Override
        StatRegistry registryForTrial() {
            return STATIC_REGISTRY;
        }
    }

    /** As {@link Statvar}, the counter being one held series of a labelled family. */
    @State(Scope.Benchmark)
    public static class StatvarLabelled extends Statvar {
        @Override
        dev.statvar.Counter counterForTrial(StatRegistry r) {
            return r.counterFamily(NAME, "", "method", "code").labels("GET", "200");
        }
    }

    /** A per-thread local view of the shared statvar counter, obtained on the benchmark thread. */
    @State(Scope.Thread)
    public static class StatvarLocal {
        dev.statvar.Counter local;

        @Setup(Level.Trial)
        public void setup(Statvar shared) {
            local = shared.counter.localView();
            if (local == shared.counter) {
                throw new IllegalStateException("localView() fell back to the shared counter on "
                        + Thread.currentThread());
            }
        }
    }

    @State(Scope.Benchmark)
    public static class Adder {
        final LongAdder adder = new LongAdder();
    }

    @State(Scope.Benchmark)
    public static class Atomic {
        final AtomicLong atomic = new AtomicLong();
    }

    @State(Scope.Benchmark)
    public static class Dropwizard {
        com.codahale.metrics.Counter counter;

        @Setup(Level.Trial)
        public void setup() {
            counter = new com.codahale.metrics.MetricRegistry().counter("requests");
        }
    }

    @State(Scope.Benchmark)
    public static class Prometheus {
        io.prometheus.metrics.core.metrics.Counter counter;

        @Setup(Level.Trial)
        public void setup() {
            counter = io.prometheus.metrics.core.metrics.Counter.builder()
                    .name("requests")
                    .register(new PrometheusRegistry());
        }
    }

    @State(Scope.Benchmark)
    public static class Micrometer {
        io.micrometer.core.instrument.Counter counter;

        @Setup(Level.Trial)
        public void setup() {
            counter = new SimpleMeterRegistry().counter("requests");
        }
    }

    /** JMH's own per-call overhead: nothing to update. */
    @Benchmark
    public void baseline() {
    }

    /** The target: a plain read and an opaque store to a padded cell only this thread writes. */
    @Benchmark
    public void confinedCell(ConfinedCell s) {
        long[] a = s.cells;
        LONGS.setOpaque(a, MID, a[MID] + 1);
    }

    @Benchmark
    public void statvarAdd(Statvar s) {
        s.counter.add();
    }

    /** As statvarAdd, through a held series of a labelled family: the same update. */
    @Benchmark
    public void statvarLabelledAdd(StatvarLabelled s) {
        s.counter.add();
    }

    @Benchmark
    public void statvarLocalViewAdd(StatvarLocal s) {
        s.local.add();
    }

    @Benchmark
    public void longAdder(Adder s) {
        s.adder.increment();
    }

    @Benchmark
    public long atomicLong(Atomic s) {
        return s.atomic.getAndIncrement();
    }

    @Benchmark
    public void dropwizard(Dropwizard s) {
        s.counter.inc();
    }

    @Benchmark
    public void prometheus(Prometheus s) {
        s.counter.inc();
    }

    @Benchmark
    public void micrometer(Micrometer s) {
        s.counter.increment();
    }

    /** As statvarAdd, with the counter in a static final field (the usual production idiom). */
    @Benchmark
    public void statvarAddStaticFinal(StatvarStatic s) {
        STATIC_COUNTER.add();
    }

    // ---- Four different counters per call, as a request handler updates several stats. ----
    // Each cell then has three other updates between its own: the store-to-load forwarding
    // latency of one cell no longer bounds the loop, and what remains is the cost per update.

    /** Four cells of one thread, adjacent, at constant indices in one padded array. */
    @State(Scope.Thread)
    public static class ConfinedCells4 {
        long[] cells;

        @Setup(Level.Trial)
        public void setup() {
            cells = new long[CELLS + 4];
        }
    }

    /** Four counters of the shared registry. */
    @State(Scope.Benchmark)
    public static class Statvar4 {
        dev.statvar.Counter a;
        dev.statvar.Counter b;
        dev.statvar.Counter c;
        dev.statvar.Counter d;

        @Setup(Level.Trial)
        public void setup(Statvar s) {
            a = s.registry.counter("a");
            b = s.registry.counter("b");
            c = s.registry.counter("c");
            d = s.registry.counter("d");
        }
    }

    /** Local views of the four counters, bound to the benchmark thread. */
    @State(Scope.Thread)
    public static class StatvarLocal4 {
        dev.statvar.Counter a;
        dev.statvar.Counter b;
        dev.statvar.Counter c;
        dev.statvar.Counter d;

        @Setup(Level.Trial)
        public void setup(Statvar4 s) {
            a = s.a.localView();
            b = s.b.localView();
            c = s.c.localView();
            d = s.d.localView();
        }
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public void confinedCell4(ConfinedCells4 s) {
        long[] x = s.cells;
        LONGS.setOpaque(x, MID, x[MID] + 1);
        LONGS.setOpaque(x, MID + 1, x[MID + 1] + 1);
        LONGS.setOpaque(x, MID + 2, x[MID + 2] + 1);
        LONGS.setOpaque(x, MID + 3, x[MID + 3] + 1);
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public void statvarAdd4(Statvar4 s) {
        s.a.add();
        s.b.add();
        s.c.add();
        s.d.add();
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public void statvarLocalViewAdd4(StatvarLocal4 s) {
        s.a.add();
        s.b.add();
        s.c.add();
        s.d.add();
    }

    @Benchmark
    @OperationsPerInvocation(4)
    public void longAdder4(Adder4 s) {
        s.a.increment();
        s.b.increment();
        s.c.increment();
        s.d.increment();
    }

    /** Four LongAdders. */
    @State(Scope.Benchmark)
    public static class Adder4 {
        final LongAdder a = new LongAdder();
        final LongAdder b = new LongAdder();
        final LongAdder c = new LongAdder();
        final LongAdder d = new LongAdder();
    }
}
