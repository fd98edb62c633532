package dev.statvar.micrometer;

import dev.statvar.CollectListener;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import io.micrometer.core.instrument.Clock;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * statvar's collects as a {@link StatvarMeterRegistry} sees them: samples the pull-style meters
 * before each interval closes, hands each closed interval to the windows of the timers and summaries,
 * and closes an interval when a meter is read.
 *
 * <h2>Threading</h2>
 * The listener methods run on whichever thread collects, one collect at a time
 * ({@link CollectListener}); {@link #fresh()} from any thread collects (serialised by the registry).
 * The sampler list and window map are concurrent; {@code last} is volatile (written in
 * afterCollect, read by {@link #fresh()} when it cannot collect).
 */
final class SnapshotFeed implements CollectListener {
    /** A pull-style meter's sampling, run before each interval closes. */
    interface Sampler {
        void sample();
    }

    private static final System.Logger LOG = System.getLogger("dev.statvar.micrometer");

    private final StatRegistry stats;
    private final Clock clock;
    private final List<Sampler> samplers = new CopyOnWriteArrayList<>();
    private final Map<Series, HistogramWindow> windows = new ConcurrentHashMap<>();
    /** The last interval closed; written in afterCollect, read by fresh() (volatile pair). */
    private volatile Snapshot last;
    /** A series was removed since fresh() last collected: set by seriesRemoved, cleared by fresh() (volatile). */
    private volatile boolean removed;

    SnapshotFeed(StatRegistry stats, Clock clock) {
        this.stats = stats;
        this.clock = clock;
    }

    void addSampler(Sampler s) {
        samplers.add(s);
    }

    void removeSampler(Sampler s) {
        samplers.remove(s);
    }

    /** How many samplers run before each collect (tests: a removed meter leaves none behind). */
    int samplerCount() {
        return samplers.size();
    }

    HistogramWindow window(Series series, long expiryMillis, int bufferLength) {
        return windows.computeIfAbsent(series, k -> new HistogramWindow(expiryMillis, bufferLength));
    }

    int windowCount() {
        return windows.size();
    }

    /** Drops the window of a series about to be removed. */
    void removeWindow(Series series) {
        windows.remove(series);
    }

    /**
     * Series were removed from statvar (called after the removal): the next {@link #fresh()} collects
     * twice, since statvar delivers a removed series' last interval first and defers a new series of
     * the same labels registered before that to the interval after.
     */
    void seriesRemoved() {
        removed = true;
    }

    long wallTime() {
        return clock.wallTime();
    }

    @Override
    public void beforeCollect() {
        for (Sampler s : samplers) {
            try {
                s.sample();
            } catch (RuntimeException e) { // a gauge function that throws: the other meters are still sampled
                LOG.log(System.Logger.Level.WARNING, "statvar-micrometer: sampling a meter failed: " + s, e);
            }
        }
    }

    @Override
    public void afterCollect(Snapshot snapshot) {
        last = snapshot; // volatile write: pairs with the read in fresh()
        if (windows.isEmpty()) {
            return;
        }
        long now = clock.wallTime();
        for (StatValue v : snapshot) {
            if (v instanceof HistogramValue h) {
                HistogramWindow w = windows.get(new Series(h.name(), h.labels()));
                if (w != null) {
                    w.add(now, h);
                }
            }
        }
    }

    /**
     * Closes an interval and returns it, so a read sees every update made before it. From inside a
     * collect (a gauge function that reads a statvar-backed meter) it cannot collect and returns the
     * last interval closed.
     */
    Snapshot fresh() {
        try {
            Snapshot s = stats.collect();
            if (removed) { // a removed series' last interval went out in s; a successor is in the next
                removed = false;
                s = stats.collect();
            }
            return s;
        } catch (IllegalStateException insideACollect) {
            Snapshot s = last; // volatile read: pairs with the write in afterCollect
            return s != null ? s : stats.registered();
        }
    }
}
