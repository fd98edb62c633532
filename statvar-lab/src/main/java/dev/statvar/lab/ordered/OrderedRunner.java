package dev.statvar.lab.ordered;

import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.lab.kit.ChildProcess;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ordered study's child JVM: one design at one stream count and worker count. Usage:
 * {@code OrderedRunner DESIGN STREAMS WORKERS TASKS WARMUP WORK}; prints a {@code PROGRESS} line
 * and one {@code RESULT <json>} line.
 *
 * <p>W worker threads share the tasks of S streams: task g (0, 1, 2, ... from a shared counter)
 * belongs to stream {@code g % S}. A worker takes task g, notes its creation time, takes the
 * stream's next ticket, computes (a xorshift loop of a uniform 0 .. 2 x WORK iterations, so that
 * tasks finish out of order), and hands the result to the design, which puts it out in ticket
 * order through the stream's {@link Sink}. Two phases: WARMUP tasks (discarded: the registry is
 * collected after them), then TASKS measured. A phase ends when every stream put out its last
 * ticket and every worker left its loop (so the scheduler's counts of a phase are in its interval). Reported: tasks/s over the measured phase's wall time; the end-to-end latency
 * histogram (creation to output; statvar); the CPU time of the workers and the design's own
 * threads (ThreadMXBean, each thread's time before and after the phase), and of the whole
 * process (GC and JIT included), per 1,000 tasks; out-of-order outputs and the checksums (must be
 * 0 and equal to the expected); the scheduler's stats for {@link Design#SCHEDULER}.
 */
public final class OrderedRunner {
    /** A phase that takes longer than this fails the cell (a hang would be a bug: the study says so). */
    static final long PHASE_LIMIT_SECONDS = 100;

    private OrderedRunner() {
    }

    public static void main(String[] args) throws Exception {
        Design d = Design.valueOf(args[0]);
        int streams = Integer.parseInt(args[1]);
        int workers = Integer.parseInt(args[2]);
        long tasks = Long.parseLong(args[3]);
        long warmup = Long.parseLong(args[4]);
        int work = Integer.parseInt(args[5]);
        System.out.printf(Locale.ROOT, "PROGRESS %s streams=%d workers=%d%n", d, streams, workers);
        System.out.flush();
        Map<String, Object> r = run(d, streams, workers, tasks, warmup, work);
        ChildProcess.printResult(r);
        System.out.flush();
        System.exit(0); // daemon consumers or workers stuck in a failed cell must not keep the JVM
    }

    /** Shared by the workers: the current phase's task counter and size. */
    private static final class Work {
        volatile AtomicLong next = new AtomicLong();
        volatile long total;
        volatile boolean stop;
    }

    static Map<String, Object> run(Design d, int streams, int workers, long tasks, long warmup, int work) throws Exception {
        StatRegistry registry = StatRegistry.create();
        Histogram latency = registry.histogram("latency_ns", "from task creation to its ordered output, ns");
        Sink[] sinks = new Sink[streams];
        for (int s = 0; s < streams; s++) {
            sinks[s] = new Sink(latency);
        }
        Design.Streams design = d.create(sinks, registry);
        Work shared = new Work();
        CyclicBarrier start = new CyclicBarrier(workers + 1);
        // every worker out of its loop before a phase ends: then the stats its last run() counted are in the phase's interval
        CyclicBarrier end = new CyclicBarrier(workers + 1);
        long[] burnt = new long[workers]; // each element written by its worker, read after join: keeps the loop alive
        List<Thread> threads = new ArrayList<>();
        List<Thread> workerThreads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int id = w;
            Thread t = new Thread(() -> {
                try {
                    long burn = 0;
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (true) {
                        start.await();
                        if (shared.stop) {
                            break;
                        }
                        AtomicLong next = shared.next;
                        long total = shared.total;
                        for (long g = next.getAndIncrement(); g < total; g = next.getAndIncrement()) {
                            int s = (int) (g % streams);
                            long created = System.nanoTime();
                            long ticket = design.ticket(s);
                            burn += burn(created, random.nextInt(2 * work + 1));
                            design.output(s, ticket, created, Sink.result(s, ticket));
                        }
                        end.await();
                    }
                    burnt[id] = burn;
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, "ordered-worker-" + w);
            t.setDaemon(true);
            threads.add(t);
            workerThreads.add(t);
            t.start();
        }
        threads.addAll(design.ownThreads());
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("design", d.name());
        r.put("streams", streams);
        r.put("workers", workers);
        r.put("threads", threads.size());
        r.put("tasks", tasks);
        r.put("warmup", warmup);
        r.put("work", work);
        long perStreamWarm = warmup / streams;
        long perStream = tasks / streams;
        boolean finished = phase(shared, start, end, sinks, perStreamWarm * streams, perStreamWarm - 1);
        registry.collect(); // drops the warm-up interval
        long cpu0 = threadCpu(mx, threads);
        long proc0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        if (finished) {
            finished = phase(shared, start, end, sinks, perStream * streams, perStreamWarm + perStream - 1);
        }
        long elapsed = System.nanoTime() - t0;
        long cpu = threadCpu(mx, threads) - cpu0;
        long proc = os.getProcessCpuTime() - proc0;
        Snapshot snap = registry.collect();
        long measured = perStream * streams;
        if (finished) {
            shared.stop = true;
            start.await(PHASE_LIMIT_SECONDS, TimeUnit.SECONDS);
            for (Thread t : workerThreads) {
                t.join(TimeUnit.SECONDS.toMillis(PHASE_LIMIT_SECONDS)); // then burnt and failures are safe to read
            }
            design.close();
        }
        long outOfOrder = 0;
        boolean checksumsOk = true;
        for (int s = 0; s < streams; s++) {
            outOfOrder += sinks[s].outOfOrder();
            checksumsOk &= sinks[s].checksum() == Sink.expectedChecksum(s, perStreamWarm + perStream);
        }
        HistogramValue h = snap.histogram("latency_ns");
        boolean failed;
        synchronized (failures) {
            failed = !failures.isEmpty();
            if (failed) {
                r.put("why", failures.get(0).toString());
            }
        }
        r.put("status", !finished ? "TIMEOUT" : !failed && outOfOrder == 0 && checksumsOk ? "ok" : "FAILED");
        r.put("measured", measured);
        r.put("elapsed_ms", elapsed / 1e6);
        r.put("tasks_per_s", measured / (elapsed / 1e9));
        r.put("p50_ns", h.valueAtPercentile(50));
        r.put("p99_ns", h.valueAtPercentile(99));
        r.put("p99_9_ns", h.valueAtPercentile(99.9));
        r.put("max_ns", h.max());
        r.put("latency_count", h.count());
        r.put("cpu_us_per_1000", cpu / 1e3 / measured * 1000);
        r.put("process_cpu_us_per_1000", proc / 1e3 / measured * 1000);
        r.put("out_of_order", outOfOrder);
        r.put("checksums_ok", checksumsOk);
        if (d == Design.SCHEDULER) {
            r.put("in_place", snap.counter("scheduler_in_place"));
            r.put("left_behind", snap.counter("scheduler_left_behind"));
            r.put("ring_full_waits", snap.counter("scheduler_ring_full_waits"));
            r.put("drained_run_max", snap.gauge("scheduler_drained_run").max());
        }
        long b = 0;
        for (long x : burnt) {
            b ^= x;
        }
        r.put("burn", b == 42 ? 1 : 0); // uses the loops' results; never 1 in practice
        return r;
    }

    /** Runs one phase: {@code total} tasks; whether every stream put out its last ticket in time. */
    private static boolean phase(Work shared, CyclicBarrier start, CyclicBarrier end, Sink[] sinks, long total, long lastTicket)
            throws Exception {
        CountDownLatch done = new CountDownLatch(sinks.length);
        for (Sink s : sinks) {
            s.phase = new Sink.Phase(lastTicket, done);
        }
        shared.next = new AtomicLong();
        shared.total = total;
        start.await(PHASE_LIMIT_SECONDS, TimeUnit.SECONDS);
        if (!done.await(PHASE_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            return false;
        }
        end.await(PHASE_LIMIT_SECONDS, TimeUnit.SECONDS);
        return true;
    }

    private static long threadCpu(ThreadMXBean mx, List<Thread> threads) {
        long sum = 0;
        for (Thread t : threads) {
            long c = mx.getThreadCpuTime(t.getId());
            sum += Math.max(0, c);
        }
        return sum;
    }

    /** The task's computation: {@code n} rounds of xorshift. */
    static long burn(long seed, int n) {
        long x = seed | 1;
        for (int i = 0; i < n; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }
}
