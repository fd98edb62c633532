package dev.statvar.micrometer;

import dev.statvar.Histogram;
import io.micrometer.core.instrument.AbstractMeter;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.util.TimeUtils;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A Micrometer {@link Timer} backed by a statvar histogram of nanoseconds.
 *
 * <h2>Threading contract</h2>
 * Records from any thread: {@link #record(long, TimeUnit)} converts to nanoseconds and records one
 * value, on a platform thread without a lock or locked instruction (statvar's histogram path; with
 * service-level objectives also one counter add per SLO at or above the value). A
 * negative amount is ignored (Micrometer's own timers do the same). The reads
 * ({@link #count()}, {@link #totalTime}, {@link #max}, {@link #takeSnapshot()}) close an interval
 * first; see {@link HistogramReads} for what each reads. Micrometer's pause detector is not applied.
 */
final class StatvarTimer extends AbstractMeter implements Timer {
    private final Histogram nanos;
    private final HistogramReads reads;
    private final Clock clock;
    private final TimeUnit baseTimeUnit;
    /** Exact counts at the SLOs, or null when the timer has none. */
    private final SloCounters slos;

    StatvarTimer(Id id, Histogram nanos, SloCounters slos, HistogramReads reads, Clock clock, TimeUnit baseTimeUnit) {
        super(id);
        this.nanos = nanos;
        this.slos = slos;
        this.reads = reads;
        this.clock = clock;
        this.baseTimeUnit = baseTimeUnit;
    }

    @Override
    public void record(long amount, TimeUnit unit) {
        if (amount >= 0) {
            long n = unit.toNanos(amount);
            nanos.record(n);
            if (slos != null) {
                slos.record(n);
            }
        }
    }

    @Override
    public <T> T record(Supplier<T> f) {
        long start = clock.monotonicTime();
        try {
            return f.get();
        } finally {
            record(clock.monotonicTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public <T> T recordCallable(Callable<T> f) throws Exception {
        long start = clock.monotonicTime();
        try {
            return f.call();
        } finally {
            record(clock.monotonicTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void record(Runnable f) {
        long start = clock.monotonicTime();
        try {
            f.run();
        } finally {
            record(clock.monotonicTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public long count() {
        return reads.totals().count();
    }

    @Override
    public double totalTime(TimeUnit unit) {
        return TimeUtils.nanosToUnit(Meters.unsigned(reads.totals().sum()), unit);
    }

    @Override
    public double max(TimeUnit unit) {
        return TimeUtils.nanosToUnit(reads.max(), unit);
    }

    @Override
    public TimeUnit baseTimeUnit() {
        return baseTimeUnit;
    }

    @Override
    public HistogramSnapshot takeSnapshot() {
        return reads.snapshot();
    }

    /** The snapshot as of {@code stats}, a snapshot just collected (a scrape reads every meter from one). */
    HistogramSnapshot snapshot(dev.statvar.Snapshot stats) {
        return reads.snapshot(stats);
    }
}
