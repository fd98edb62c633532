package dev.statvar.jmh;

import dev.statvar.CounterValue;
import dev.statvar.Snapshot;
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
        /** Sum of the interval values the collector delivered: must equal the final total. */
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong intervals = new AtomicLong();

        @Setup(Level.Trial)
        public void setup() {
            Crashes.install();
            registry = StatRegistry.create();
            counter = registry.counter(NAME);
            collector = registry.startCollector(Duration.ofSeconds(1), this::accept);
        }

        private void accept(Snapshot s) {
            delivered.addAndGet(s.counter(NAME));
            intervals.incrementAndGet();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            collector.close(); // delivers the last, partial interval
            Crashes.check();
            CounterValue last = registry.collect().counterValue(NAME);
            long sum = delivered.get() + last.value();
            if (intervals.get() < 1 || last.total() <= 0 || sum != last.total()) {
                throw new IllegalStateException("statvar counter inconsistent: " + intervals.get()
                        + " intervals delivered " + delivered.get() + ", then " + last.value()
                        + ", but total is " + last.total());
            }
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
}
