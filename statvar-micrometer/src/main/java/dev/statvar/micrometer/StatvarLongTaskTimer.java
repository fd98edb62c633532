package dev.statvar.micrometer;

import io.micrometer.core.instrument.AbstractMeter;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import io.micrometer.core.instrument.util.TimeUtils;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * StatvarMeterRegistry's {@link LongTaskTimer}: what Micrometer's {@code DefaultLongTaskTimer} reports
 * (active tasks, their total and longest duration, percentiles and histogram of the active tasks'
 * durations), with a cheaper start and stop.
 *
 * <h2>Design</h2>
 * <pre>
 * Micrometer's DefaultLongTaskTimer (1.17) keeps the active tasks in a ConcurrentSkipListSet: a start
 * inserts and a stop removes, each a search of the set. Here a start appends its task to a
 * ConcurrentLinkedQueue (one CAS on the tail) and a stop only marks its task stopped (a release
 * store, no search, no locked instruction). The stopped tasks are unlinked in a sweep
 * (queue.removeIf(stopped)) that one start in 64 runs (ThreadLocalRandom), and every read: the queue
 * holds the active tasks plus, in expectation, the tasks stopped in the last 64 starts, whatever the
 * order in which tasks end (a task running for hours does not hold the others back).
 * Reads (activeTasks, duration, max, takeSnapshot) walk the queue and skip stopped tasks: O(tasks
 * held), on the reader's thread, as DefaultLongTaskTimer's.
 * </pre>
 *
 * <h2>Threading contract</h2>
 * Any thread may start tasks, stop them (a task's stop may run on another thread than its start) and
 * read. A read sees every task whose start happened-before it and no task whose stop happened-before
 * it; tasks racing the read may be seen or not. Stopping a task twice returns -1 the second time, as
 * DefaultLongTaskTimer's (two threads stopping one task at once may both see it running).
 */
final class StatvarLongTaskTimer extends AbstractMeter implements LongTaskTimer {
    /** One start in SWEEP_EVERY sweeps the stopped tasks out of the queue. */
    private static final int SWEEP_EVERY = 64;

    private final Clock clock;
    private final TimeUnit baseTimeUnit;
    private final DistributionStatisticConfig config;
    private final boolean aggregableBuckets;
    private final ConcurrentLinkedQueue<Task> tasks = new ConcurrentLinkedQueue<>();

    /** {@code aggregableBuckets}: the histogram's buckets as {@code config.getHistogramBuckets(aggregableBuckets)}. */
    StatvarLongTaskTimer(Meter.Id id, Clock clock, TimeUnit baseTimeUnit, DistributionStatisticConfig config,
                         boolean aggregableBuckets) {
        super(id);
        this.clock = clock;
        this.baseTimeUnit = baseTimeUnit;
        this.config = config;
        this.aggregableBuckets = aggregableBuckets;
    }

    @Override
    public Sample start() {
        Task t = new Task(clock.monotonicTime());
        tasks.offer(t);
        if (ThreadLocalRandom.current().nextInt(SWEEP_EVERY) == 0) {
            sweep();
        }
        return t;
    }

    /** Unlinks the stopped tasks. */
    private void sweep() {
        tasks.removeIf(Task::stopped);
    }

    /** The active tasks' start times, in queue order; sweeps first. */
    private long[] activeStarts() {
        sweep();
        long[] starts = new long[16];
        int n = 0;
        for (Task t : tasks) {
            if (!t.stopped()) {
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                }
                starts[n++] = t.start;
            }
        }
        return Arrays.copyOf(starts, n);
    }

    /** The tasks the queue holds, stopped ones not yet swept included (tests). */
    int held() {
        return tasks.size();
    }

    @Override
    public double duration(TimeUnit unit) {
        long now = clock.monotonicTime();
        long sum = 0;
        for (long s : activeStarts()) {
            sum += now - s;
        }
        return TimeUtils.nanosToUnit((double) sum, unit);
    }

    @Override
    public double max(TimeUnit unit) {
        long[] starts = activeStarts();
        if (starts.length == 0) {
            return 0.0;
        }
        long oldest = starts[0];
        for (long s : starts) {
            oldest = Math.min(oldest, s); // queue order is start order only up to racing starts
        }
        return TimeUtils.nanosToUnit((double) (clock.monotonicTime() - oldest), unit);
    }

    @Override
    public int activeTasks() {
        return activeStarts().length;
    }

    @Override
    public TimeUnit baseTimeUnit() {
        return baseTimeUnit;
    }

    /**
     * The active tasks: their count, total and longest duration (nanoseconds); at each configured
     * percentile p the duration of rank p (n + 1) among the n active tasks from the shortest,
     * interpolated between neighbouring ranks, the longest beyond rank n (none at rank 0 of no task); at each histogram bucket
     * the number of active tasks not longer than it (DefaultLongTaskTimer's definitions).
     */
    @Override
    public HistogramSnapshot takeSnapshot() {
        long now = clock.monotonicTime();
        long[] starts = activeStarts();
        double[] durations = new double[starts.length];
        double total = 0;
        for (int i = 0; i < starts.length; i++) {
            durations[i] = now - starts[i];
            total += durations[i];
        }
        Arrays.sort(durations);
        int n = durations.length;
        double max = n == 0 ? 0.0 : durations[n - 1];
        double[] ps = config.getPercentiles();
        List<ValueAtPercentile> percentiles = new ArrayList<>();
        if (ps != null) {
            double[] sorted = ps.clone();
            Arrays.sort(sorted);
            for (double p : sorted) {
                double rank = p * (n + 1);
                double v;
                if (rank > n) {
                    v = max;
                } else if (n == 0) {
                    continue; // rank 0 of no task: no value (as DefaultLongTaskTimer)
                } else {
                    int whole = (int) Math.ceil(rank); // the first task whose rank reaches p (n + 1), counting from 1
                    v = durations[Math.max(whole, 1) - 1];
                    if (whole != rank && whole >= 2) {
                        double prior = durations[whole - 2];
                        v = prior + (v - prior) * (rank - (int) rank);
                    }
                }
                percentiles.add(new ValueAtPercentile(p, v));
            }
        }
        NavigableSet<Double> buckets = config.getHistogramBuckets(aggregableBuckets);
        CountAtBucket[] counts = new CountAtBucket[buckets.size()];
        int i = 0;
        int below = 0;
        for (double b : buckets) {
            while (below < n && durations[below] <= b) {
                below++;
            }
            counts[i++] = new CountAtBucket(b, below);
        }
        return new HistogramSnapshot(n, total, max, percentiles.toArray(new ValueAtPercentile[0]), counts,
                (out, scale) -> out.print("Summary output for LongTaskTimer histograms is not supported."));
    }

    /** One task: its start on the registry's clock and whether it stopped. */
    private final class Task extends Sample {
        private static final VarHandle STOPPED;

        static {
            try {
                STOPPED = MethodHandles.lookup().findVarHandle(Task.class, "stopped", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long start;
        @SuppressWarnings("unused") // through STOPPED
        private boolean stopped;

        Task(long start) {
            this.start = start;
        }

        /** Whether the task stopped; getAcquire, pairs with the setRelease in {@link #stop()}. */
        boolean stopped() {
            return (boolean) STOPPED.getAcquire(this);
        }

        @Override
        public long stop() {
            if (stopped()) {
                return -1;
            }
            long d = clock.monotonicTime() - start;
            STOPPED.setRelease(this, true); // pairs with getAcquire in stopped(): readers and sweeps skip the task
            return d;
        }

        @Override
        public double duration(TimeUnit unit) {
            return stopped() ? -1 : TimeUtils.nanosToUnit((double) (clock.monotonicTime() - start), unit);
        }
    }
}
