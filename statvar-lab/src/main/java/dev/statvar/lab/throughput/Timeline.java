package dev.statvar.lab.throughput;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntConsumer;

/**
 * A per-second timeline of a run (Cliff Click, "A Pair of (somebody else's) Concurrency Bugs": "I hacked their original benchmark to report
 * performance (throughput) results once/second"): every second a sampler thread closes an
 * interval of a statvar registry ({@link StatRegistry#collect()}: per-interval counts, exact, an
 * update racing the collect landing in one of the two adjacent seconds) and notes each worker's
 * count; beside it JFR's JIT compilations, OSR compilations and GC pauses of that second
 * ({@link JitGcEvents}) and each worker's moves between CPUs ({@link ThreadCpus}, polled every
 * {@link #POLL_NANOS}: a move there and back between two polls is not seen, so the count is a
 * lower bound; the same polls give the fraction of the second two workers were on one CPU).
 *
 * <p>Use: register one counter per worker in a registry nothing else collects; {@link #start}
 * the timeline; start the workers (threads with the names given, unique in their first 15
 * characters), which count every op on their counter; {@link #awaitSeconds}; stop and join the
 * workers; {@link #finish()} closes the last, partial interval and returns every second. No count
 * is lost: the first interval begins at the registry's creation and the last ends after the
 * workers are joined, so the seconds' counts add up to everything the workers counted.
 *
 * <p>Threads: the sampler thread alone calls {@code collect()} and writes the rows until
 * {@link #finish()} joins it (join: happens-before the caller's reads and its final collect);
 * {@code stop} is written by the caller (setVolatile) and read by the sampler (getVolatile);
 * {@code completed} is written by the sampler (setRelease after a row is added) and read by
 * {@link #awaitSeconds} (getAcquire). The JFR events: see {@link JitGcEvents}.
 */
public final class Timeline {
    /** One second. */
    public static final long SECOND_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How often the workers' CPUs are read. */
    public static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    /**
     * A worker: its thread's name, its counter's name in the registry, and whether its count is
     * part of the total (a pipeline counts its items once: at the consumer, not at both ends).
     */
    public record Worker(String threadName, String counter, boolean inTotal) {
    }

    /** One interval as the sampler saw it, before the JFR events are put in. */
    private record Raw(long startNanos, long endNanos, Instant start, Instant end, long[] ops, int[] migrations, int[] cpus,
                       double sharedCpu) {
    }

