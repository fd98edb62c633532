package dev.statvar.jmh;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
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

import java.util.concurrent.TimeUnit;

/**
 * The cost of one {@code collect()} over many stats that many live platform threads have
 * written. The writers stay alive, parked, for the whole trial, so their storage stays live and
 * every collect reads it. Shapes ({@code @Param shape}):
 * <ul>
 *   <li>{@code 1000x64} (the original shape), {@code 10000x256}, {@code 100000x16}: N stats, half
 *       counters and half gauges registered interleaved, × T writer threads; each writer adds 1 to
 *       every counter and reports one value to every gauge.</li>
 *   <li>{@code web-50x200}: 50 histograms × 200 writers, each writer recording 100 values into each
 *       histogram, log-uniform over 10 µs .. 1 s in ns (as {@link ScaleBenchmark}'s {@code webserver}).</li>
 * </ul>
 * Two methods:
 * <ul>
 *   <li>{@code collect}: back-to-back collects after the writers wrote once, so every collect
 *       after the first reads live cells whose values did not change (an empty interval): a lower
 *       bound of what a collect costs, and the figure this benchmark always reported.</li>
 *   <li>{@code collectUpdated}: before each collect (in a {@code Level.Invocation} set-up, not
 *       timed) every writer updates every stat once more, exactly as before the first one, and
 *       parks again; so each timed collect reads N × T cells that all changed, as a server's
 *       periodic collect does. JMH then times each call on its own (a {@code Level.Invocation}
 *       set-up); its overhead, two timer reads per call, is tens of nanoseconds beside a collect
 *       of at least 64,000 cells.</li>
 * </ul>
 * Exactness: the first collect of a trial must show every counter at T, every gauge with T
 * reports (and the right sum, min and max) and every histogram with T × 100 records (the check of
 * {@link ScaleBenchmark}); {@code collectUpdated} checks each collect's snapshot the same way
 * before the next round, and each trial ends with a collect whose totals must equal everything
 * the writers did. Any difference fails the trial. Memory and the same shapes as a plain program:
 * {@link ScaleBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"}) // 10000x256 holds ~450 MB of cells on the engine at 3ef2d35
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class CollectBenchmark {
    /** The original shape, 1,000 stats × 64 writers (also {@link CollectLockHold}'s). */
    static final int PAIRS = 500;
    static final int WRITERS = 64;

    @Param({"1000x64", "10000x256", "100000x16", "web-50x200"})
    public String shape;

    StatRegistry registry;
    ScaleBenchmark.Shape stats;
    private ScaleBenchmark.Crew writers;
    /** Update rounds the writers have done (each one: every stat once per writer). */
    int rounds;

    static ScaleBenchmark.Shape parse(String shape) {
        if (shape.equals("web-50x200")) {
            return new ScaleBenchmark.HistogramShape("web-50x200", "histograms x writers", 50, 200, 100, Double.NaN);
        }
        String[] nt = shape.split("x");
        int n = Integer.parseInt(nt[0]);
        if (nt.length != 2 || n % 2 != 0) {
            throw new IllegalArgumentException("shape " + shape + ": expected web-50x200 or NxT with N even");
        }
        return new ScaleBenchmark.MixedShape(shape, "counters and gauges x writers", n, Integer.parseInt(nt[1]), 0);
    }

    @Setup(Level.Trial)
    public void setup() throws InterruptedException {
        Crashes.install();
        stats = parse(shape);
        registry = stats.newRegistry();
        stats.register(registry);
        writers = new ScaleBenchmark.Crew("writer", stats.threads, stats::update);
        writers.round();
        rounds = 1;
        Crashes.check();
        require(stats.check(registry.collect(), 1, rounds), "first collect");
    }

    void require(String mismatch, String which) {
        if (mismatch != null) {
            throw new IllegalStateException(shape + ", " + which + ": " + mismatch);
        }
    }

    /** Runs one more update round on every writer; returns once all are parked again. */
    void updateRound() throws InterruptedException {
        writers.round();
        rounds++;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        try {
            require(stats.check(registry.collect(), 0, rounds), "closing collect (totals)");
        } finally {
            writers.close();
        }
        Crashes.check();
    }

    /** Per invocation of {@link #collectUpdated}: check the last snapshot, then update every cell. */
    @State(Scope.Benchmark)
    public static class Updated {
        Snapshot last;

        @Setup(Level.Invocation)
        public void updateEveryCell(CollectBenchmark b) throws InterruptedException {
            checkLast(b);
            b.updateRound();
        }

        @TearDown(Level.Trial)
        public void checkLast(CollectBenchmark b) {
            if (last != null) {
                b.require(b.stats.check(last, 1, b.rounds), "collect after round " + b.rounds);
                last = null;
            }
        }
    }

    @Benchmark
    public Snapshot collect() {
        return registry.collect();
    }

    @Benchmark
    public Snapshot collectUpdated(Updated u) {
        return u.last = registry.collect();
    }
}
