package dev.statvar.otel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs updates on several platform threads and returns the values they recorded. */
final class Workload {
    /** One update: thread {@code t}, iteration {@code i}; returns the value it recorded. */
    interface Step {
        long run(int t, int i);
    }

    private Workload() {
    }

    static List<Long> run(int threads, int perThread, Step step) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    long[] values = new long[perThread];
                    for (int i = 0; i < perThread; i++) {
                        values[i] = step.run(thread, i);
                    }
                    return values;
                }));
            }
            List<Long> all = new ArrayList<>();
            for (Future<long[]> f : futures) {
                for (long v : f.get(60, TimeUnit.SECONDS)) {
                    all.add(v);
                }
            }
            return all;
        } finally {
            pool.shutdownNow();
        }
    }
}