    private static final VarHandle STOP;
    private static final VarHandle COMPLETED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STOP = l.findVarHandle(Timeline.class, "stop", boolean.class);
            COMPLETED = l.findVarHandle(Timeline.class, "completed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final StatRegistry registry;
    private final List<Worker> workers;
    private final IntConsumer onSecond;
    private final JitGcEvents jfr;
    private final Thread sampler;
    private final List<Raw> rows = new ArrayList<>();
    private final int[] tids;
    private final int[] cpus;
    private final int[] migrations;
    /** Polls in the current interval, and of them those that saw two workers on one CPU. */
    private int polls;
    private int sharedPolls;
    @SuppressWarnings("unused") // through STOP
    private boolean stop;
    @SuppressWarnings("unused") // through COMPLETED
    private int completed;
    private long lastNanos;
    private Instant lastWall;

    private Timeline(StatRegistry registry, List<Worker> workers, IntConsumer onSecond) {
        this.registry = registry;
        this.workers = List.copyOf(workers);
        this.onSecond = onSecond;
        int n = workers.size();
        this.tids = new int[n];
        this.cpus = new int[n];
        this.migrations = new int[n];
        java.util.Arrays.fill(tids, -1);
        java.util.Arrays.fill(cpus, -1);
        this.jfr = JitGcEvents.start();
        this.lastNanos = System.nanoTime();
        this.lastWall = Instant.now();
        this.sampler = new Thread(this::sample, "statvar-timeline");
        this.sampler.setDaemon(true);
    }

    /**
     * Starts the sampler; {@code onSecond} is told each full second's number as it closes (on the
     * sampler thread: for progress lines, nothing slow). Every worker's counter must be registered.
     */
    public static Timeline start(StatRegistry registry, List<Worker> workers, IntConsumer onSecond) {
        Snapshot known = registry.registered();
        for (Worker w : workers) {
            known.counter(w.counter()); // throws if it is not there
        }
        Timeline t = new Timeline(registry, workers, onSecond);
        t.sampler.start();
        return t;
    }

    /** Blocks until {@code n} full seconds have been closed. */
    public void awaitSeconds(int n) {
        while ((int) COMPLETED.getAcquire(this) < n) { // pairs with the sampler's setRelease
            LockSupport.parkNanos(POLL_NANOS);
        }
    }

    private void sample() {
        long next = lastNanos + SECOND_NANOS;
        while (!(boolean) STOP.getVolatile(this)) { // pairs with finish()'s setVolatile
            pollCpus();
            if (System.nanoTime() - next >= 0) {
                close(false);
                COMPLETED.setRelease(this, rows.size()); // pairs with awaitSeconds' getAcquire
                onSecond.accept(rows.size() - 1);
                next += SECOND_NANOS;
                if (System.nanoTime() - next > SECOND_NANOS) { // the sampler was held up for seconds: a longer interval, no burst of short ones
                    next = System.nanoTime() + SECOND_NANOS;
                }
            }
            LockSupport.parkNanos(Math.max(0, Math.min(POLL_NANOS, next - System.nanoTime())));
        }
    }

    private void pollCpus() {
        for (int w = 0; w < tids.length; w++) {
            if (tids[w] < 0) {
                tids[w] = ThreadCpus.find(workers.get(w).threadName());
            }
            int cpu = tids[w] < 0 ? -1 : ThreadCpus.processor(tids[w]);
            if (cpu >= 0) {
                if (cpus[w] >= 0 && cpu != cpus[w]) {
                    migrations[w]++;
                }
                cpus[w] = cpu;
            }
        }
        polls++;
        for (int a = 0; a < cpus.length; a++) {
            for (int b = a + 1; b < cpus.length; b++) {
                if (cpus[a] >= 0 && cpus[a] == cpus[b]) {
                    sharedPolls++;
                    return;
                }
            }
        }
    }

    /** Closes an interval: the clock read right before the collect bounds it. */
    private void close(boolean partial) {
        long t = System.nanoTime();
        Instant wall = Instant.now();
        Snapshot s = registry.collect();
        long[] ops = new long[workers.size()];
        int[] mig = new int[workers.size()];
        for (int w = 0; w < ops.length; w++) {
            ops[w] = s.counter(workers.get(w).counter());
            mig[w] = tids[w] < 0 ? -1 : migrations[w];
            migrations[w] = 0;
        }
        rows.add(new Raw(lastNanos, t, lastWall, wall, ops, mig, cpus.clone(), polls == 0 ? 0 : (double) sharedPolls / polls));
        polls = 0;
        sharedPolls = 0;
        lastNanos = t;
        lastWall = wall;
    }

    /**
     * Stops the sampler, closes the last (partial) interval, waits for JFR to deliver the events
     * up to then (at most 5 s) and returns every second. Call after the workers are joined.
     */
    public Result finish() throws InterruptedException {
        STOP.setVolatile(this, true); // pairs with the sampler's getVolatile
        LockSupport.unpark(sampler);
        sampler.join();
        pollCpus();
        close(true);
        boolean delivered = jfr.awaitFlushAfter(lastWall, Duration.ofSeconds(5));
        List<JitGcEvents.Event> events = jfr.events();
        jfr.close();
        List<TimelineSecond> out = new ArrayList<>();
        List<Compilation> compiled = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            Raw r = rows.get(i);
            int comp = 0;
            int osr = 0;
            long pause = 0;
            for (JitGcEvents.Event e : events) {
                if (!e.time().isBefore(r.start()) && e.time().isBefore(r.end())) {
                    if (e.compilation()) {
                        compiled.add(new Compilation(i, e.osr(), e.level(), e.method()));
                        comp++;
                        osr += e.osr() ? 1 : 0;
                    } else {
                        pause += e.pauseNanos();
                    }
                }
            }
            long total = 0;
            for (int w = 0; w < r.ops().length; w++) {
                total += workers.get(w).inTotal() ? r.ops()[w] : 0;
            }
            out.add(new TimelineSecond(i, i == rows.size() - 1, r.startNanos(), r.endNanos(),
                    (r.endNanos() - r.startNanos()) / 1e6, r.ops(), total,
                    comp, osr, pause / 1e6, r.migrations(), r.cpus(), r.sharedCpu()));
        }
        String note = jfr.problem() != null ? jfr.problem()
                : delivered ? null : "JFR did not deliver its last events within 5 s: the last second's compilations may be missing";
        return new Result(out, compiled, note);
    }

    /** A JIT compilation in second {@code second}: OSR or not, its tier (1-4), its method ({@code Class::name}). */
    public record Compilation(int second, boolean osr, int level, String method) {
    }

    /**
     * Every second, the last one partial; every compilation in them; {@code note}: what is
     * missing (JFR), or null.
     */
    public record Result(List<TimelineSecond> seconds, List<Compilation> compilations, String note) {
        public Result {
            seconds = List.copyOf(seconds);
            compilations = List.copyOf(compilations);
        }

        /** Worker {@code w}'s count over all seconds. */
        public long sum(int w) {
            long s = 0;
            for (TimelineSecond t : seconds) {
                s += t.ops()[w];
            }
            return s;
        }
    }
}
