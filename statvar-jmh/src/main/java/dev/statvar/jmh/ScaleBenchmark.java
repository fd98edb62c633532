package dev.statvar.jmh;

import dev.statvar.Counter;
import dev.statvar.CounterValue;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * What statvar costs at the scale of a real server: retained heap per (stat, thread) and the time
 * of one {@code collect()} over many stats written by many live threads. Not a JMH benchmark:
 * memory is not a JMH metric, and a collect of N × T cells that were all written since the last
 * collect cannot be repeated millions of times. It uses statvar's public API only
 * ({@link StatRegistry}, {@link Counter}, {@link Gauge}, {@link Histogram}, {@link Snapshot}), so
 * this one file, copied into any checkout's {@code statvar-jmh}, measures that checkout's engine
 * and the results of two engines compare side by side (use {@code --label} and {@code --json}).
 *
 * <h2>Shapes</h2>
 * Each shape runs in a fresh registry, {@code StatRegistry.builder().maxStats(max(N,
 * DEFAULT_MAX_STATS))}, with its own platform threads. The threads are started first, stay alive
 * for the whole shape and are parked (in {@link LockSupport#park}, state {@code WAITING})
 * whenever anything is measured; all updates happen in rounds the main thread releases, and it
 * waits until every thread is parked again before it measures. Before each shape a miniature of
 * it (10 stats × 2 threads, unmeasured) loads every class the real run uses, so one-time class
 * and static state is already in the baseline. Targets (from the issue) in brackets.
 * <ul>
 *   <li>{@code calibrate}: no statvar; 64 threads each hold an {@code Object[5001]} of 5,000
 *       {@code long[1]} and a {@code long[100000]}, whose size follows from the JVM's object
 *       layout (read from its flags). It checks the memory method itself: OK within 1 % + 64 KiB.</li>
 *   <li>{@code counters-once}: 5,000 counters × 64 threads, each thread adds 1 to each counter
 *       once [≤ 6 MiB].</li>
 *   <li>{@code counters-hot}: 1,000 counters × 64 threads, each thread adds 1 to each counter
 *       2,000 times, round-robin over the counters [≤ 2 MiB].</li>
 *   <li>{@code gauges-once}: 5,000 gauges × 64 threads, one report per (gauge, thread)
 *       [≤ 64 B per (gauge, thread)].</li>
 *   <li>{@code webserver}: 50 histograms × 200 threads, each thread records 100 values into each
 *       histogram, log-uniform over 10 µs .. 1 s in ns [≤ 8 MiB].</li>
 *   <li>{@code collect-1k-64}, {@code collect-10k-64}, {@code collect-10k-256},
 *       {@code collect-100k-16}: N stats (half counters, half gauges, registered interleaved) × T
 *       threads. Every round, each thread updates every stat once, then one {@code collect()} is
 *       timed; so every collect reads N × T cells that all changed since the last one
 *       [median ≤ 1.5 ns per (stat, thread) cell + 100 ns per stat; 10k × 256 also ≤ 5 ms,
 *       100k × 16 ≤ 15 ms].</li>
 *   <li>{@code collect-10k-64-counters}, {@code collect-10k-64-gauges}: diagnostic, collect-10k-64
 *       with one kind only (10,000 counters, or 10,000 gauges), to split a collect's cost by kind:
 *       a counter is one cell, a gauge the min/max protocol's cells (no target of their own; the
 *       verdict column applies the formula).</li>
 * </ul>
 * {@code --quick} divides the stats and the per-thread repetitions by 10 (thread counts stay);
 * its memory targets scale per (stat, thread), its collect targets by the formula.
 *
 * <h2>Memory (calibrate and the next four shapes)</h2>
 * Retained heap is the lowest of 5 readings of the heap in use right after {@link System#gc()}:
 * a 100 ms sleep, the GC, then the heap pools' usage as that GC left them
 * ({@link MemoryPoolMXBean#getCollectionUsage()}; heap used read any later also counts the TLABs
 * taken since, whole). The baseline is read with the registry holding every stat (one collect
 * done), the threads alive and parked but not having updated anything; so thread objects,
 * handles and registration are excluded, and what remains is what updating costs: every
 * per-thread and per-(stat, thread) structure the engine creates (per-thread headers too,
 * amortised over the stats). It is read twice after the updates, before the first collect and
 * after it (a collect may create or free per-thread state); the figure judged is the larger. Not
 * measured: off-heap memory, metaspace, thread stacks, and garbage (only what stays live counts).
 *
 * <h2>Collect time</h2>
 * Wall time of {@code registry.collect()} by {@link System#nanoTime()} on the main thread, with
 * every writer parked, including building the {@link Snapshot} (what a caller gets); also that
 * thread's CPU time, which a busy machine inflates less. Collect shapes: unmeasured warm-up
 * rounds, at least 10 and 2 s (so the JIT has compiled the collect; the first collect is
 * reported on its own), then {@code --repeats} measured rounds
 * (default 30); median, min, max, and ns per (stat, thread) cell of the median. Memory shapes:
 * the first collect after the updates, then the same warm-up and {@code --repeats} (default 10)
 * more, with no updates in between (empty intervals over live cells: a lower bound). GC is left to run; how many timed
 * collects a GC overlapped is in the JSON.
 *
 * <h2>Exactness</h2>
 * After every collect the snapshot is checked against what the threads did: counter values and
 * totals; gauge counts, sums, min and max; histogram counts, sums, min and max (the expected
 * histogram values are replayed from each thread's deterministic generator). Any difference
 * fails the run (exit status 1): the benchmark is also a check that nothing is lost at scale.
 *
 * <h2>JVM flags</h2>
 * Recommended: {@code -Xms2g -Xmx2g -XX:+UseParallelGC}. Parallel GC's {@code System.gc()} is a
 * full collection with maximum compaction (the default {@code UseMaximumCompactionOnSystemGC}),
 * so what the pools hold after it is the live data: {@code calibrate} measured its known size to
 * within 1 KiB on JDK 17 and 25 with Parallel, Serial and G1 alike, except for one thing. G1 (the
 * default) counts an object of half a region or more (a humongous object) as whole regions: the
 * {@code long[100000]} of {@code calibrate} (800 KB, in a 1 MiB region at this heap size) reads
 * as 1 MiB, and so does the current engine's per-thread array of 5,000 gauges (920 KB). That is
 * memory G1 really holds, but how much it adds depends on the heap's region size; so
 * compare engines under Parallel GC, and read G1's figures as "what the default collector
 * holds". A fixed 2 GiB heap holds the largest shape (collect-10k-256 on the engine at 3ef2d35:
 * about 450 MB of cells) without resizing. Collect times depend on the collector too (barriers,
 * allocation of the snapshot): run both engines with the same flags. {@code -XX:+AlwaysPreTouch}:
 * a run allocates too little to fill the young generation even once, so without it every page a
 * collect's values land on is a fresh one, and the kernel's first touch of it (a page fault and
 * the page's zeroing) was charged to the collect: about 55 us of a 0.3 ms {@code collect-1k-64}
 * on the Xeon 6/207 (docs/PERFORMANCE.md). A server's young generation has been touched since its
 * first GC cycles.
 *
 * <p>Run: {@code java -Xms2g -Xmx2g -XX:+UseParallelGC -XX:+AlwaysPreTouch -cp statvar-jmh/target/benchmarks.jar
 * dev.statvar.jmh.ScaleBenchmark [--shape NAME[,NAME..]] [--repeats N] [--quick] [--json FILE] [--label TEXT]}
 */
public final class ScaleBenchmark {
    static final String FLAGS = "-Xms2g -Xmx2g -XX:+UseParallelGC -XX:+AlwaysPreTouch";
    static final double MIB = 1024.0 * 1024.0;
    static final int HEAP_READINGS = 5;
    static final int COLLECT_WARMUP = 10;
    /** Minimum warm-up time of a collect shape (--quick: 0.2 s). */
    static long warmupNanos = 2_000_000_000L;
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ScaleBenchmark() {
    }

    // ------------------------------------------------------------------ shapes

    /** One scenario: what to register, what each thread does per round, what a snapshot must show. */
    abstract static class Shape {
        final String name;
        final String what;
        final int stats;
        final int threads;
        final boolean collectShape;
        /** Memory target in bytes per (stat, thread), NaN for none. */
        final double targetBytesPerPair;
        /** A round-number cap of the issue for the full-size shape, 0 for none. */
        long capNanos;

        Shape(String name, String what, int stats, int threads, boolean collectShape, double targetBytesPerPair) {
            this.name = name;
            this.what = what;
            this.stats = stats;
            this.threads = threads;
            this.collectShape = collectShape;
            this.targetBytesPerPair = targetBytesPerPair;
        }

        long pairs() {
            return (long) stats * threads;
        }

        /**
         * The default limit, raised where the shape needs more (the default may differ between
         * engines); {@code --hot-after N} sets the builder's hotAfter, by reflection, so that this
         * file still builds against an engine without it.
         */
        StatRegistry newRegistry() {
            StatRegistry.Builder b = StatRegistry.builder().maxStats(Math.max(stats, StatRegistry.DEFAULT_MAX_STATS));
            if (hotAfter > 0) {
                try {
                    StatRegistry.Builder.class.getMethod("hotAfter", int.class).invoke(b, hotAfter);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("--hot-after: this engine's StatRegistry.Builder has no hotAfter(int)", e);
                }
            }
            return b.build();
        }

        /** Drops the handles, so nothing of this shape stays reachable during the next one. */
        abstract void release();

        /** The same shape at another size (the unmeasured miniature run before the real one). */
        abstract Shape resized(int stats, int threads);

        /** Registers the stats and keeps the handles (before the threads start). */
        abstract void register(StatRegistry r);

        /** One round of thread {@code w}'s updates. */
        abstract void update(int w);

        /**
         * Null when the snapshot shows exactly {@code inInterval} rounds in this interval and
         * {@code total} rounds since the start; otherwise the first difference.
         */
        abstract String check(Snapshot s, int inInterval, int total);

        /** The target, as text ("" for none). */
        String target() {
            if (collectShape) {
                String s = String.format(Locale.ROOT, "<= %.3f ms (1.5 ns/cell + 100 ns/stat)", collectBudgetNanos() / 1e6);
                return capNanos == 0 ? s : s + String.format(Locale.ROOT, ", <= %.0f ms", capNanos / 1e6);
            }
            return Double.isNaN(targetBytesPerPair) ? "" : String.format(Locale.ROOT, "<= %.2f MiB (%.1f B/pair)",
                    targetBytesPerPair * pairs() / MIB, targetBytesPerPair);
        }

        /** Collect budget in ns: 1.5 ns per cell + 100 ns per stat (the target). */
        long collectBudgetNanos() {
            return (long) (1.5 * pairs() + 100.0 * stats);
        }
    }

    /** Counters: each thread adds 1 to every counter {@code adds} times, round-robin. */
    static final class CounterShape extends Shape {
        final int adds;
        Counter[] counters;

        CounterShape(String name, String what, int stats, int threads, int adds, double targetBytesPerPair) {
            super(name, what, stats, threads, false, targetBytesPerPair);
            this.adds = adds;
        }

        @Override
        void release() {
            counters = null;
        }

        @Override
        Shape resized(int stats, int threads) {
            return new CounterShape(name, what, stats, threads, adds, targetBytesPerPair);
        }

        @Override
        void register(StatRegistry r) {
            counters = new Counter[stats];
            for (int i = 0; i < stats; i++) {
                counters[i] = r.counter("c" + i);
            }
        }

        @Override
        void update(int w) {
            Counter[] cs = counters;
            for (int k = 0; k < adds; k++) {
                for (Counter c : cs) {
                    c.add();
                }
            }
        }

        @Override
        String check(Snapshot s, int inInterval, int total) {
            List<StatValue> vs = s.values();
            if (vs.size() != stats) {
                return "snapshot has " + vs.size() + " stats, expected " + stats;
            }
            long per = (long) threads * adds;
            for (int i = 0; i < stats; i++) {
                CounterValue c = (CounterValue) vs.get(i);
                if (c.value() != per * inInterval || c.total() != per * total) {
                    return c.name() + ": value " + c.value() + " total " + c.total() + ", expected "
                            + per * inInterval + " total " + per * total;
                }
            }
            return null;
        }
    }

    /** Gauges: each thread reports {@code w * 1000 + i} to gauge i once per round. */
    static final class GaugeShape extends Shape {
        Gauge[] gauges;

        GaugeShape(String name, String what, int stats, int threads, double targetBytesPerPair) {
            super(name, what, stats, threads, false, targetBytesPerPair);
        }

        @Override
        void release() {
            gauges = null;
        }

        @Override
        Shape resized(int stats, int threads) {
            return new GaugeShape(name, what, stats, threads, targetBytesPerPair);
        }

        @Override
        void register(StatRegistry r) {
            gauges = new Gauge[stats];
            for (int i = 0; i < stats; i++) {
                gauges[i] = r.gauge("g" + i);
            }
        }

        @Override
        void update(int w) {
            Gauge[] gs = gauges;
            long base = w * 1000L;
            for (int i = 0; i < gs.length; i++) {
                gs[i].report(base + i);
            }
        }

        @Override
        String check(Snapshot s, int inInterval, int total) {
            List<StatValue> vs = s.values();
            if (vs.size() != stats) {
                return "snapshot has " + vs.size() + " stats, expected " + stats;
            }
            long t = threads;
            for (int i = 0; i < stats; i++) {
                String e = checkGauge((GaugeValue) vs.get(i), t, 1000L * (t * (t - 1) / 2) + t * i, i,
                        (t - 1) * 1000L + i, inInterval, total);
                if (e != null) {
                    return e;
                }
            }
            return null;
        }
    }

    /** Counters and gauges registered interleaved; every round each thread updates each once. */
    static final class MixedShape extends Shape {
        /** Which stats a mixed shape registers: half each (interleaved), or only one kind (diagnostic). */
        enum Mix { HALF_EACH, COUNTERS_ONLY, GAUGES_ONLY }

        final Mix mix;
        Counter[] counters;
        Gauge[] gauges;

        MixedShape(String name, String what, int stats, int threads, long capNanos) {
            this(name, what, stats, threads, capNanos, Mix.HALF_EACH);
        }

        MixedShape(String name, String what, int stats, int threads, long capNanos, Mix mix) {
            super(name, what, stats, threads, true, Double.NaN);
            this.capNanos = capNanos;
            this.mix = mix;
        }

        @Override
        void release() {
            counters = null;
            gauges = null;
        }

        @Override
        Shape resized(int stats, int threads) {
            return new MixedShape(name, what, stats, threads, 0, mix);
        }

        @Override
        void register(StatRegistry r) {
            int nc = mix == Mix.GAUGES_ONLY ? 0 : mix == Mix.COUNTERS_ONLY ? stats : stats / 2;
            int ng = mix == Mix.HALF_EACH ? stats / 2 : stats - nc;
            counters = new Counter[nc];
            gauges = new Gauge[ng];
            for (int i = 0; i < Math.max(nc, ng); i++) { // interleaved when both
                if (i < nc) {
                    counters[i] = r.counter("c" + i);
                }
                if (i < ng) {
                    gauges[i] = r.gauge("g" + i);
                }
            }
        }

        @Override
        void update(int w) {
            Counter[] cs = counters;
            Gauge[] gs = gauges;
            for (int i = 0; i < cs.length; i++) {
                cs[i].add();
            }
            for (int i = 0; i < gs.length; i++) {
                gs[i].report(w + i);
            }
        }

        @Override
        String check(Snapshot s, int inInterval, int total) {
            List<StatValue> vs = s.values();
            if (vs.size() != counters.length + gauges.length) {
                return "snapshot has " + vs.size() + " stats, expected " + (counters.length + gauges.length);
            }
            long t = threads;
            for (StatValue v : vs) {
                int i = Integer.parseInt(v.name().substring(1));
                if (v instanceof CounterValue c) {
                    if (c.value() != t * inInterval || c.total() != t * total) {
                        return c.name() + ": value " + c.value() + " total " + c.total() + ", expected "
                                + t * inInterval + " total " + t * total;
                    }
                } else {
                    String e = checkGauge((GaugeValue) v, t, t * (t - 1) / 2 + t * i, i, t - 1 + i, inInterval, total);
                    if (e != null) {
                        return e;
                    }
                }
            }
            return null;
        }
    }

    /** Checks one gauge against {@code count} reports per round of sum {@code sum}, min and max. */
    static String checkGauge(GaugeValue g, long count, long sum, long min, long max, int inInterval, int total) {
        boolean ok = inInterval == 0
                ? g.count() == 0 && g.sum() == 0
                : g.count() == count && g.sum() == sum && g.min() == min && g.max() == max;
        ok &= g.totalCount() == count * total && g.totalSum() == sum * total;
        return ok ? null : g.name() + ": count " + g.count() + " sum " + g.sum() + " min " + g.min() + " max "
                + g.max() + " totalCount " + g.totalCount() + " totalSum " + g.totalSum() + ", expected count "
                + count * inInterval + " sum " + sum * inInterval + " min " + (inInterval == 0 ? "-" : min)
                + " max " + (inInterval == 0 ? "-" : max) + " totalCount " + count * total + " totalSum " + sum * total;
    }

    /** Histograms: each thread records {@code values} values into each histogram, round-robin. */
    static final class HistogramShape extends Shape {
        static final double LN_LO = Math.log(10_000);
        static final double LN_HI = Math.log(1_000_000_000);
        final int values;
        Histogram[] histograms;

        HistogramShape(String name, String what, int stats, int threads, int values, double targetBytesPerPair) {
            super(name, what, stats, threads, false, targetBytesPerPair);
            this.values = values;
        }

        @Override
        void release() {
            histograms = null;
        }

        @Override
        Shape resized(int stats, int threads) {
            return new HistogramShape(name, what, stats, threads, values, targetBytesPerPair);
        }

        @Override
        void register(StatRegistry r) {
            histograms = new Histogram[stats];
            for (int i = 0; i < stats; i++) {
                histograms[i] = r.histogram("h" + i);
            }
        }

        /** xorshift64*, seeded per thread, so the check can replay every value. */
        static long next(long x) {
            x ^= x >>> 12;
            x ^= x << 25;
            x ^= x >>> 27;
            return x;
        }

        /** Log-uniform over 10^4 .. 10^9 ns (StrictMath: the replay gives the same values). */
        static long value(long x) {
            double u = ((x * 0x2545F4914F6CDD1DL) >>> 11) * 0x1.0p-53;
            long v = (long) StrictMath.exp(LN_LO + u * (LN_HI - LN_LO));
            return Math.max(10_000, Math.min(1_000_000_000, v));
        }

        static long seed(int w) {
            return (w + 1) * 0x9E3779B97F4A7C15L;
        }

        @Override
        void update(int w) {
            Histogram[] hs = histograms;
            long x = seed(w);
            for (int k = 0; k < values; k++) {
                for (Histogram h : hs) {
                    x = next(x);
                    h.record(value(x));
                }
            }
        }

        /** Every round records the same values: sum, min, max per histogram, replayed once. */
        private long[][] expected;

        private long[][] expected() {
            if (expected == null) {
                long[] sum = new long[stats];
                long[] min = new long[stats];
                long[] max = new long[stats];
                Arrays.fill(min, Long.MAX_VALUE);
                for (int w = 0; w < threads; w++) { // replay every thread's values
                    long x = seed(w);
                    for (int k = 0; k < values; k++) {
                        for (int i = 0; i < stats; i++) {
                            x = next(x);
                            long v = value(x);
                            sum[i] += v;
                            min[i] = Math.min(min[i], v);
                            max[i] = Math.max(max[i], v);
                        }
                    }
                }
                expected = new long[][] {sum, min, max};
            }
            return expected;
        }

        @Override
        String check(Snapshot s, int inInterval, int total) {
            List<StatValue> vs = s.values();
            if (vs.size() != stats) {
                return "snapshot has " + vs.size() + " stats, expected " + stats;
            }
            long[][] e = expected();
            long[] sum = e[0];
            long[] min = e[1];
            long[] max = e[2];
            long count = (long) threads * values;
            for (int i = 0; i < stats; i++) {
                HistogramValue h = (HistogramValue) vs.get(i);
                HistogramValue t = h.totals();
                boolean ok = inInterval == 0 ? h.count() == 0 && h.sum() == 0
                        : h.count() == count && h.sum() == sum[i] && h.min() == min[i] && h.max() == max[i];
                ok &= t.count() == count * total && t.sum() == sum[i] * total;
                if (!ok) {
                    return h.name() + ": count " + h.count() + " sum " + h.sum() + " min " + h.min() + " max "
                            + h.max() + " total count " + t.count() + " total sum " + t.sum() + ", expected count "
                            + count * inInterval + " sum " + sum[i] * inInterval + " min " + min[i] + " max " + max[i]
                            + " total count " + count * total;
                }
            }
            return null;
        }
    }

    /**
     * No statvar: each thread holds an Object[stats] of long[1] and one long[20 * stats], a known
     * size (checks the method; the large array is what a collector rounding up large objects, as
     * G1 does, would overstate).
     */
    static final class CalibrationShape extends Shape {
        Object[][] held;

        CalibrationShape(int stats, int threads) {
            super("calibrate", "no statvar: each thread holds an Object[" + (stats + 1) + "]: " + stats
                    + " long[1] and a long[" + 20 * stats + "] (checks the heap method)", stats, threads, false, Double.NaN);
        }

        @Override
        void release() {
            held = null;
        }

        @Override
        Shape resized(int stats, int threads) {
            return new CalibrationShape(stats, threads);
        }

        @Override
        void register(StatRegistry r) {
            held = new Object[threads][];
        }

        @Override
        void update(int w) {
            Object[] a = new Object[stats + 1];
            for (int i = 0; i < stats; i++) {
                a[i] = new long[1];
            }
            a[stats] = new long[20 * stats];
            held[w] = a;
        }

        @Override
        String check(Snapshot s, int inInterval, int total) {
            return null;
        }

        /** Expected bytes from the JVM's layout flags (null when they cannot be read). */
        Long expectedBytes() {
            Boolean oops = Jvm.flag("UseCompressedOops");
            Boolean klass = Jvm.flag("UseCompressedClassPointers");
            Boolean compact = Jvm.flag("UseCompactObjectHeaders"); // JDK 24+, absent before
            String align = Jvm.option("ObjectAlignmentInBytes");
            if (oops == null || klass == null || align == null) {
                return null;
            }
            int a = Integer.parseInt(align);
            int header = Boolean.TRUE.equals(compact) ? 8 : klass ? 12 : 16;
            int ref = oops ? 4 : 8;
            long longArray = alignUp(alignUp(header + 4, 8) + 8, a);
            long refArray = alignUp(alignUp(header + 4, ref) + (long) ref * (stats + 1), a);
            long big = alignUp(alignUp(header + 4, 8) + 8L * 20 * stats, a);
            return threads * (refArray + stats * longArray + big);
        }

        static long alignUp(long n, long a) {
            return (n + a - 1) / a * a;
        }
    }

    static List<Shape> shapes(boolean quick) {
        int q = quick ? 10 : 1;
        List<Shape> all = new ArrayList<>();
        all.add(new CalibrationShape(5_000 / q, 64));
        all.add(new CounterShape("counters-once", "counters x threads, each thread adds 1 to each counter once",
                5_000 / q, 64, 1, 6 * MIB / (5_000 * 64)));
        all.add(new CounterShape("counters-hot", "counters x threads, each thread adds 1 to each counter "
                + 2_000 / q + " times, round-robin", 1_000 / q, 64, 2_000 / q, 2 * MIB / (1_000 * 64)));
        all.add(new GaugeShape("gauges-once", "gauges x threads, one report per (gauge, thread)",
                5_000 / q, 64, 64.0));
        all.add(new HistogramShape("webserver", "histograms x threads, " + 100 / q
                + " records per (histogram, thread), log-uniform 10 us .. 1 s in ns", 50 / q, 200, 100 / q,
                8 * MIB / (50 * 200)));
        String mixed = "counters and gauges (half each, interleaved) x threads, each cell updated before each collect";
        all.add(new MixedShape("collect-1k-64", mixed, 1_000 / q, 64, 0));
        all.add(new MixedShape("collect-10k-64", mixed, 10_000 / q, 64, 0));
        all.add(new MixedShape("collect-10k-256", mixed, 10_000 / q, 256, quick ? 0 : 5_000_000));
        all.add(new MixedShape("collect-100k-16", mixed, 100_000 / q, 16, quick ? 0 : 15_000_000));
        // Diagnostic (no target of its own): collect-10k-64 with one kind only, to split its cost by kind.
        all.add(new MixedShape("collect-10k-64-counters", "counters only x threads, each cell updated before each collect",
                10_000 / q, 64, 0, MixedShape.Mix.COUNTERS_ONLY));
        all.add(new MixedShape("collect-10k-64-gauges", "gauges only x threads, each cell updated before each collect",
                10_000 / q, 64, 0, MixedShape.Mix.GAUGES_ONLY));
        return all;
    }

    // ------------------------------------------------------------------ threads

    /**
     * The shape's platform threads. Each waits parked until the main thread opens a round, runs
     * its updates, counts down, and parks again; {@link #round()} returns once all are parked.
     */
    static final class Crew {
        final Thread[] threads;
        volatile int round;
        volatile boolean stop;
        volatile CountDownLatch done;
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Crew(String name, int n, IntConsumer work) throws InterruptedException {
            threads = new Thread[n];
            for (int w = 0; w < n; w++) {
                int index = w;
                threads[w] = new Thread(() -> loop(index, work), name + "-" + w);
                threads[w].setDaemon(true);
            }
            for (Thread t : threads) {
                t.start();
            }
            awaitParked();
        }

        private void loop(int w, IntConsumer work) {
            int seen = 0;
            while (true) {
                int r;
                while ((r = round) == seen) {
                    LockSupport.park(this);
                }
                seen = r;
                if (stop) {
                    return;
                }
                try {
                    work.accept(w);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                } finally {
                    done.countDown();
                }
            }
        }

        /** Runs one round on every thread; returns its wall time in ns once all are parked again. */
        long round() throws InterruptedException {
            done = new CountDownLatch(threads.length);
            long t0 = System.nanoTime();
            round++; // publishes done
            for (Thread t : threads) {
                LockSupport.unpark(t);
            }
            done.await();
            long t = System.nanoTime() - t0;
            awaitParked();
            Throwable e = failure.get();
            if (e != null) {
                throw new IllegalStateException("an update thread failed", e);
            }
            return t;
        }

        /** Until every thread is parked in {@link #loop} (not merely between its count-down and park). */
        void awaitParked() throws InterruptedException {
            for (Thread t : threads) {
                while (!(t.getState() == Thread.State.WAITING && LockSupport.getBlocker(t) == this)) {
                    if (!t.isAlive()) {
                        throw new IllegalStateException(t.getName() + " died");
                    }
                    Thread.sleep(1);
                }
            }
        }

        void close() throws InterruptedException {
            stop = true;
            round++;
            for (Thread t : threads) {
                LockSupport.unpark(t);
            }
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    // ------------------------------------------------------------------ measurement

    /** One shape's results. */
    static final class Result {
        final Shape shape;
        long[] baselineReadings;
        long[] afterUpdatesReadings;
        long[] afterCollectReadings;
        long expectedBytes = -1; // calibrate only
        long updateNanos;
        long firstCollectNanos = -1;
        long[] collectNanos = new long[0];
        long[] collectCpuNanos = new long[0]; // the collecting thread's CPU time (-1: not supported)
        int collectsWithGc;
        String inexact;
        boolean quiet; // the miniature: no progress lines, one heap reading, no warm-up time
        int warmupRounds;

        void progress(String format, Object... args) {
            String line = String.format(Locale.ROOT, format, args); // quiet too: loads the formatting classes
            if (!quiet) {
                System.err.println(line);
            }
        }

        long[] retainedHeap() throws InterruptedException {
            return ScaleBenchmark.retainedHeap(quiet ? 1 : HEAP_READINGS);
        }

        Result(Shape shape) {
            this.shape = shape;
        }

        boolean hasMemory() {
            return baselineReadings != null;
        }

        long bytes() {
            return Math.max(min(afterUpdatesReadings), afterCollectReadings == null ? Long.MIN_VALUE
                    : min(afterCollectReadings)) - min(baselineReadings);
        }

        double bytesPerPair() {
            return (double) bytes() / shape.pairs();
        }

        long median() {
            return ScaleBenchmark.median(collectNanos);
        }

        double nsPerCell() {
            return (double) median() / shape.pairs();
        }

        /** PASS / MISS / INEXACT, or null when there is no target. */
        String verdict() {
            if (inexact != null) {
                return "INEXACT";
            }
            if (shape instanceof CalibrationShape) {
                if (expectedBytes < 0) {
                    return null;
                }
                return Math.abs(bytes() - expectedBytes) <= 0.01 * expectedBytes + 64 * 1024 ? "OK" : "OFF";
            }
            if (shape.collectShape) {
                long m = median();
                return m <= shape.collectBudgetNanos() && (shape.capNanos == 0 || m <= shape.capNanos) ? "PASS" : "MISS";
            }
            return bytesPerPair() <= shape.targetBytesPerPair ? "PASS" : "MISS";
        }

        String target() {
            if (shape instanceof CalibrationShape) {
                return expectedBytes < 0 ? "expected size unknown" : String.format(Locale.ROOT, "expect %.2f MiB",
                        expectedBytes / MIB);
            }
            return shape.target();
        }
    }

    static Result run(Shape shape, int repeats) throws InterruptedException {
        progress("%s: %,d stats x %d threads (%s)", shape.name, shape.stats, shape.threads, shape.what);
        // Unmeasured miniature first: loads every class the real run uses (class mirrors and static
        // state are heap too, a one-time cost per JVM that the baseline must already hold).
        Shape mini = shape.resized(Math.min(shape.stats, 10), 2);
        Result warm = runSized(mini, 2, true);
        Result res = runSized(shape, repeats, false);
        if (res.inexact == null) {
            res.inexact = warm.inexact;
        }
        return res;
    }

    static Result runSized(Shape shape, int repeats, boolean quiet) throws InterruptedException {
        Result res = new Result(shape);
        res.quiet = quiet;
        StatRegistry registry = shape.newRegistry();
        shape.register(registry);
        Crew crew = new Crew(shape.name, shape.threads, shape::update);
        try {
            if (shape.collectShape) {
                measureCollects(shape, registry, crew, res, repeats);
            } else {
                measureMemory(shape, registry, crew, res, repeats);
            }
        } finally {
            crew.close();
        }
        return res;
    }

    static void measureMemory(Shape shape, StatRegistry registry, Crew crew, Result res, int repeats)
            throws InterruptedException {
        boolean statvar = !(shape instanceof CalibrationShape);
        if (statvar) {
            check(res, registry.collect(), 0, 0); // registration's own collect-side state is in the baseline
        }
        res.baselineReadings = res.retainedHeap();
        res.progress("  baseline (stats registered, %d threads parked, no update): %.2f MiB", shape.threads,
                min(res.baselineReadings) / MIB);
        res.updateNanos = crew.round();
        res.progress("  updates: %.0f ms", res.updateNanos / 1e6);
        res.afterUpdatesReadings = res.retainedHeap();
        res.progress("  after the updates: +%.2f MiB", (min(res.afterUpdatesReadings) - min(res.baselineReadings)) / MIB);
        if (!statvar) {
            res.expectedBytes = nullToMinus1(((CalibrationShape) shape).expectedBytes());
            return;
        }
        long t0 = System.nanoTime();
        Snapshot s = registry.collect();
        res.firstCollectNanos = System.nanoTime() - t0;
        check(res, s, 1, 1);
        s = null; // not retained by the next readings
        res.afterCollectReadings = res.retainedHeap();
        res.progress("  after the first collect (%.2f ms): +%.2f MiB", res.firstCollectNanos / 1e6,
                (min(res.afterCollectReadings) - min(res.baselineReadings)) / MIB);
        res.collectNanos = new long[repeats];
        res.collectCpuNanos = new long[repeats];
        long warmupEnd = System.nanoTime() + (res.quiet ? 0 : warmupNanos);
        for (int i = 0; i < COLLECT_WARMUP || System.nanoTime() - warmupEnd < 0; i++) {
            timedCollect(registry, res, -1, 0, 1); // warm-up, as for the collect shapes
            res.warmupRounds++;
        }
        for (int i = 0; i < repeats; i++) {
            timedCollect(registry, res, i, 0, 1);
        }
    }

    static void measureCollects(Shape shape, StatRegistry registry, Crew crew, Result res, int repeats)
            throws InterruptedException {
        // Warm-up (unmeasured): at least COLLECT_WARMUP rounds and WARMUP_NANOS, so the JIT has compiled collect.
        int minWarmup = Math.min(COLLECT_WARMUP, Math.max(1, repeats / 3));
        long warmupEnd = System.nanoTime() + (res.quiet ? 0 : warmupNanos);
        res.collectNanos = new long[repeats];
        res.collectCpuNanos = new long[repeats];
        long progressAt = System.nanoTime() + 2_000_000_000L;
        int r = 0;
        int measured = 0;
        while (measured < repeats) {
            r++;
            boolean warm = r > minWarmup && System.nanoTime() - warmupEnd >= 0;
            long u = crew.round();
            if (r == 1) {
                res.updateNanos = u;
            }
            long t = timedCollect(registry, res, warm ? measured++ : -1, 1, r);
            if (r == 1) {
                res.firstCollectNanos = t;
            }
            if (System.nanoTime() > progressAt || measured == repeats) {
                res.progress("  round %d (%s): updates %.1f ms, collect %.2f ms", r,
                        warm ? "measured " + measured + "/" + repeats : "warm-up", u / 1e6, t / 1e6);
                progressAt = System.nanoTime() + 2_000_000_000L;
            }
        }
        res.warmupRounds = r - repeats;
    }

    /**
     * One timed collect, checked against {@code inInterval} rounds in it and {@code total} in all;
     * kept as measurement {@code slot} unless that is negative (warm-up). Returns its wall time.
     */
    static long timedCollect(StatRegistry registry, Result res, int slot, int inInterval, int total) {
        long gc0 = gcCount();
        long c0 = cpuNanos();
        long t0 = System.nanoTime();
        Snapshot s = registry.collect();
        long t = System.nanoTime() - t0;
        long c = c0 < 0 ? -1 : cpuNanos() - c0;
        if (slot >= 0) {
            res.collectNanos[slot] = t;
            res.collectCpuNanos[slot] = c;
            if (gcCount() != gc0) {
                res.collectsWithGc++;
            }
        }
        check(res, s, inInterval, total);
        return t;
    }

    static long cpuNanos() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : -1;
    }

    static void check(Result res, Snapshot s, int inInterval, int total) {
        String e = res.shape.check(s, inInterval, total);
        if (e != null && res.inexact == null) {
            res.inexact = (res.quiet ? "in the unmeasured miniature run: " : "") + e;
            progress("  EXACTNESS FAILURE: %s", e);
        }
    }

    /**
     * Readings of the heap in use right after a full GC (the lowest is the figure): a short sleep
     * (reference processing, cleaners), {@link System#gc()}, then the heap pools' usage as that GC
     * left it ({@link MemoryPoolMXBean#getCollectionUsage()}). Not {@code MemoryMXBean} heap used read
     * afterwards: that also counts whatever was allocated since the GC, and a thread's first
     * allocation after it claims a whole TLAB (several MiB on JDK 25), all counted as used.
     */
    static long[] retainedHeap(int readings) throws InterruptedException {
        long[] r = new long[readings];
        for (int i = 0; i < r.length; i++) {
            Thread.sleep(100);
            System.gc();
            long used = 0;
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                MemoryUsage u = p.getType() == MemoryType.HEAP ? p.getCollectionUsage() : null;
                used += u == null ? 0 : u.getUsed();
            }
            r[i] = used;
        }
        return r;
    }

    static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
        }
        return n;
    }

    static long min(long[] a) {
        return Arrays.stream(a).min().orElseThrow();
    }

    static long median(long[] a) {
        long[] s = a.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    static long nullToMinus1(Long v) {
        return v == null ? -1 : v;
    }

    static void progress(String format, Object... args) {
        System.err.println(String.format(Locale.ROOT, format, args));
    }

    // ------------------------------------------------------------------ main, table, JSON

    /** {@code --hot-after N}: the registries' hotAfter (0: the engine's default). */
    static int hotAfter;

    public static void main(String[] args) throws Exception {
        List<String> names = new ArrayList<>();
        int repeats = -1;
        boolean quick = false;
        String json = null;
        String label = "";
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--shape" -> names.addAll(Arrays.asList(args[++i].split(",")));
                    case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                    case "--quick" -> quick = true;
                    case "--json" -> json = args[++i];
                    case "--label" -> label = args[++i];
                    case "--hot-after" -> {
                        hotAfter = Integer.parseInt(args[++i]);
                        if (hotAfter < 1) {
                            throw new IllegalArgumentException("--hot-after must be at least 1");
                        }
                    }
                    case "--help", "-h" -> {
                        usage(System.out);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (repeats == 0 || repeats < -1) {
                throw new IllegalArgumentException("--repeats must be at least 1");
            }
        } catch (RuntimeException e) {
            System.err.println(e instanceof ArrayIndexOutOfBoundsException ? "missing value for " + args[args.length - 1]
                    : e.getMessage());
            usage(System.err);
            System.exit(2);
        }
        List<Shape> all = shapes(quick);
        if (quick) {
            warmupNanos = 200_000_000L;
        }
        List<Shape> chosen = new ArrayList<>();
        if (names.isEmpty()) {
            chosen.addAll(all);
        }
        for (String n : names) {
            Shape s = all.stream().filter(x -> x.name.equals(n)).findFirst().orElse(null);
            if (s == null) {
                System.err.println("unknown shape " + n);
                usage(System.err);
                System.exit(2);
            }
            chosen.add(s);
        }
        Map<String, Object> machine = Jvm.machine();
        progress("ScaleBenchmark%s%s on %s, %s CPUs, %s %s; JVM flags %s (recommended: %s)",
                quick ? " --quick" : "", label.isEmpty() ? "" : " [" + label + "]", machine.get("model_name"),
                machine.get("cpus"), System.getProperty("java.vm.vendor"), System.getProperty("java.vm.version"),
                ManagementFactory.getRuntimeMXBean().getInputArguments(), FLAGS);
        String started = Instant.now().toString();
        String loadBefore = Jvm.loadAverage();
        List<Result> results = new ArrayList<>();
        for (Shape s : chosen) {
            int n = repeats > 0 ? repeats : s.collectShape ? (quick ? 5 : 30) : (quick ? 3 : 10);
            results.add(run(s, n));
            s.release(); // nothing of this shape stays reachable during the next one
        }
        printTable(results, System.out);
        if (quick) {
            System.out.println("--quick: a smoke run (0.2 s of warm-up, few repeats); its times are not steady-state figures");
        }
        System.out.println("load average before: " + loadBefore + "; after: " + Jvm.loadAverage());
        boolean inexact = results.stream().anyMatch(r -> r.inexact != null);
        if (json != null) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("benchmark", "dev.statvar.jmh.ScaleBenchmark");
            doc.put("label", label);
            doc.put("hot_after", hotAfter == 0 ? "engine default" : String.valueOf(hotAfter));
            doc.put("quick", quick);
            doc.put("started", started);
            doc.put("finished", Instant.now().toString());
            doc.put("load_average_before", loadBefore);
            doc.put("load_average_after", Jvm.loadAverage());
            doc.put("machine", machine);
            doc.put("jvm", Jvm.jvm());
            doc.put("statvar", Jvm.statvar());
            doc.put("heap_method", "lowest of " + HEAP_READINGS + " readings of the heap pools' usage right after"
                    + " System.gc() (100 ms sleep, System.gc(), MemoryPoolMXBean.getCollectionUsage summed over heap pools);"
                    + " minus the same with the stats registered and the threads parked, not updated");
            List<Object> rs = new ArrayList<>();
            for (Result r : results) {
                rs.add(toJson(r));
            }
            doc.put("results", rs);
            doc.put("exact", !inexact);
            Path p = Path.of(json);
            if (p.toAbsolutePath().getParent() != null) {
                Files.createDirectories(p.toAbsolutePath().getParent());
            }
            Files.writeString(p, Json.write(doc) + "\n", StandardCharsets.UTF_8);
            progress("JSON: %s", p.toAbsolutePath());
        }
        if (inexact) {
            System.err.println("EXACTNESS FAILURE: a snapshot differed from what the threads did (see above)");
            System.exit(1);
        }
    }

    static void usage(java.io.PrintStream out) {
        out.println("Usage: java " + FLAGS + " -cp statvar-jmh/target/benchmarks.jar dev.statvar.jmh.ScaleBenchmark \\");
        out.println("         [--shape NAME[,NAME..]] [--repeats N] [--quick] [--json FILE] [--label TEXT] [--hot-after N]");
        out.println("Recommended JVM flags: " + FLAGS + " (Parallel GC's System.gc() compacts fully and, unlike G1,");
        out.println("  it does not count a large array as whole regions; 2 GiB fixed holds the largest shape; pre-touched, so");
        out.println("  that the kernel's first touch of young-generation pages is not charged to the collects).");
        out.println("  Compare engines with the same flags.");
        out.println("  --shape    one or more of the shapes below (default: all, in this order)");
        out.println("  --repeats  timed collects per shape (default 30 for collect-*, 10 for the memory shapes; --quick: 5, 3)");
        out.println("  --quick    a smoke run: stats and per-thread updates divided by 10, same thread counts");
        out.println("  --json     also write the results and the machine's facts to FILE");
        out.println("  --label    a tag for the run in the JSON, e.g. before / after");
        out.println("  --hot-after  the registries' StatRegistry.Builder.hotAfter(N) (1: every thread hot at once); default: the engine's");
        out.println("Shapes:");
        for (Shape s : shapes(false)) {
            out.printf(Locale.ROOT, "  %-16s %,7d x %3d  %s%n", s.name, s.stats, s.threads, s.what);
            if (!s.target().isEmpty()) {
                out.printf(Locale.ROOT, "  %-16s %13s  target %s%n", "", "", s.target());
            }
        }
        out.println("Exit status 1 if a snapshot differs from what the threads did, 2 on a usage error.");
    }

    static void printTable(List<Result> results, java.io.PrintStream out) {
        String head = String.format(Locale.ROOT, "%-16s %15s %9s %9s %8s %8s %8s %8s %8s %8s  %-8s %s",
                "shape", "stats x threads", "heap MiB", "B/pair", "first ms", "med ms", "min ms", "max ms",
                "cpu ms", "ns/cell", "verdict", "target");
        out.println(head);
        for (Result r : results) {
            boolean collects = r.collectNanos.length > 0;
            boolean cpu = collects && r.collectCpuNanos[0] >= 0;
            out.println(String.format(Locale.ROOT, "%-16s %15s %9s %9s %8s %8s %8s %8s %8s %8s  %-8s %s",
                    r.shape.name, String.format(Locale.ROOT, "%,d x %d", r.shape.stats, r.shape.threads),
                    r.hasMemory() ? String.format(Locale.ROOT, "%.2f", r.bytes() / MIB) : "-",
                    r.hasMemory() ? String.format(Locale.ROOT, "%.1f", r.bytesPerPair()) : "-",
                    r.firstCollectNanos >= 0 ? ms(r.firstCollectNanos) : "-",
                    collects ? ms(r.median()) : "-",
                    collects ? ms(min(r.collectNanos)) : "-",
                    collects ? ms(Arrays.stream(r.collectNanos).max().orElseThrow()) : "-",
                    cpu ? ms(median(r.collectCpuNanos)) : "-",
                    collects ? String.format(Locale.ROOT, "%.2f", r.nsPerCell()) : "-",
                    r.verdict() == null ? "-" : r.verdict(), r.target()));
        }
        out.println("heap: retained bytes after the updates over the baseline (B/pair: per (stat, thread)); collect: wall"
                + " time (median, min, max; cpu: the collecting thread's CPU time, median); ns/cell: wall median / (stats x threads)");
        for (Result r : results) {
            if (r.inexact != null) {
                out.println(r.shape.name + ": INEXACT: " + r.inexact);
            }
        }
    }

    static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }

    static Map<String, Object> toJson(Result r) {
        Map<String, Object> m = new LinkedHashMap<>();
        Shape s = r.shape;
        m.put("shape", s.name);
        m.put("description", s.what);
        m.put("stats", s.stats);
        m.put("threads", s.threads);
        m.put("update_round_ms", r.updateNanos / 1e6);
        if (r.hasMemory()) {
            m.put("heap_bytes", r.bytes());
            m.put("heap_mib", r.bytes() / MIB);
            m.put("bytes_per_stat_thread", r.bytesPerPair());
            m.put("heap_baseline_readings", r.baselineReadings);
            m.put("heap_after_updates_readings", r.afterUpdatesReadings);
            m.put("heap_after_updates_bytes", min(r.afterUpdatesReadings) - min(r.baselineReadings));
            if (r.afterCollectReadings != null) {
                m.put("heap_after_first_collect_readings", r.afterCollectReadings);
                m.put("heap_after_first_collect_bytes", min(r.afterCollectReadings) - min(r.baselineReadings));
            }
        }
        if (r.expectedBytes >= 0) {
            m.put("expected_bytes", r.expectedBytes);
        }
        if (r.firstCollectNanos >= 0) {
            m.put("first_collect_ms", r.firstCollectNanos / 1e6);
        }
        if (r.collectNanos.length > 0) {
            m.put("collect_median_ms", r.median() / 1e6);
            m.put("collect_min_ms", min(r.collectNanos) / 1e6);
            m.put("collect_max_ms", Arrays.stream(r.collectNanos).max().orElseThrow() / 1e6);
            m.put("collect_ns_per_cell", r.nsPerCell());
            m.put("collect_ns", r.collectNanos);
            m.put("warmup_collects", r.warmupRounds);
            if (r.collectCpuNanos.length > 0 && r.collectCpuNanos[0] >= 0) {
                m.put("collect_cpu_median_ms", median(r.collectCpuNanos) / 1e6);
                m.put("collect_cpu_ns", r.collectCpuNanos);
            }
            m.put("collects_overlapped_by_gc", r.collectsWithGc);
            m.put("collect_cells_changed", s.collectShape); // memory shapes: empty intervals over live cells
        }
        if (s.collectShape) {
            m.put("target_collect_ms", s.collectBudgetNanos() / 1e6);
            if (s.capNanos > 0) {
                m.put("target_collect_cap_ms", s.capNanos / 1e6);
            }
        } else if (!Double.isNaN(s.targetBytesPerPair)) {
            m.put("target_bytes_per_stat_thread", s.targetBytesPerPair);
            m.put("target_mib", s.targetBytesPerPair * s.pairs() / MIB);
        }
        m.put("target", r.target());
        m.put("verdict", r.verdict());
        m.put("exact", r.inexact == null);
        if (r.inexact != null) {
            m.put("inexact", r.inexact);
        }
        return m;
    }

    /** Facts about the machine, the JVM and the statvar checkout. */
    static final class Jvm {
        static Map<String, Object> machine() {
            Map<String, Object> m = new LinkedHashMap<>();
            Map<String, String> cpu = new LinkedHashMap<>();
            try {
                for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                    if (line.isBlank()) {
                        break; // the first processor is enough
                    }
                    int c = line.indexOf(':');
                    if (c > 0) {
                        cpu.put(line.substring(0, c).trim(), line.substring(c + 1).trim());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not Linux: leave the CPU fields out
            }
            for (String k : new String[] {"vendor_id", "cpu family", "model", "stepping", "model name", "cpu MHz"}) {
                m.put(k.replace(' ', '_'), cpu.get(k));
            }
            m.put("cpus", Runtime.getRuntime().availableProcessors());
            m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                    + System.getProperty("os.arch"));
            return m;
        }

        static Map<String, Object> jvm() {
            Map<String, Object> m = new LinkedHashMap<>();
            for (String k : new String[] {"java.version", "java.vm.version", "java.vm.vendor", "java.vm.name"}) {
                m.put(k, System.getProperty(k));
            }
            m.put("input_arguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
            List<String> gcs = new ArrayList<>();
            for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
                gcs.add(b.getName());
            }
            m.put("garbage_collectors", gcs);
            m.put("max_heap_bytes", Runtime.getRuntime().maxMemory());
            m.put("UseCompressedOops", flag("UseCompressedOops"));
            return m;
        }

        /** The git commit of the checkout the jar sits in (best effort; -Dstatvar.commit overrides). */
        static Map<String, Object> statvar() {
            Map<String, Object> m = new LinkedHashMap<>();
            String given = System.getProperty("statvar.commit");
            if (given != null) {
                m.put("commit", given);
                m.put("commit_source", "-Dstatvar.commit");
                return m;
            }
            try {
                Path jar = Path.of(ScaleBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                m.put("jar", jar.toString());
                m.put("jar_modified", Files.getLastModifiedTime(jar).toString());
                Path dir = jar.getParent();
                while (dir != null && !Files.exists(dir.resolve(".git"))) {
                    dir = dir.getParent();
                }
                if (dir != null) {
                    m.put("commit", git(dir, "rev-parse", "HEAD"));
                    m.put("statvar_core_commit", git(dir, "log", "-1", "--format=%H", "--", "statvar-core"));
                    String dirty = git(dir, "status", "--porcelain", "--untracked-files=no", "--", "statvar-core");
                    m.put("statvar_core_uncommitted_changes", dirty == null ? null : !dirty.isEmpty());
                    m.put("commit_source", "git in " + dir + " (the checkout the jar was found in; the jar may"
                            + " have been built before its last changes)");
                }
            } catch (Exception e) {
                m.put("commit_error", e.toString());
            }
            return m;
        }

        static String git(Path dir, String... args) {
            try {
                List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
                cmd.addAll(List.of(args));
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
            } catch (IOException | InterruptedException e) {
                return null;
            }
        }

        static String loadAverage() {
            try {
                return Files.readString(Path.of("/proc/loadavg")).trim();
            } catch (IOException e) {
                return null;
            }
        }

        static Boolean flag(String name) {
            String v = option(name);
            return v == null ? null : Boolean.valueOf(v);
        }

        /** A HotSpot VM option's value, or null (not HotSpot, or no such option). */
        static String option(String name) {
            try {
                return ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                        .getVMOption(name).getValue();
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }
    }

    /** A minimal JSON writer for maps, lists, strings, numbers, booleans and long arrays. */
    static final class Json {
        static String write(Object o) {
            StringBuilder sb = new StringBuilder();
            write(sb, o, "");
            return sb.toString();
        }

        private static void write(StringBuilder sb, Object o, String indent) {
            if (o == null) {
                sb.append("null");
            } else if (o instanceof Map<?, ?> map) {
                sb.append("{");
                String in = indent + "  ";
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    sb.append(first ? "\n" : ",\n").append(in);
                    string(sb, String.valueOf(e.getKey()));
                    sb.append(": ");
                    write(sb, e.getValue(), in);
                    first = false;
                }
                sb.append(first ? "}" : "\n" + indent + "}");
            } else if (o instanceof List<?> list) {
                sb.append("[");
                String in = indent + "  ";
                for (int i = 0; i < list.size(); i++) {
                    sb.append(i == 0 ? "\n" : ",\n").append(in);
                    write(sb, list.get(i), in);
                }
                sb.append(list.isEmpty() ? "]" : "\n" + indent + "]");
            } else if (o instanceof long[] a) {
                sb.append("[");
                for (int i = 0; i < a.length; i++) {
                    sb.append(i == 0 ? "" : ", ").append(a[i]);
                }
                sb.append("]");
            } else if (o instanceof Double d) {
                sb.append(d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.4f", d));
            } else if (o instanceof Number || o instanceof Boolean) {
                sb.append(o);
            } else {
                string(sb, o.toString());
            }
        }

        private static void string(StringBuilder sb, String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    case '\t' -> sb.append("\\t");
                    default -> {
                        if (c < 0x20 || c > 0x7e) {
                            sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
        }
    }
}
