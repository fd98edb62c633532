package dev.statvar.lab.throughput;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToLongFunction;

/**
 * One measured run in a child JVM: worker threads under a {@link Timeline} for a number of full
 * seconds, then stopped, joined and accounted for. It prints, for the study to parse:
 * {@code PROGRESS <run> second=<i>} as each second closes, then one {@code SECOND run=<run> ...}
 * line a second ({@link TimelineSecond#toLine}), {@code TOTALS run=<run> own=<a;b> sums=<a;b>}
 * (each worker's own count beside the sum of its seconds: they must be equal),
 * {@code COMPILED run=<run> second=<i> level=<tier> osr=<0|1> method=<Class::name>} for each JIT
 * compilation of this package's code (the workloads' loops), and
 * {@code NOTE <run> <text>} when something is missing.
 *
 * <p>Threads: each worker writes its own slot of {@code own} (and of {@code failures}); this
 * thread reads them after {@code join()} (happens-before).
 */
final class TimedRun {
    /** A worker: its thread's name (unique in 15 characters), its counter, whether it counts in the total, its loop. */
    record Job(String thread, String counter, boolean inTotal, ToLongFunction<Counter> body) {
    }

    private TimedRun() {
    }

    /** Runs {@code jobs} for {@code seconds} full seconds, then sets {@code stop}; returns whether every count adds up. */
    static boolean run(String label, int seconds, AtomicBoolean stop, List<Job> jobs, PrintStream out) throws InterruptedException {
        StatRegistry registry = StatRegistry.create();
        List<Timeline.Worker> workers = new ArrayList<>();
        List<Counter> counters = new ArrayList<>();
        for (Job j : jobs) {
            counters.add(registry.counter(j.counter()));
            workers.add(new Timeline.Worker(j.thread(), j.counter(), j.inTotal()));
        }
        Timeline timeline = Timeline.start(registry, workers, s -> {
            out.println("PROGRESS " + label + " second=" + s);
            out.flush();
        });
        long[] own = new long[jobs.size()];
        Throwable[] failures = new Throwable[jobs.size()];
        Thread[] threads = new Thread[jobs.size()];
        for (int i = 0; i < threads.length; i++) {
            int w = i;
            threads[i] = new Thread(() -> {
                try {
                    own[w] = jobs.get(w).body().applyAsLong(counters.get(w));
                } catch (Throwable t) {
                    failures[w] = t;
                }
            }, jobs.get(i).thread());
            threads[i].start();
        }
        timeline.awaitSeconds(seconds);
        stop.setOpaque(true); // pairs with the loops' getOpaque
        for (Thread t : threads) {
            t.join();
        }
        Timeline.Result result = timeline.finish();
        for (TimelineSecond s : result.seconds()) {
            out.println(s.toLine("SECOND", Map.of("run", label)));
        }
        StringBuilder ownText = new StringBuilder();
        StringBuilder sums = new StringBuilder();
        boolean exact = true;
        for (int w = 0; w < own.length; w++) {
            ownText.append(w == 0 ? "" : ";").append(own[w]);
            sums.append(w == 0 ? "" : ";").append(result.sum(w));
            exact &= failures[w] == null && own[w] == result.sum(w);
            if (failures[w] != null) {
                out.println("NOTE " + label + " worker " + jobs.get(w).thread() + " failed: " + failures[w]);
            }
        }
        out.println("TOTALS run=" + label + " own=" + ownText + " sums=" + sums);
        for (Timeline.Compilation c : result.compilations()) {
            if (c.method().startsWith(Pipeline.class.getPackageName() + ".")) { // the workloads' own code
                out.println("COMPILED run=" + label + " second=" + c.second() + " level=" + c.level() + " osr="
                        + (c.osr() ? 1 : 0) + " method=" + c.method());
            }
        }
        if (result.note() != null) {
            out.println("NOTE " + label + " " + result.note());
        }
        out.flush();
        return exact;
    }
}
