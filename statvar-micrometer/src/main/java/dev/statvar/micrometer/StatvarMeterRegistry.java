package dev.statvar.micrometer;

import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.cumulative.CumulativeFunctionCounter;
import io.micrometer.core.instrument.cumulative.CumulativeFunctionTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;
import io.micrometer.core.instrument.internal.DefaultGauge;
import io.micrometer.core.instrument.internal.DefaultLongTaskTimer;
import io.micrometer.core.instrument.internal.DefaultMeter;
import io.micrometer.core.instrument.noop.NoopCounter;
import io.micrometer.core.instrument.noop.NoopDistributionSummary;
import io.micrometer.core.instrument.noop.NoopTimer;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A Micrometer {@link MeterRegistry} whose meters record into a statvar {@link StatRegistry}: a
 * service instrumented through Micrometer's API keeps its instrumentation and gets statvar's update
 * path and exact intervals by changing the registry it creates.
 *
 * <pre>{@code
 * StatRegistry stats = StatRegistry.create();
 * MeterRegistry registry = new StatvarMeterRegistry(stats);   // was: new PrometheusMeterRegistry(...)
 * StatExporter exporter = StatExporter.of(stats);             // Prometheus scrape, statvar-export
 * StatCollector collector = stats.startCollector(Duration.ofSeconds(10), exporter);
 * }</pre>
 *
 * <h2>What backs each meter</h2>
 * <ul>
 *   <li>{@link Counter}, {@link Timer} (nanoseconds), {@link DistributionSummary}: statvar stats; their
 *       updates are statvar updates (on a platform thread no lock, no locked instruction).</li>
 *   <li>Pull-style meters ({@link io.micrometer.core.instrument.Gauge}, {@code TimeGauge},
 *       {@code MultiGauge}, {@link FunctionCounter}, {@link FunctionTimer}, {@link LongTaskTimer}, custom
 *       meters) are Micrometer's own implementations, read as Micrometer reads them; before each statvar
 *       interval closes (whoever collects: a collector, a manual {@code collect()}, a read below) they
 *       are sampled into statvar stats, so statvar's exporters show them.</li>
 * </ul>
 * Names and labels follow Micrometer's Prometheus naming convention, with the stored unit in the
 * name: a timer {@code http.latency} is the histogram {@code http_latency_nanoseconds}, a counter
 * {@code http.requests} the counter {@code http_requests_total}, a gauge {@code cpu.usage} the gauge
 * {@code cpu_usage_millionths} (the table: docs/MICROMETER.md). A meter statvar cannot register (the same
 * name with another set of tag keys, a family full) is reported through
 * {@code config().onMeterRegistrationFailed} and is a no-op meter; no statvar exception reaches the
 * caller.
 *
 * <h2>Reads</h2>
 * statvar has no read of a stat between collects. A read of a statvar-backed meter ({@code count()},
 * {@code totalTime}, {@code max}, {@code takeSnapshot()}, {@code measure()}) therefore closes an
 * interval of the shared {@link StatRegistry} ({@link StatRegistry#collect()}, about 0.5 ms per 1,000
 * stats) and reads it: totals are exact and current; {@code max()} and percentiles cover the intervals
 * closed within the distribution config's expiry (2 minutes by default, as Micrometer). Reads are
 * for tests and occasional inspection: an exporter should take statvar's snapshots instead. Frequent
 * reads split the intervals a collector delivers (its totals stay exact).
 *
 * <h2>Threading contract</h2>
 * Thread-safe, as every {@code MeterRegistry}. Updates never wait for a read or a collect.
 * {@link #close()} stops sampling and detaches from the statvar registry; the stats stay in it.
 */
public class StatvarMeterRegistry extends MeterRegistry {
    private final StatRegistry stats;
    private final SnapshotFeed feed;
    /** The sampler of each pull-style meter, removed with the meter. */
    private final Map<Meter.Id, SnapshotFeed.Sampler> samplers = new ConcurrentHashMap<>();

    /**
     * A registry recording into {@code stats}, with Micrometer's system clock.
     *
     * @param stats the statvar registry the meters record into; it may be shared with other code and
     *              collected by a {@link dev.statvar.StatCollector}
     * @throws NullPointerException if {@code stats} is null
     */
    public StatvarMeterRegistry(StatRegistry stats) {
        this(stats, Clock.SYSTEM);
    }

    /**
     * A registry recording into {@code stats} with a Micrometer clock.
     *
     * @param stats the statvar registry the meters record into
     * @param clock times {@code Timer.record(Runnable)} and its variants and ages the window that
     *              {@code max()} and percentiles read
     * @throws NullPointerException if {@code stats} or {@code clock} is null
     */
    public StatvarMeterRegistry(StatRegistry stats, Clock clock) {
        super(Objects.requireNonNull(clock, "clock"));
        this.stats = Objects.requireNonNull(stats, "stats");
        this.feed = new SnapshotFeed(stats, clock);
        stats.addCollectListener(feed);
        config().onMeterRemoved(m -> {
            SnapshotFeed.Sampler s = samplers.remove(m.getId());
            if (s != null) {
                feed.removeSampler(s);
            }
        });
    }

    /**
     * The statvar registry the meters record into.
     *
     * @return the registry given to the constructor
     */
    public StatRegistry statRegistry() {
        return stats;
    }

    @Override
    protected Counter newCounter(Meter.Id id) {
        try {
            String name = StatNames.counter(id);
            return new StatvarCounter(id, counterStat(name, id), series(name, id), feed);
        } catch (IllegalArgumentException | IllegalStateException e) {
            meterRegistrationFailed(id, e.getMessage());
            return new NoopCounter(id);
        }
    }

    @Override
    protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
        try {
            String name = StatNames.timer(id);
            Series s = series(name, id);
            return new StatvarTimer(id, histogramStat(name, id), new HistogramReads(s, feed, config), clock,
                    getBaseTimeUnit());
        } catch (IllegalArgumentException | IllegalStateException e) {
            meterRegistrationFailed(id, e.getMessage());
            return new NoopTimer(id);
        }
    }

    @Override
    protected DistributionSummary newDistributionSummary(Meter.Id id, DistributionStatisticConfig config, double scale) {
        try {
            String name = StatNames.summary(id);
            Series s = series(name, id);
            return new StatvarDistributionSummary(id, histogramStat(name, id), new HistogramReads(s, feed, config), scale);
        } catch (IllegalArgumentException | IllegalStateException e) {
            meterRegistrationFailed(id, e.getMessage());
            return new NoopDistributionSummary(id);
        }
    }

    @Override
    protected <T> io.micrometer.core.instrument.Gauge newGauge(Meter.Id id, T obj, ToDoubleFunction<T> valueFunction) {
        DefaultGauge<T> g = new DefaultGauge<>(id, obj, valueFunction);
        sample(id, () -> {
            Gauge stat = gaugeStat(StatNames.gauge(id), id);
            return () -> reportMillionths(stat, g.value());
        });
        return g;
    }

    @Override
    protected <T> FunctionCounter newFunctionCounter(Meter.Id id, T obj, ToDoubleFunction<T> countFunction) {
        CumulativeFunctionCounter<T> fc = new CumulativeFunctionCounter<>(id, obj, countFunction);
        sample(id, () -> {
            dev.statvar.Counter stat = counterStat(StatNames.counter(id), id);
            WholeUnits units = new WholeUnits(stat);
            return () -> units.advanceTo(fc.count());
        });
        return fc;
    }

    @Override
    protected <T> FunctionTimer newFunctionTimer(Meter.Id id, T obj, ToLongFunction<T> countFunction,
                                                 ToDoubleFunction<T> totalTimeFunction, TimeUnit totalTimeFunctionUnit) {
        CumulativeFunctionTimer<T> ft = new CumulativeFunctionTimer<>(id, obj, countFunction, totalTimeFunction,
                totalTimeFunctionUnit, getBaseTimeUnit());
        sample(id, () -> {
            String base = StatNames.timeBase(id);
            WholeUnits count = new WholeUnits(counterStat(base + "_count_total", id));
            WholeUnits nanos = new WholeUnits(counterStat(base + "_nanoseconds_total", id));
            return () -> {
                count.advanceTo(ft.count());
                nanos.advanceTo(ft.totalTime(TimeUnit.NANOSECONDS));
            };
        });
        return ft;
    }

    @Override
    protected LongTaskTimer newLongTaskTimer(Meter.Id id, DistributionStatisticConfig config) {
        DefaultLongTaskTimer ltt = new DefaultLongTaskTimer(id, clock, getBaseTimeUnit(), config, false);
        sample(id, () -> {
            String base = StatNames.timeBase(id);
            Gauge active = gaugeStat(base + "_active_tasks", id);
            Gauge duration = gaugeStat(base + "_duration_nanoseconds", id);
            Gauge max = gaugeStat(base + "_max_nanoseconds", id);
            return () -> {
                active.report(ltt.activeTasks());
                reportRounded(duration, ltt.duration(TimeUnit.NANOSECONDS));
                reportRounded(max, ltt.max(TimeUnit.NANOSECONDS));
            };
        });
        return ltt;
    }

    @Override
    protected Meter newMeter(Meter.Id id, Meter.Type type, Iterable<Measurement> measurements) {
        DefaultMeter m = new DefaultMeter(id, type, measurements);
        sample(id, () -> {
            java.util.List<Runnable> parts = new java.util.ArrayList<>();
            for (Measurement ms : measurements) {
                Gauge stat = gaugeStat(StatNames.base(id) + "_"
                        + StatNames.sanitize(ms.getStatistic().getTagValueRepresentation()) + "_millionths", id);
                parts.add(() -> reportMillionths(stat, ms.getValue()));
            }
            return () -> parts.forEach(Runnable::run);
        });
        return m;
    }

    @Override
    protected TimeUnit getBaseTimeUnit() {
        return TimeUnit.SECONDS;
    }

    @Override
    protected DistributionStatisticConfig defaultHistogramConfig() {
        return DistributionStatisticConfig.DEFAULT;
    }

    /** Stops sampling the pull-style meters and detaches from the statvar registry (whose stats remain). */
    @Override
    public void close() {
        stats.removeCollectListener(feed);
        super.close();
    }

    /** Registers the stats of a pull-style meter and its sampler, or reports why it cannot be exported. */
    private void sample(Meter.Id id, java.util.function.Supplier<SnapshotFeed.Sampler> stats) {
        try {
            SnapshotFeed.Sampler s = stats.get();
            SnapshotFeed.Sampler named = new SnapshotFeed.Sampler() {
                @Override
                public void sample() {
                    s.sample();
                }

                @Override
                public String toString() {
                    return id.toString();
                }
            };
            samplers.put(id, named);
            feed.addSampler(named);
        } catch (IllegalArgumentException | IllegalStateException e) {
            meterRegistrationFailed(id, e.getMessage());
        }
    }

    /** A value reported in millionths (the stat's name ends in _millionths); NaN and infinities are skipped. */
    private static void reportMillionths(Gauge stat, double v) {
        reportRounded(stat, v * 1e6);
    }

    private static void reportRounded(Gauge stat, double v) {
        if (Double.isFinite(v)) {
            stat.report(Math.round(v)); // saturates at Long.MIN_VALUE / MAX_VALUE
        }
    }

    /** Feeds a monotonic double count into a statvar counter in whole units; a count going down is a reset. */
    private static final class WholeUnits {
        private final dev.statvar.Counter stat;
        private long last; // only the collecting thread (collects are serialised)

        WholeUnits(dev.statvar.Counter stat) {
            this.stat = stat;
        }

        void advanceTo(double count) {
            if (!(count >= 0) || count == Double.POSITIVE_INFINITY) {
                return;
            }
            long whole = (long) Math.floor(count);
            if (whole > last) {
                stat.add(whole - last);
            }
            last = whole;
        }
    }

    private static String help(Meter.Id id) {
        String d = id.getDescription();
        return d == null ? "" : d;
    }

    private static Series series(String name, Meter.Id id) {
        return Series.of(name, StatNames.labelNames(id), StatNames.labelValues(id));
    }

    private dev.statvar.Counter counterStat(String name, Meter.Id id) {
        String[] ln = StatNames.labelNames(id);
        return ln.length == 0 ? stats.counter(name, help(id))
                : stats.counterFamily(name, help(id), ln).labels(StatNames.labelValues(id));
    }

    private Gauge gaugeStat(String name, Meter.Id id) {
        String[] ln = StatNames.labelNames(id);
        return ln.length == 0 ? stats.gauge(name, help(id))
                : stats.gaugeFamily(name, help(id), ln).labels(StatNames.labelValues(id));
    }

    private Histogram histogramStat(String name, Meter.Id id) {
        String[] ln = StatNames.labelNames(id);
        return ln.length == 0 ? stats.histogram(name, help(id), HistogramPrecision.DEFAULT)
                : stats.histogramFamily(name, help(id), HistogramPrecision.DEFAULT, ln).labels(StatNames.labelValues(id));
    }
}
