package dev.statvar.micrometer;

import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.export.MetricsSource;
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
import io.micrometer.core.instrument.internal.DefaultMeter;
import io.micrometer.core.instrument.cumulative.CumulativeCounter;
import io.micrometer.core.instrument.cumulative.CumulativeDistributionSummary;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.util.TimeUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * A Micrometer {@link MeterRegistry} whose meters record into a statvar {@link StatRegistry}: a
 * service instrumented through Micrometer's API keeps its instrumentation and gets statvar's update
 * path and exact intervals by changing the registry it creates.
 *
 * <pre>{@code
 * StatRegistry stats = StatRegistry.create();
 * StatvarMeterRegistry registry = new StatvarMeterRegistry(stats); // was: new PrometheusMeterRegistry(...)
 * String body = registry.scrape();                                  // as PrometheusMeterRegistry.scrape()
 * MetricsServer http = MetricsServer.builder(registry.metricsSource()).port(9400).build().start();
 * }</pre>
 *
 * <h2>Two expositions</h2>
 * <ul>
 *   <li>{@link #scrape()}, {@link #scrape(String)}, {@link #metricsSource()}: every meter as
 *       micrometer-registry-prometheus 1.17.2 writes it (names and tags through
 *       {@code config().namingConvention()}, by default Prometheus' convention; counters {@code _total};
 *       timers and summaries {@code _count}, {@code _sum}, {@code _max}, quantiles when percentiles are
 *       published, {@code _bucket} only with a percentile histogram or SLOs, with Micrometer's {@code le}
 *       set; SLO buckets exact). A scrape closes a statvar interval first (one {@code collect()}), so
 *       its values are current, as the Prometheus registry's; beside a collector that splits the
 *       collector's interval (its totals stay exact). The remaining differences: docs/MICROMETER.md.</li>
 *   <li>statvar's own exporters (statvar-export over the {@link StatRegistry}): statvar-native stats
 *       with the stored unit in the name ({@code http_latency_nanoseconds}, {@code cpu_usage_millionths};
 *       the table: docs/MICROMETER.md), collected by a {@link dev.statvar.StatCollector}.</li>
 * </ul>
 *
 * <h2>What backs each meter</h2>
 * <ul>
 *   <li>{@link Counter}, {@link Timer} (nanoseconds), {@link DistributionSummary}: statvar stats; their
 *       updates are statvar updates (on a platform thread no lock, no locked instruction). A timer or
 *       summary with SLOs also has one statvar counter per SLO, so its SLO buckets are exact.</li>
 *   <li>Pull-style meters ({@link io.micrometer.core.instrument.Gauge}, {@code TimeGauge},
 *       {@code MultiGauge}, {@link FunctionCounter}, {@link FunctionTimer}, {@link LongTaskTimer}, custom
 *       meters) are Micrometer's own implementations, read as Micrometer reads them (the scrape reads
 *       them directly); before each statvar interval closes they are sampled into statvar stats, so
 *       statvar's exporters show them.</li>
 * </ul>
 * One meter name with several sets of tag keys is allowed, as in Micrometer: the second set records
 * into a statvar family of its own ({@code NAME__by_KEY1_KEY2..}, see {@code StatBinder}). A meter
 * statvar cannot hold (a registry or family full, a tag statvar reserves such as {@code le} on a
 * timer) is reported through {@code config().onMeterRegistrationFailed}, counted in
 * {@code statvar_micrometer_meters_rejected_total{reason}}, and is a Micrometer meter
 * ({@code CumulativeCounter}, {@code CumulativeTimer}, {@code CumulativeDistributionSummary}): its updates
 * are kept and {@link #scrape()} exports it; statvar's own exporters do not, except for a counter,
 * timer or summary past its family's cap, which also records into the family's overflow series
 * ({@code otel_metric_overflow="true"}, see {@code OverflowMeters}). No statvar exception reaches the caller.
 *
 * <h2>Removal</h2>
 * Removing a meter removes its statvar series once no other meter of this registry maps to it: the
 * next collect delivers its last interval (a counter's fractions carried first: every whole unit
 * survives), and a meter registered again starts a new series, as in {@code PrometheusMeterRegistry}.
 * Two registries on one {@link StatRegistry} must not register meters that map to the same series:
 * removing one's meter would remove the other's series.
 *
 * <h2>Reads</h2>
 * statvar has no read of a stat between collects. A read of a statvar-backed meter ({@code count()},
 * {@code totalTime}, {@code max}, {@code takeSnapshot()}, {@code measure()}) therefore closes an
 * interval of the shared {@link StatRegistry} ({@link StatRegistry#collect()}: 0.30-1.36 ms
 * for 1,000 stats updated by 64 threads, ScaleBenchmark {@code collect-1k-64} in docs/PERFORMANCE.md) and reads it: totals are exact and current; {@code max()} and percentiles cover the intervals
 * closed within the distribution config's expiry (1 minute by default, as micrometer-registry-prometheus).
 * A scrape reads every meter from one such collect. Frequent reads split the intervals a collector
 * delivers (its totals stay exact).
 *
 * <h2>Threading contract</h2>
 * Thread-safe, as every {@code MeterRegistry}: meters are registered, updated, removed and scraped
 * from any thread. Updates never wait for a read, a scrape or a collect. {@link #close()} stops
 * sampling and detaches from the statvar registry; the stats stay in it.
 */
public class StatvarMeterRegistry extends MeterRegistry {
    private final StatRegistry stats;
    private final SnapshotFeed feed;
    private final StatBinder binder;
    /** What to undo when a meter is removed (its sampler, its statvar series), by meter id. */
    private final Map<Meter.Id, Runnable> removals = new ConcurrentHashMap<>();
    /** How many meters hold each statvar series (MeterStats); the series goes with the last. */
    private final Map<Series, Integer> refs = new ConcurrentHashMap<>();
    /** The fractions of each counter series, shared by the counters registered on it. */
    private final Map<Series, CounterFractions> fractions = new ConcurrentHashMap<>();
    /** What each function meter's statvar counter series already holds, shared by the meters registered on it. */
    private final Map<Series, WholeUnits> wholeUnits = new ConcurrentHashMap<>();
    private final ScrapeFamilies families = new ScrapeFamilies(this::meterRegistrationFailed);

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
        this.binder = new StatBinder(stats, this::meterRegistrationFailed);
        stats.addCollectListener(feed);
        config().namingConvention(new PrometheusConvention());
        config().onMeterRemoved(m -> {
            families.release(m.getId(), config().namingConvention());
            Runnable undo = removals.remove(m.getId());
            if (undo != null) {
                undo.run();
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

    /**
     * Every meter of this registry in Prometheus text format 0.0.4, as
     * {@code PrometheusMeterRegistry.scrape()} (micrometer-registry-prometheus 1.17.2) writes the same
     * meters: names and tags through {@code config().namingConvention()}, values current (the scrape
     * closes a statvar interval first, as a meter read does); the differences are listed in
     * docs/MICROMETER.md.
     *
     * @return the body of a {@code /metrics} response
     */
    public String scrape() {
        return render().text();
    }

    /**
     * The scrape in a content type: Prometheus text 0.0.4 ({@code text/plain}, or null) or OpenMetrics
     * 1.0 ({@code application/openmetrics-text}).
     *
     * @param contentType the {@code Content-Type} of the response, or null for text 0.0.4
     * @return the body of a {@code /metrics} response in that type
     * @throws IllegalArgumentException if the content type is neither
     */
    public String scrape(String contentType) {
        if (contentType == null || contentType.startsWith("text/plain")) {
            return scrape();
        }
        if (contentType.startsWith("application/openmetrics-text")) {
            return render().openMetrics();
        }
        throw new IllegalArgumentException("scrape(" + contentType + "): not a content type this registry writes;"
                + " use text/plain; version=0.0.4 or application/openmetrics-text");
    }

    /**
     * This registry's scrape as a statvar-export {@link MetricsSource}, for a {@code MetricsServer} or an
     * actuator endpoint: Prometheus text and OpenMetrics as {@link #scrape(String)}, JSON as
     * {@code [{"name":..,"labels":{..},"value":..}]} of the same samples. Each call renders the
     * current state (and closes a statvar interval).
     *
     * @return a thread-safe source rendering this registry
     */
    public MetricsSource metricsSource() {
        return new MetricsSource() {
            @Override
            public String prometheusText() {
                return scrape();
            }

            @Override
            public String openMetricsText() {
                return render().openMetrics();
            }

            @Override
            public String json() {
                return render().json();
            }
        };
    }

    /** The collect listener (tests). */
    SnapshotFeed feed() {
        return feed;
    }

    /** Entries this registry keeps per meter or series (tests: none left once every meter is removed). */
    int retainedEntries() {
        return removals.size() + refs.size() + fractions.size() + wholeUnits.size() + feed.windowCount()
                + feed.samplerCount() + families.size();
    }

    private MeterExposition render() {
        Snapshot now = feed.fresh();
        List<Meter> exported = new ArrayList<>();
        for (Meter m : getMeters()) {
            if (families.exported(m.getId())) {
                exported.add(m);
            }
        }
        return ScrapeRenderer.render(exported, config().namingConvention(), now);
    }

    @Override
    protected Counter newCounter(Meter.Id id) {
        families.claim(id, config().namingConvention());
        Object[] overflow = new Object[1];
        Counter c = bind(id, overflow, (b, ms) -> {
            String name = StatNames.counter(b);
            Series s = series(name, b);
            dev.statvar.Counter stat = ms.counter(name, b);
            return new StatvarCounter(id, stat, s, feed, fractions.computeIfAbsent(s, k -> new CounterFractions(stat, feed)));
        });
        if (c != null) {
            return c;
        }
        return overflow[0] instanceof dev.statvar.Counter o ? new OverflowMeters.OverflowCounter(id, o) : new CumulativeCounter(id);
    }

    @Override
    protected Timer newTimer(Meter.Id id, DistributionStatisticConfig config, PauseDetector pauseDetector) {
        families.claim(id, config().namingConvention());
        Object[] overflow = new Object[1];
        Timer t = bind(id, overflow, (b, ms) -> {
            Distribution d = distribution(ms, StatNames.timer(b), StatNames.timeBase(b), b, config, true);
            return new StatvarTimer(id, d.stat, d.slos, d.reads, clock, getBaseTimeUnit());
        });
        if (t != null) {
            return t;
        }
        return overflow[0] instanceof Histogram o
                ? new OverflowMeters.OverflowTimer(id, clock, config, pauseDetector, getBaseTimeUnit(), o)
                : new CumulativeTimer(id, clock, config, pauseDetector, getBaseTimeUnit(), true);
    }

    @Override
    protected DistributionSummary newDistributionSummary(Meter.Id id, DistributionStatisticConfig config, double scale) {
        families.claim(id, config().namingConvention());
        Object[] overflow = new Object[1];
        DistributionSummary ds = bind(id, overflow, (b, ms) -> {
            Distribution d = distribution(ms, StatNames.summary(b), StatNames.base(b), b, config, false);
            return new StatvarDistributionSummary(id, d.stat, d.slos, d.reads, scale);
        });
        if (ds != null) {
            return ds;
        }
        return overflow[0] instanceof Histogram o ? new OverflowMeters.OverflowSummary(id, clock, config, scale, o)
                : new CumulativeDistributionSummary(id, clock, config, scale, true);
    }

    @Override
    protected <T> io.micrometer.core.instrument.Gauge newGauge(Meter.Id id, T obj, ToDoubleFunction<T> valueFunction) {
        families.claim(id, config().namingConvention());
        DefaultGauge<T> g = new DefaultGauge<>(id, obj, valueFunction);
        sample(id, (b, ms) -> {
            Gauge stat = ms.gauge(StatNames.gauge(b), b);
            return () -> reportMillionths(stat, g.value());
        });
        return g;
    }

    @Override
    protected <T> FunctionCounter newFunctionCounter(Meter.Id id, T obj, ToDoubleFunction<T> countFunction) {
        families.claim(id, config().namingConvention());
        CumulativeFunctionCounter<T> fc = new CumulativeFunctionCounter<>(id, obj, countFunction);
        sample(id, (b, ms) -> {
            WholeUnits units = wholeUnits(ms, StatNames.counter(b), b);
            return () -> units.advanceTo(fc.count());
        });
        return fc;
    }

    @Override
    protected <T> FunctionTimer newFunctionTimer(Meter.Id id, T obj, ToLongFunction<T> countFunction,
                                                 ToDoubleFunction<T> totalTimeFunction, TimeUnit totalTimeFunctionUnit) {
        families.claim(id, config().namingConvention());
        CumulativeFunctionTimer<T> ft = new CumulativeFunctionTimer<>(id, obj, countFunction, totalTimeFunction,
                totalTimeFunctionUnit, getBaseTimeUnit());
        sample(id, (b, ms) -> {
            String base = StatNames.timeBase(b);
            WholeUnits count = wholeUnits(ms, base + "_count_total", b);
            WholeUnits nanos = wholeUnits(ms, base + "_nanoseconds_total", b);
            return () -> {
                count.advanceTo(ft.count());
                nanos.advanceTo(ft.totalTime(TimeUnit.NANOSECONDS));
            };
        });
        return ft;
    }

    @Override
    protected LongTaskTimer newLongTaskTimer(Meter.Id id, DistributionStatisticConfig config) {
        families.claim(id, config().namingConvention());
        // as PrometheusMeterRegistry's DefaultLongTaskTimer (aggregable buckets), with a cheaper start and stop
        StatvarLongTaskTimer ltt = new StatvarLongTaskTimer(id, clock, getBaseTimeUnit(), config, true);
        sample(id, (b, ms) -> {
            String base = StatNames.timeBase(b);
            Gauge active = ms.gauge(base + "_active_tasks", b);
            Gauge duration = ms.gauge(base + "_duration_nanoseconds", b);
            Gauge max = ms.gauge(base + "_max_nanoseconds", b);
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
        families.claim(id, config().namingConvention());
        DefaultMeter m = new DefaultMeter(id, type, measurements);
        sample(id, (b, ms) -> {
            List<Runnable> parts = new ArrayList<>();
            for (Measurement measurement : measurements) {
                Gauge stat = ms.gauge(StatNames.base(b) + "_"
                        + StatNames.sanitize(measurement.getStatistic().getTagValueRepresentation()) + "_millionths", b);
                parts.add(() -> reportMillionths(stat, measurement.getValue()));
            }
            return () -> parts.forEach(Runnable::run);
        });
        return m;
    }

    @Override
    protected TimeUnit getBaseTimeUnit() {
        return TimeUnit.SECONDS;
    }

    /** As micrometer-registry-prometheus: Micrometer's defaults with an expiry of 1 minute (PrometheusConfig's step). */
    @Override
    protected DistributionStatisticConfig defaultHistogramConfig() {
        return DistributionStatisticConfig.builder().expiry(Duration.ofMinutes(1)).build()
                .merge(DistributionStatisticConfig.DEFAULT);
    }

    /** Stops sampling the pull-style meters and detaches from the statvar registry (whose stats remain). */
    @Override
    public void close() {
        stats.removeCollectListener(feed);
        super.close();
    }

    /**
     * {@code bind} applied through the {@link StatBinder} with a {@link MeterStats} of its own, which is
     * released if the binding fails and removed with the meter. Micrometer calls the {@code new*}
     * methods and the removal listeners under its meter-map lock, so binding and removal are serialised.
     */
    private <T> T bind(Meter.Id id, BiFunction<Meter.Id, MeterStats, T> bind) {
        return bind(id, new Object[1], bind);
    }

    /** As {@link #bind(Meter.Id, BiFunction)}; {@code overflow[0]}: the overflow series of the meter's first stat, if it got one. */
    private <T> T bind(Meter.Id id, Object[] overflow, BiFunction<Meter.Id, MeterStats, T> bind) {
        return binder.bind(id, b -> {
            MeterStats ms = new MeterStats(stats, refs, this::lastRef, b);
            try {
                T t = bind.apply(b, ms);
                removals.put(id, () -> {
                    ms.removeAll();
                    feed.seriesRemoved();
                });
                return t;
            } catch (RuntimeException e) {
                ms.removeAll();
                if (e instanceof MeterStats.Overflow o && overflow[0] == null) {
                    overflow[0] = o.stat;
                }
                throw e;
            }
        });
    }

    /** The last meter of a statvar series is removed: its last fractions are carried, its state dropped. */
    private void lastRef(Series s) {
        CounterFractions f = fractions.remove(s);
        if (f != null) {
            f.sample();
            f.stop();
        }
        wholeUnits.remove(s);
        feed.removeWindow(s);
    }

    /** Registers the stats of a pull-style meter and its sampler; a meter statvar cannot hold is only Micrometer's. */
    private void sample(Meter.Id id, BiFunction<Meter.Id, MeterStats, SnapshotFeed.Sampler> bind) {
        SnapshotFeed.Sampler s = bind(id, bind);
        if (s == null) {
            return;
        }
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
        Runnable series = removals.get(id);
        removals.put(id, () -> {
            feed.removeSampler(named);
            series.run();
        });
        feed.addSampler(named);
    }

    /** The stats of a timer or summary: its histogram, its SLO counters (or null), and its reads. */
    private record Distribution(Histogram stat, SloCounters slos, HistogramReads reads) {
    }

    private Distribution distribution(MeterStats ms, String name, String base, Meter.Id id,
                                      DistributionStatisticConfig config, boolean nanos) {
        Histogram stat = ms.histogram(name, id);
        SloCounters slos = sloCounters(ms, base + "_slo_total", id, config.getServiceLevelObjectiveBoundaries(), nanos);
        return new Distribution(stat, slos, new HistogramReads(series(name, id), feed, config, slos));
    }

    /** A statvar counter per SLO ({@code le} in the base unit, as the scrape writes it), or null without SLOs. */
    private static SloCounters sloCounters(MeterStats ms, String name, Meter.Id id, double[] slos, boolean nanos) {
        if (slos == null || slos.length == 0) {
            return null;
        }
        double[] bounds = slos.clone();
        java.util.Arrays.sort(bounds);
        String[] tagNames = StatNames.labelNames(id);
        String[] tagValues = StatNames.labelValues(id);
        String[] ln = java.util.Arrays.copyOf(tagNames, tagNames.length + 1);
        ln[tagNames.length] = "le";
        dev.statvar.Counter[] counters = new dev.statvar.Counter[bounds.length];
        Series[] series = new Series[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            String[] lv = java.util.Arrays.copyOf(tagValues, tagValues.length + 1);
            lv[tagValues.length] = MeterExposition.number(nanos ? TimeUtils.nanosToUnit(bounds[i], TimeUnit.SECONDS) : bounds[i]);
            counters[i] = ms.counter(name, ln, lv);
            series[i] = Series.of(name, ln, lv);
        }
        return new SloCounters(bounds, counters, series);
    }

    private WholeUnits wholeUnits(MeterStats ms, String name, Meter.Id id) {
        dev.statvar.Counter stat = ms.counter(name, id);
        return wholeUnits.computeIfAbsent(series(name, id), k -> new WholeUnits(stat));
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

    private static Series series(String name, Meter.Id id) {
        return Series.of(name, StatNames.labelNames(id), StatNames.labelValues(id));
    }
}
