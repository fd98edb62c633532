package dev.statvar.lab.spin;

import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The spin study's child JVM: one barrier design, its cells one after another. Usage:
 * {@code SpinRunner DESIGN HANG_MS CELL...}, a cell being {@code threads:work:warmMs:measureMs:run}.
 *
 * <p>A cell starts {@code threads} workers ({@code spin-w0} ...). Each episode a worker updates its
 * share of a {@code double[work]} ({@code A[i] = fcn(A[i])}, the loop of Cliff Click's
 * "A Pair of (somebody else's) Concurrency Bugs") and waits at the
 * barrier; the wait (arrival to release, {@code System.nanoTime}) goes into a statvar histogram.
 * After {@code warmMs} the main thread takes a first sample (episodes so far, the workers' user and
 * system CPU time and context switches, and a histogram interval that drops the warm-up's waits), after
 * {@code measureMs} a second, then stops the workers after the episode under way. Prints
 * {@code PROGRESS} and one {@code RESULT} line per cell. A run during which other processes kept
 * more than {@link #MAX_OTHER_LOAD} of the CPUs busy is made again ({@code REDO}).
 *
 * <p>A design that makes no progress for {@code HANG_MS} (no episode completed, or the workers not
 * stopping) is reported as {@code HUNG} with the episode it stopped at, and the JVM halts: its
 * spinning threads cannot be stopped any other way. The lab then starts a fresh JVM for the cells left.
 *
 * <p>For {@code PLAIN_LOCAL} (the design whose hang is in question) JFR watches the JIT ({@link JitEvents}):
 * before its last RESULT line, or its HUNG one, the JVM prints a {@code JIT} line per compilation and
 * deoptimisation of the barrier's methods, tagged with the cell then running.
 */
public final class SpinRunner {
    private static final VarHandle EPISODES;

    static {
        try {
            EPISODES = MethodHandles.lookup().findVarHandle(SpinRunner.class, "episodes", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Episodes completed, written by worker 0 only (setOpaque), read by the main thread (getOpaque). */
    @SuppressWarnings("unused")
    private volatile long episodes;
    /** Set by the main thread when the cell is to end; read by worker 0 before each episode. */
    private volatile boolean stop;
    /** The last episode: written by worker 0 before it releases that episode, read by every worker after it. */
    private volatile long lastEpisode = Long.MAX_VALUE;
    /** A worker's failure: written by that worker (volatile store), read by the main thread's volatile loads in its wait loops. */
    private volatile Throwable failed;

    /**
     * A run during which other processes (or the host, as steal) kept more than this share of the
     * CPUs busy is made again, at most {@link #MAX_REDO} times; the last one is reported with its
     * share and the number of times it was made again.
     */
    static final double MAX_OTHER_LOAD = 0.10;
    static final int MAX_REDO = dev.statvar.lab.kit.HostSlowdown.MAX_REDO;

    private SpinRunner() {
    }

    /** The other-load share, the 10th number of an OK result. */
    static double otherLoad(String ok) {
        return Long.parseLong(ok.split(" ")[10]) / 1000.0;
    }

    public static void main(String[] args) throws Exception {
        BarrierDesign design = BarrierDesign.valueOf(args[0]);
        long hangMs = Long.parseLong(args[1]);
        Instant jvmStart = Instant.now();
        JitEvents jit = design == BarrierDesign.PLAIN_LOCAL ? new JitEvents() : null;
        List<Instant> cellStarts = new ArrayList<>();
        List<String> cellNames = new ArrayList<>();
        for (int c = 2; c < args.length; c++) {
            String[] p = args[c].split(":");
            int threads = Integer.parseInt(p[0]);
            int work = Integer.parseInt(p[1]);
            long warmMs = Long.parseLong(p[2]);
            long measureMs = Long.parseLong(p[3]);
            int run = Integer.parseInt(p[4]);
            System.out.printf(Locale.ROOT, "PROGRESS %s threads=%d work=%d run=%d%n", design, threads, work, run);
            cellStarts.add(Instant.now());
            cellNames.add(threads + " " + work + " " + run);
            String result = null;
            int attempt = 0;
            for (; attempt <= MAX_REDO; attempt++) {
                if (attempt > 0) {
                    System.out.printf(Locale.ROOT, "REDO %s threads=%d work=%d run=%d (%s)%n", design, threads, work, run, result);
                }
                result = new SpinRunner().cell(design, threads, work, warmMs, measureMs, hangMs);
                if (!result.startsWith("OK") || otherLoad(result) <= MAX_OTHER_LOAD) {
                    break;
                }
            }
            if (result.startsWith("OK")) {
                result += " " + Math.min(attempt, MAX_REDO); // runs made again
            }
            boolean hung = result.startsWith("HUNG");
            if (jit != null && (hung || c == args.length - 1)) {
                printJit(jit, jvmStart, cellStarts, cellNames);
            }
            System.out.printf(Locale.ROOT, "RESULT %s %d %d %d %s%n", design, threads, work, run, result);
            System.out.flush();
            if (hung) {
                Runtime.getRuntime().halt(0); // the spinning workers cannot be stopped; the lab goes on in a fresh JVM
            }
        }
    }

    /**
     * Prints {@code JIT <threads> <work> <run> +<ms since the JVM started> <event>} for each of the JIT's
     * events in this JVM, tagged with the cell that was running when it began (before the first cell: that one).
     */
    private static void printJit(JitEvents jit, Instant jvmStart, List<Instant> starts, List<String> names) throws InterruptedException {
        for (JitEvents.Event e : jit.drain()) {
            int cell = 0;
            while (cell + 1 < starts.size() && !e.at().isBefore(starts.get(cell + 1))) {
                cell++;
            }
            System.out.printf(Locale.ROOT, "JIT %s +%d ms %s%n", names.get(cell), Duration.between(jvmStart, e.at()).toMillis(), e.line());
        }
    }

    /** {@code A[i] = fcn(A[i])} over {@code [from, to)}: the article's work between barriers. */
    static void work(double[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            a[i] = a[i] * 0.999_999 + 1.0;
        }
    }

    private String cell(BarrierDesign design, int threads, int work, long warmMs, long measureMs, long hangMs)
            throws InterruptedException {
        StatRegistry registry = StatRegistry.create();
        Histogram waits = registry.histogram("wait_ns");
        BarrierDesign.Barrier barrier = design.create(threads);
        double[] a = new double[Math.max(work, 1)];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int tid = t;
            int from = (int) ((long) work * t / threads);
            int to = (int) ((long) work * (t + 1) / threads);
            workers[t] = new Thread(() -> {
                try {
                    for (long e = 1; ; e++) {
                        if (tid == 0 && stop) {
                            lastEpisode = e; // volatile store before this episode's release; read below by all
                        }
                        work(a, from, to);
                        long t0 = System.nanoTime();
                        barrier.await(tid, e);
                        waits.record(System.nanoTime() - t0);
                        if (tid == 0) {
                            EPISODES.setOpaque(this, e); // pairs with getOpaque in the main thread
                        }
                        if (e >= lastEpisode) { // volatile load; pairs with worker 0's store
                            return;
                        }
                    }
                } catch (Throwable x) {
                    failed = x;
                }
            }, "spin-w" + t);
            workers[t].setDaemon(true);
            barrier.register(t, workers[t]);
        }
        for (Thread w : workers) {
            w.start();
        }
        String hung = sleepWatching(warmMs, hangMs);
        if (hung != null) {
            return hung;
        }
        Sample s0 = Sample.take((long) EPISODES.getOpaque(this));
        registry.collect(); // ends the warm-up interval
        hung = sleepWatching(measureMs, hangMs);
        if (hung != null) {
            return hung;
        }
        Sample s1 = Sample.take((long) EPISODES.getOpaque(this));
        HistogramValue w = registry.collect().histogram("wait_ns");
        stop = true;
        for (Thread t : workers) {
            t.join(hangMs);
            if (t.isAlive()) {
                return "HUNG " + t.getName() + " did not stop within " + hangMs + " ms after episode "
                        + (long) EPISODES.getOpaque(this);
            }
        }
        if (failed != null) {
            throw new IllegalStateException("a worker failed", failed);
        }
        long episodesMeasured = s1.episodes - s0.episodes;
        double cpuTicks = (s1.nanos - s0.nanos) / 1e9 * TaskStatus.TICKS_PER_SECOND * Runtime.getRuntime().availableProcessors();
        long otherPermille = s0.machineTicks < 0 ? -1 : Math.max(0, Math.round(1000 * ((s1.machineTicks - s0.machineTicks)
                - (s1.ownTicks - s0.ownTicks)) / cpuTicks));
        return String.format(Locale.ROOT, "OK %d %d %d %d %d %d %d %d %d %d", episodesMeasured, s1.nanos - s0.nanos,
                w.isEmpty() ? 0 : w.valueAtPercentile(50), w.isEmpty() ? 0 : w.valueAtPercentile(99), w.isEmpty() ? 0 : w.max(),
                s1.userNs - s0.userNs, s1.sysNs - s0.sysNs,
                s1.voluntary - s0.voluntary, s1.involuntary - s0.involuntary, otherPermille);
    }

    /** Sleeps {@code ms}, watching worker 0's episodes: a HUNG line if none completed for {@code hangMs}. */
    private String sleepWatching(long ms, long hangMs) throws InterruptedException {
        long end = System.nanoTime() + ms * 1_000_000;
        long seen = (long) EPISODES.getOpaque(this); // pairs with worker 0's setOpaque
        long seenAt = System.nanoTime();
        while (System.nanoTime() < end) {
            Thread.sleep(20);
            long now = (long) EPISODES.getOpaque(this);
            if (now != seen) {
                seen = now;
                seenAt = System.nanoTime();
            } else if (System.nanoTime() - seenAt > hangMs * 1_000_000) {
                return "HUNG no episode completed for " + hangMs + " ms after episode " + seen;
            }
            if (failed != null) {
                throw new IllegalStateException("a worker failed", failed);
            }
        }
        return null;
    }

    /** The workers' episodes, user and system CPU time and context switches at one moment ({@link TaskStatus}). */
    private record Sample(long nanos, long episodes, long userNs, long sysNs, long voluntary, long involuntary,
                          long machineTicks, long ownTicks) {
        static Sample take(long episodes) {
            long[] s = TaskStatus.sample("spin-w");
            long[] b = TaskStatus.busyTicks();
            return new Sample(System.nanoTime(), episodes, s[0], s[1], s[2], s[3], b[0], b[1]);
        }
    }
}
