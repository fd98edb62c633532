package dev.statvar.lab.atomics;

import dev.statvar.lab.kit.HostSlowdown;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link AtomicCase} in this JVM (a fresh one per case, started by {@link AtomicsStudy}):
 * for each cell ({@code delay:threads:count}) {@code warmups} unreported runs, then
 * {@code repeats} measured ones, each printing a {@code RESULT} line in the format atomics.c
 * prints too.
 *
 * <pre>
 * One run
 * -------
 * The counter starts at 0. N platform threads are started and wait on a latch; the clock
 * starts when the latch opens and stops when the last thread is joined. Each thread runs the
 * case's loop: the delay work (the loop of "Statistical variables in Java: not quite legal but very fast", 2017: delay terms of the harmonic series), then one
 * atomic increment, until the counter reaches the count (LOCK_ADD: a fixed share of it each).
 * The duration ends at the last thread's end, which that thread reads from the clock.
 * Threads count their increments and failed CAS attempts in locals, and sample the values
 * they obtained ({@link Fairness}). After the joins the counter must equal the sum of the
 * increments: a mismatch fails the run.
 * ns per op = duration / all increments, the inverse of the throughput (as in Martin Thompson's "Further Adventures With CAS Instructions And Micro Benchmarking" (2013)), not
 * the latency of one increment: with more threads than cores it is still the throughput.
 * </pre>
 *
 * Each loop is a static method of its own ({@link AtomicCase#javaMethod()}), so that the JIT's
 * code for it can be printed by name and holds one locked instruction; the few lines of set-up
 * they repeat are the price of that.
 */
public final class AtomicsRunner {
    /**
     * The counter cell sits {@code PAD} longs (128 bytes) into its array, with as many after it:
     * alone on its 64-byte cache line, and on its own pair of lines (the adjacent-line
     * prefetcher moves lines in 128-byte pairs).
     */
    static final int PAD = 16;
    static final long[] CELLS = new long[2 * PAD + 1];
    private static final VarHandle COUNTER = MethodHandles.arrayElementVarHandle(long[].class);
    /** ATOMICLONG's counter, as in Martin Thompson's "Adventures with AtomicLong" (2011). */
    static final AtomicLong ATOMIC = new AtomicLong();

    private AtomicsRunner() {
    }

    /** One thread's parameters and results. */
    static final class Worker {
        final long count;
        final long share;
        final int delay;
        final int logK;
        final int[] samples;
        int sampledLength;
        long endNanos;
        long ops;
        long failures;
        double sink;

        /** The loop's results: increments, failed CAS attempts, values sampled, the delay work's sum. */
        void done(long ops, long failures, int sampledLength, double sink) {
            this.ops = ops;
            this.failures = failures;
            this.sampledLength = sampledLength;
            this.sink = sink;
        }

        Worker(long count, long share, int delay, int logK, int[] samples) {
            this.count = count;
            this.share = share;
            this.delay = delay;
            this.logK = logK;
            this.samples = samples;
        }
    }

    /** Args: case warmups repeats cells... ({@code delay:threads:count}). */
    public static void main(String[] args) throws Exception {
        AtomicCase c = AtomicCase.valueOf(args[0]);
        int warmups = Integer.parseInt(args[1]);
        int repeats = Integer.parseInt(args[2]);
        for (int a = 3; a < args.length; a++) {
            String[] cell = args[a].split(":");
            int delay = Integer.parseInt(cell[0]);
            int threads = Integer.parseInt(cell[1]);
            long count = Long.parseLong(cell[2]);
            for (int r = 0; r < warmups + repeats; r++) {
                String line = run(c, delay, threads, count);
                int redone = 0;
                while (r >= warmups && threads <= CORES && redone < MAX_REDO && disturbed(threads)) {
                    line = run(c, delay, threads, count); // the host slowed this run down: again
                    redone++;
                }
                if (r >= warmups) {
                    System.out.println(line + " repeat=" + (r - warmups) + " redone=" + redone);
                }
                System.out.println("PROGRESS delay=" + delay + " threads=" + threads);
                System.out.flush();
            }
        }
    }

    static final int CORES = Runtime.getRuntime().availableProcessors();
    /** Re-runs of a disturbed run, at most (the kit's rule, {@link HostSlowdown}). */
    static final int MAX_REDO = HostSlowdown.MAX_REDO;
    private static final int PROBE_ITERATIONS = 100_000;
    private static final int PROBE_DELAY = 20;
    private static long soloProbe = -1;

    /**
     * Whether the run just made was disturbed. On this kind of virtual machine the host
     * sometimes runs both vCPUs at half speed for seconds (docs/LAB.md, counters study): every
     * thread's work, contended or not, takes twice as long. The probe: each of {@code threads}
     * threads does 100,000 iterations of the delay work (20 terms, ~2.5 ms), touching nothing
     * shared. With threads that fit the cores it must take as long as with one thread; the
     * probe right after the run is compared with the fastest of three one-thread probes.
     */
    static boolean disturbed(int threads) throws InterruptedException {
        if (soloProbe < 0) {
            soloProbe = Long.MAX_VALUE;
            for (int i = 0; i < 3; i++) {
                soloProbe = Math.min(soloProbe, probe(1));
            }
        }
        return HostSlowdown.detected(probe(threads), soloProbe);
    }

    /** Wall time of {@code threads} threads each doing the probe's work. */
    static long probe(int threads) throws InterruptedException {
        Thread[] ts = new Thread[threads];
        double[] sinks = new double[threads];
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            int id = t;
            ts[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                double sum = 0;
                for (int i = 0; i < PROBE_ITERATIONS; i++) {
                    sum += delayWork(PROBE_DELAY);
                }
                sinks[id] = sum;
            });
            ts[t].start();
        }
        long t0 = System.nanoTime();
        go.countDown();
        for (Thread t : ts) {
            t.join();
        }
        return System.nanoTime() - t0;
    }

    /** One run; returns its RESULT line (without the repeat number). */
    static String run(AtomicCase c, int delay, int threads, long count) throws InterruptedException {
        COUNTER.setVolatile(CELLS, PAD, 0L);
        ATOMIC.set(0);
        int logK = Fairness.logK(count);
        Worker[] workers = new Worker[threads];
        Thread[] ts = new Thread[threads];
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            long share = count / threads + (t < count % threads ? 1 : 0);
            int[] samples = c.seesValues() ? new int[Fairness.capacity(count + threads, logK)] : new int[0];
            Worker w = new Worker(count, share, delay, logK, samples);
            workers[t] = w;
            ts[t] = new Thread(() -> {
                ready.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                switch (c) {
                    case ATOMICLONG -> loopAtomicLong(w);
                    case LOCK_ADD -> loopLockAdd(w);
                    case LOCK_XADD -> loopLockXadd(w);
                    case CAS_BOOL -> loopCasBool(w);
                    case CAS_VAL -> loopCasVal(w);
                    case CAS_VAL_SEED -> loopCasValSeed(w);
                }
                w.endNanos = System.nanoTime();
            }, "atomics-" + t);
            ts[t].start();
        }
        // Every thread is up; the clock starts before they are let go (this thread may then be
        // preempted), and stops at the last thread's end, read by that thread (join: happens-before).
        ready.await();
        long t0 = System.nanoTime();
        go.countDown();
        long end = t0;
        for (int t = 0; t < threads; t++) {
            ts[t].join();
            end = Math.max(end, workers[t].endNanos);
        }
        long duration = end - t0;
        long ops = 0;
        long failures = 0;
        StringBuilder shares = new StringBuilder();
        int[][] values = new int[threads][];
        int[] lengths = new int[threads];
        for (int t = 0; t < threads; t++) {
            ops += workers[t].ops;
            failures += workers[t].failures;
            shares.append(t == 0 ? "" : ",").append(workers[t].ops);
            values[t] = workers[t].samples;
            lengths[t] = workers[t].sampledLength;
        }
        long counter = c == AtomicCase.ATOMICLONG ? ATOMIC.get() : (long) COUNTER.getVolatile(CELLS, PAD);
        if (counter != ops || counter < count) {
            throw new IllegalStateException(c + ": the counter ended at " + counter + " after " + ops
                    + " increments (count " + count + "): a lost or invented increment");
        }
        long[] sr = c.seesValues() ? Fairness.runs(values, lengths, logK) : new long[]{0, 0};
        return String.format(Locale.ROOT, "RESULT impl=java case=%s delay=%d threads=%d count=%d ops=%d duration_ns=%d"
                + " failures=%d sampled=%d runs=%d shares=%s", c, delay, threads, count, ops, duration, failures,
                sr[0], sr[1], shares);
    }

    // ------------------------------------------------------------------ the loops, one method each

    /**
     * The statistical-variables article's work between increments: {@code delay} terms of the harmonic series. Small
     * enough to be inlined into each loop; its sum is kept, so it cannot be dropped.
     */
    static double delayWork(int delay) {
        double sum = 0;
        for (int j = 1; j <= delay; j++) {
            sum += 1.0 / j;
        }
        return sum;
    }

    static void loopAtomicLong(Worker w) {
        final long count = w.count;
        final int delay = w.delay;
        final int logK = w.logK;
        final int[] samples = w.samples;
        int n = 0;
        long ops = 0;
        double sink = 0;
        long v = 0;
        while (v < count) {
            sink += delayWork(delay);
            v = ATOMIC.incrementAndGet();
            ops++;
            if (Fairness.sampled(v, logK)) {
                samples[n++] = (int) v;
            }
        }
        w.done(ops, 0, n, sink);
    }

    static void loopLockAdd(Worker w) {
        final long share = w.share;
        final int delay = w.delay;
        double sink = 0;
        for (long i = 0; i < share; i++) {
            sink += delayWork(delay);
            COUNTER.getAndAdd(CELLS, PAD, 1L); // result unused
        }
        w.done(share, 0, 0, sink);
    }

    static void loopLockXadd(Worker w) {
        final long count = w.count;
        final int delay = w.delay;
        final int logK = w.logK;
        final int[] samples = w.samples;
        int n = 0;
        long ops = 0;
        double sink = 0;
        long v = 0;
        while (v < count) {
            sink += delayWork(delay);
            v = (long) COUNTER.getAndAdd(CELLS, PAD, 1L) + 1;
            ops++;
            if (Fairness.sampled(v, logK)) {
                samples[n++] = (int) v;
            }
        }
        w.done(ops, 0, n, sink);
    }

    static void loopCasBool(Worker w) {
        final long count = w.count;
        final int delay = w.delay;
        final int logK = w.logK;
        final int[] samples = w.samples;
        int n = 0;
        long ops = 0;
        long failures = 0;
        double sink = 0;
        while (true) {
            sink += delayWork(delay);
            long cur = (long) COUNTER.getVolatile(CELLS, PAD);
            while (cur < count && !COUNTER.compareAndSet(CELLS, PAD, cur, cur + 1)) {
                failures++;
                cur = (long) COUNTER.getVolatile(CELLS, PAD); // re-read, as the article's run_cas
            }
            if (cur >= count) {
                break;
            }
            long v = cur + 1;
            ops++;
            if (Fairness.sampled(v, logK)) {
                samples[n++] = (int) v;
            }
        }
        w.done(ops, failures, n, sink);
    }

    static void loopCasVal(Worker w) {
        final long count = w.count;
        final int delay = w.delay;
        final int logK = w.logK;
        final int[] samples = w.samples;
        int n = 0;
        long ops = 0;
        long failures = 0;
        double sink = 0;
        while (true) {
            sink += delayWork(delay);
            long cur = (long) COUNTER.getVolatile(CELLS, PAD);
            while (cur < count) {
                long witness = (long) COUNTER.compareAndExchange(CELLS, PAD, cur, cur + 1);
                if (witness == cur) {
                    break;
                }
                failures++;
                cur = witness; // retry with the value seen, no extra read
            }
            if (cur >= count) {
                break;
            }
            long v = cur + 1;
            ops++;
            if (Fairness.sampled(v, logK)) {
                samples[n++] = (int) v;
            }
        }
        w.done(ops, failures, n, sink);
    }

    /**
     * Thompson's 2013 {@code run_cas2} as it is written (its disassembly shows the shape): the inner
     * loop ends only when a CAS's witness equals the value it tried to set, so after its own
     * successful CAS a thread makes one more, failing, CAS that confirms it; if another thread
     * moved the counter in between, it goes on incrementing from the witness. A success is a CAS
     * whose witness is the expected value; every other CAS counts as a failure. The counter may
     * pass {@code count} (the inner loop does not look at it); values above it are not sampled.
     */
    static void loopCasValSeed(Worker w) {
        final long count = w.count;
        final int delay = w.delay;
        final int logK = w.logK;
        final int[] samples = w.samples;
        int n = 0;
        long ops = 0;
        long failures = 0;
        double sink = 0;
        long value = 0;
        while (value < count) {
            sink += delayWork(delay);
            value = (long) COUNTER.getVolatile(CELLS, PAD);
            long next;
            do {
                next = value + 1;
                long witness = (long) COUNTER.compareAndExchange(CELLS, PAD, value, next);
                if (witness == value) {
                    ops++;
                    if (next <= count && Fairness.sampled(next, logK)) {
                        samples[n++] = (int) next;
                    }
                } else {
                    failures++;
                }
                value = witness;
            } while (value != next);
        }
        w.done(ops, failures, n, sink);
    }
}
