package dev.statvar.lab.counters;

import dev.statvar.lab.counters.baseline.Counter;
import dev.statvar.lab.counters.baseline.CounterValue;
import dev.statvar.lab.counters.baseline.Gauge;
import dev.statvar.lab.counters.baseline.GaugeValue;
import dev.statvar.lab.counters.baseline.Implementations.Impl;
import dev.statvar.lab.counters.baseline.IndirectCounter;
import dev.statvar.lab.counters.baseline.ServerCounter;
import dev.statvar.lab.counters.baseline.ServerGauge;
import dev.statvar.lab.kit.HostSlowdown;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Measures the cells (delay factor × thread count) of one implementation in this JVM: for each
 * cell the article's test, run {@code warmups + repeats} times on fresh instances, each run
 * preceded by a run of the base loop (the same loop with no update) with the same delay and
 * threads, printing one {@code RESULT} line per run with both times: the measured runs, and the
 * warm-up and redone runs too ({@code phase=}), whose counts are judged like the measured ones'.
 * Started in a fresh JVM per implementation by {@link Forker}.
 *
 * <pre>
 * Protocol ("Statistical variables in Java: not quite legal but very fast" (2017), "The tests")
 * --------
 * Workers: view = stat.getThreadLocalView() (taken in the worker);
 *          while (running) { for j in 1..delay: sum += 1.0/j; view.add() (gauges: view.report(n &amp; 1023)); n++ }
 *          The article's loop shape: the volatile running flag is read every iteration (a plain
 *          load on x86, but one the JIT must keep, so the base loop at delay 0 is a real loop of
 *          a flag read and n++, as the article's EmptyCounter was, not code the JIT removes). The
 *          loop runs in batches of at most BATCH iterations in a method of its own, so that the JIT
 *          compiles it as a normal method during the warm-up repeats (not only by OSR). The
 *          delay work is a method the JIT must not inline (Forker's flags): compiled once, it is
 *          the same machine code in the base's loop and the implementation's, so their difference
 *          is the update (inlined, its code, and so its time, would vary with the loop around it
 *          by more than a cheap update costs: tens of ns at delay 100). The call costs both
 *          loops the same and cancels out; at delay 0 there is no call.
 * Base:    the same loop without the update (what the article's EmptyCounter measures once
 *          inlined), in a method of its own so that it cannot change the update call site's
 *          profile. It runs in the same JVM, right before each run of the implementation: the
 *          delay loop's compiled code, and so its time, differs from one JVM to the next by more
 *          than a cheap counter costs, so a base taken in another JVM cannot be subtracted.
 * Collector (this thread): every interval, getAndReset(); for indirect implementations the
 *          lazy retrieval: fetch the value object on one half-interval and read it on the next
 *          (the cool-down is half the interval, as the article's). After the workers stop and are
 *          joined: a last retrieval. Gauges: every retrieved interval with reports must have
 *          0 &lt;= min &lt;= max &lt;= 1023 (the workers report n &amp; 1023); one that has not is a bad interval.
 * Per thread: wall time and CPU time of its loop, and its op count.
 * Disturbed runs: with several threads that fit the cores, the base must run as fast as with one
 *          thread (the article: "the performance does not depend on the number of threads, as
 *          long as they fit into physical cores"). On a virtual machine it sometimes does not: for
 *          whole runs both wall and thread CPU time per op double (the host runs the two vCPUs on
 *          one physical core, or steals them), which no scheduler statistic shows. So the
 *          implementation's run is bracketed: the base run before it, and a short probe of the
 *          base loop ({@link #PROBE_FRACTION} of a run) right after it. Either slower than
 *          {@link #DISTURBED} x the fastest one-thread base of the same delay in this JVM marks the
 *          pair (base, implementation) as disturbed; it is run again, at most {@link #MAX_REDO}
 *          times, and the RESULT line says how often ({@code redone}). A disturbance inside the
 *          measured run that both brackets miss is left to the report's test for two levels.
 * </pre>
 */
public final class CellRunner {
    /** Iterations of one call of a batch method (each iteration still reads the stop flag). */
    static final int BATCH = 1024;

    /** A base this much slower than the one-thread base of the same delay marks a disturbed run (the kit's rule). */
    static final double DISTURBED = HostSlowdown.FACTOR;
    /** Re-runs of a disturbed pair, at most. */
    static final int MAX_REDO = HostSlowdown.MAX_REDO;
    /** The probe after a measured run lasts this fraction of a run (at least 10 ms). */
    static final double PROBE_FRACTION = 0.25;
    /** The largest value the gauge workers report ({@code n & 1023}). */
    static final long GAUGE_MAX = 1023;

    static volatile boolean running;

    private CellRunner() {
    }

    /** Args: kind name runMillis intervalMillis warmups repeats, then cells as {@code delay:threads}. */
    public static void main(String[] args) throws Exception {
        Catalog.Kind kind = Catalog.Kind.valueOf(args[0]);
        Impl<?> impl = Catalog.find(kind, args[1]);
        long runMillis = Long.parseLong(args[2]);
        long intervalMillis = Long.parseLong(args[3]);
        int warmups = Integer.parseInt(args[4]);
        int repeats = Integer.parseInt(args[5]);
        int cores = Runtime.getRuntime().availableProcessors();
        Map<Integer, Double> soloBase = new HashMap<>(); // delay -> fastest one-thread base, ns/op
        for (int a = 6; a < args.length; a++) {
            String[] cell = args[a].split(":");
            int delay = Integer.parseInt(cell[0]);
            int threads = Integer.parseInt(cell[1]);
            if (checked(delay, threads, cores) && !soloBase.containsKey(delay)) {
                runOnce(kind, null, delay, 1, runMillis, intervalMillis); // warms the base loop up
                soloBase.put(delay, runOnce(kind, null, delay, 1, runMillis, intervalMillis).wallNsPerOp());
            }
            long probeMillis = Math.max(10, (long) (runMillis * PROBE_FRACTION));
            for (int r = 0; r < warmups + repeats; r++) {
                String phase = r < warmups ? "warmup" : "measured";
                int repeat = r < warmups ? r : r - warmups;
                Result base;
                Result res;
                double after = Double.NaN;
                int redone = -1;
                boolean again;
                do {
                    redone++;
                    base = runOnce(kind, null, delay, threads, runMillis, intervalMillis);
                    res = runOnce(kind, impl, delay, threads, runMillis, intervalMillis);
                    if (threads == 1) {
                        soloBase.merge(delay, base.wallNsPerOp(), Math::min);
                    }
                    boolean check = checked(delay, threads, cores);
                    if (check) {
                        after = runOnce(kind, null, delay, threads, probeMillis, Math.min(intervalMillis, probeMillis)).wallNsPerOp();
                    }
                    again = redone < MAX_REDO && check && (disturbed(base.wallNsPerOp(), soloBase.get(delay))
                            || disturbed(after, soloBase.get(delay)));
                    if (again) { // its counts are judged too
                        System.out.println(res.line(delay, threads, repeat, base, after, redone, "redone"));
                    }
                } while (again);
                System.out.println(res.line(delay, threads, repeat, base, after, redone, phase));
                System.out.println("PROGRESS delay=" + delay + " threads=" + threads);
                System.out.flush();
            }
        }
    }

    /** Whether a cell's base can be checked: a delay loop to time, several threads, each with a core. */
    static boolean checked(int delay, int threads, int cores) {
        return delay > 0 && threads > 1 && threads <= cores;
    }

    /** Whether a base run took over {@link #DISTURBED} x the one-thread base of its delay. */
    static boolean disturbed(double baseNsPerOp, double soloBaseNsPerOp) {
        return HostSlowdown.detected(baseNsPerOp, soloBaseNsPerOp);
    }

    /**
     * One run of the article's test. Gauges: {@code badIntervals} retrieved intervals with reports
     * whose min or max was impossible, {@code minSeen} / {@code maxSeen} the least min and greatest
     * max over the intervals with reports (counters: {@link Forker.Repeat#UNKNOWN}).
     */
    record Result(double wallNsPerOp, double cpuNsPerOp, double opsPerSec, long counted, long correct,
                  long countedSum, long correctSum, long badIntervals, long minSeen, long maxSeen) {
        String line(int delay, int threads, int repeat, Result base, double afterBase, int redone, String phase) {
            return String.format(Locale.ROOT,
                    "RESULT delay=%d threads=%d repeat=%d wall_ns_per_op=%.4f cpu_ns_per_op=%.4f ops_per_sec=%.1f"
                            + " counted=%d correct=%d counted_sum=%d correct_sum=%d base_wall_ns_per_op=%.4f base_cpu_ns_per_op=%.4f redone=%d"
                            + " phase=%s after_base_wall_ns_per_op=%.4f bad_intervals=%d min_seen=%d max_seen=%d",
                    delay, threads, repeat, wallNsPerOp, cpuNsPerOp, opsPerSec, counted, correct, countedSum, correctSum,
                    base.wallNsPerOp, base.cpuNsPerOp, redone, phase, afterBase, badIntervals, minSeen, maxSeen);
        }
    }

    /** Whether a retrieved gauge interval is impossible for reports of 0 .. {@link #GAUGE_MAX}. */
    static boolean badInterval(long count, long min, long max) {
        return count > 0 && (min < 0 || max > GAUGE_MAX || min > max);
    }

    /** One run of the implementation, or with {@code impl == null} of the base loop (nothing counted). */
    static Result runOnce(Catalog.Kind kind, Impl<?> impl, int delay, int threads, long runMillis,
                          long intervalMillis) throws InterruptedException {
        Object stat = impl == null ? null : impl.factory().get();
        Worker[] workers = new Worker[threads];
        running = true;
        for (int i = 0; i < threads; i++) {
            workers[i] = new Worker(kind, stat, delay);
            workers[i].setName("lab-worker-" + i);
        }
        long start = System.nanoTime();
        for (Worker w : workers) {
            w.start();
        }
        long counted = 0;
        long countedSum = 0;
        long[] minMax = {Long.MAX_VALUE, Long.MIN_VALUE, 0}; // least min, greatest max, bad intervals
        long deadline = start + runMillis * 1_000_000L;
        while (System.nanoTime() - deadline < 0) {
            if (impl == null) {
                Thread.sleep(intervalMillis);
            } else if (impl.indirect()) {
                Thread.sleep(intervalMillis / 2);
                Object v = fetch(stat);
                Thread.sleep(intervalMillis - intervalMillis / 2);
                counted += count(v);
                countedSum += sum(v);
                judge(v, minMax);
            } else {
                Thread.sleep(intervalMillis);
                Object v = fetch(stat);
                counted += count(v);
                countedSum += sum(v);
                judge(v, minMax);
            }
        }
        running = false;
        for (Worker w : workers) {
            w.join();
        }
        long end = System.nanoTime();
        if (stat != null) {
            Object last = fetch(stat);
            counted += count(last);
            countedSum += sum(last);
            judge(last, minMax);
        }

        long correct = 0;
        long correctSum = 0;
        double wall = 0;
        double cpu = 0;
        for (Worker w : workers) {
            correct += w.n;
            correctSum += w.reportedSum;
            wall += (double) w.wallNanos / Math.max(1, w.n);
            cpu += (double) w.cpuNanos / Math.max(1, w.n);
        }
        double opsPerSec = correct / ((end - start) / 1e9);
        if (kind == Catalog.Kind.COUNTERS) {
            countedSum = counted; // a counter's sum is its count
            correctSum = correct;
        }
        boolean gauges = kind == Catalog.Kind.GAUGES && stat != null;
        return new Result(wall / threads, cpu / threads, opsPerSec, counted, correct, countedSum, correctSum, minMax[2],
                gauges && minMax[1] != Long.MIN_VALUE ? minMax[0] : Forker.Repeat.UNKNOWN,
                gauges && minMax[1] != Long.MIN_VALUE ? minMax[1] : Forker.Repeat.UNKNOWN);
    }

    /** Gauges: folds a retrieved interval into {least min, greatest max, bad intervals}. */
    private static void judge(Object v, long[] minMax) {
        if (v instanceof GaugeValue g && g.getCount() > 0) {
            minMax[0] = Math.min(minMax[0], g.getMin());
            minMax[1] = Math.max(minMax[1], g.getMax());
            if (badInterval(g.getCount(), g.getMin(), g.getMax())) {
                minMax[2]++;
            }
        }
    }

    /** The server's retrieval: getAndReset, or for an indirect counter the value object (read later). */
    private static Object fetch(Object stat) {
        if (stat instanceof IndirectCounter ic) {
            return ic.getAndResetValue();
        }
        if (stat instanceof ServerCounter sc) {
            return sc.getAndReset();
        }
        return ((ServerGauge) stat).getAndReset();
    }

    private static long count(Object v) {
        if (v instanceof CounterValue cv) {
            return cv.get();
        }
        if (v instanceof Long l) {
            return l;
        }
        return ((GaugeValue) v).getCount();
    }

    private static long sum(Object v) {
        return v instanceof GaugeValue g ? g.getSum() : 0;
    }

    /** The article's CounterTest thread. */
    static final class Worker extends Thread {
        private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
        private final Catalog.Kind kind;
        private final Object stat;
        private final int delay;
        long n;
        long reportedSum;
        long wallNanos;
        long cpuNanos;
        double work;

        Worker(Catalog.Kind kind, Object stat, int delay) {
            this.kind = kind;
            this.stat = stat;
            this.delay = delay;
        }

        @Override
        public void run() {
            long c0 = MX.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            if (stat == null && kind == Catalog.Kind.COUNTERS) {
                while (running) {
                    counterBaseBatch();
                }
            } else if (stat == null) {
                while (running) {
                    gaugeBaseBatch();
                }
            } else if (stat instanceof ServerCounter sc) {
                Counter view = sc.getThreadLocalView();
                while (running) {
                    counterBatch(view);
                }
            } else {
                Gauge view = ((ServerGauge) stat).getThreadLocalView();
                while (running) {
                    gaugeBatch(view);
                }
            }
            wallNanos = System.nanoTime() - t0;
            cpuNanos = MX.getCurrentThreadCpuTime() - c0;
            if (work == 42.4242) {
                System.out.print(""); // keeps the delay loop's result alive
            }
        }

        /**
         * The article's event work: {@code delay} terms of the harmonic series. Never inlined (see
         * {@link Forker#JVM_FLAGS}), so that every loop of this JVM, the base's and the
         * implementation's, runs the very same machine code for it.
         */
        static double delayWork(double sum, int delay) {
            for (int j = 1; j <= delay; j++) {
                sum += 1.0 / j;
            }
            return sum;
        }

        private void counterBatch(Counter view) {
            double sum = work;
            int d = delay;
            int i = 0;
            if (d == 0) {
                for (; i < BATCH && running; i++) {
                    view.add();
                }
            } else {
                for (; i < BATCH && running; i++) {
                    sum = delayWork(sum, d);
                    view.add();
                }
            }
            n += i;
            work = sum;
        }

        /** {@link #counterBatch} without the update. */
        private void counterBaseBatch() {
            double sum = work;
            int d = delay;
            int i = 0;
            if (d == 0) {
                for (; i < BATCH && running; i++) {
                    // the article's EmptyCounter loop: the running flag read, n counted
                }
            } else {
                for (; i < BATCH && running; i++) {
                    sum = delayWork(sum, d);
                }
            }
            n += i;
            work = sum;
        }

        private void gaugeBatch(Gauge view) {
            double sum = work;
            int d = delay;
            long k = n;
            long reported = reportedSum;
            int i = 0;
            if (d == 0) {
                for (; i < BATCH && running; i++) {
                    long v = (k + i) & 1023;
                    view.report(v);
                    reported += v;
                }
            } else {
                for (; i < BATCH && running; i++) {
                    sum = delayWork(sum, d);
                    long v = (k + i) & 1023;
                    view.report(v);
                    reported += v;
                }
            }
            n = k + i;
            reportedSum = reported;
            work = sum;
        }

        /** {@link #gaugeBatch} without the report. */
        private void gaugeBaseBatch() {
            double sum = work;
            int d = delay;
            long k = n;
            long reported = reportedSum;
            int i = 0;
            for (; i < BATCH && running; i++) {
                if (d != 0) {
                    sum = delayWork(sum, d);
                }
                reported += (k + i) & 1023;
            }
            n = k + i;
            reportedSum = reported;
            work = sum;
        }
    }
}
