package dev.statvar.otel;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.resources.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/*
 * Design
 * ------
 * statvar has one interval sequence per registry: collect() closes an interval for everybody
 * (a StatCollector, manual calls, other exporters). So this producer never trusts an interval
 * to be "the one since my last export": it derives cumulative and delta values from the
 * engine's totals (SnapshotConverter), which are exact whoever else collects. Two ways to get
 * snapshots:
 *   collecting(registry): produce() calls registry.collect(); the OpenTelemetry reader drives statvar.
 *   fed():                the producer is the Consumer<Snapshot> sink of a collector that
 *                         already runs (startCollector(interval, producer), or exporter.andThen(producer));
 *                         produce() converts the last snapshot received; the earlier ones since the
 *                         previous produce lend their min/max, so a reader slower than the
 *                         collector still gets exact min/max.
 * Mapping (docs/OPENTELEMETRY.md): counter -> monotonic long Sum; histogram -> explicit-bucket
 * Histogram on statvar bucket edges; gauge -> a double Gauge of the window's mean plus
 * NAME.count / NAME.sum Sums and, when exact, NAME.min / NAME.max long Gauges.
 */

/**
 * An OpenTelemetry SDK {@link MetricProducer} that ships a statvar registry's counters, gauges
 * and histograms through any OpenTelemetry metric exporter. Register it with
 * {@code SdkMeterProvider.builder().registerMetricProducer(producer)}; the provider's readers
 * (a {@code PeriodicMetricReader} with an OTLP exporter, say) then call {@link #produce} and
 * export what it returns as it is. See docs/OPENTELEMETRY.md for the mapping.
 *
 * <h2>Threading contract</h2>
 * <ul>
 *   <li>{@link #produce} may be called from any thread (a reader's thread, {@code forceFlush}
 *       and {@code shutdown} callers, several readers); calls are serialised by a lock held
 *       for one conversion (and, for a {@link #collecting} producer, one {@code collect()}).</li>
 *   <li>{@link #accept} (a {@link #fed} producer) may be called from another thread, typically
 *       the collector's, at the same time as {@code produce}: it takes a second lock held only
 *       to append the snapshot (at most {@link #MAX_PENDING} kept), which {@code produce} holds
 *       only to take the appended snapshots, never while converting; the lock's hand-off makes
 *       every snapshot visible whole to {@code produce} (and a Snapshot is immutable).</li>
 *   <li>Values are exact whoever else collects the registry: they come from the engine's
 *       totals. With {@link AggregationTemporality#DELTA}, a delta is the change since this
 *       producer's previous {@code produce}: register a delta producer with a provider that
 *       has <b>one</b> reader, else the readers split the deltas between them.</li>
 * </ul>
 */
public final class StatvarMetricProducer implements MetricProducer, Consumer<Snapshot> {
    /** The instrumentation scope name of every metric this producer makes. */
    public static final String SCOPE_NAME = "dev.statvar";
    /**
     * Most snapshots a {@link #fed} producer keeps between two {@link #produce} calls; beyond it the
     * oldest is dropped. Only min/max use the earlier ones (a dropped one leaves them out: the
     * intervals kept no longer cover the window); counts and sums come from the last one's totals.
     */
    public static final int MAX_PENDING = 64;

    private final StatRegistry registry; // null: fed by accept()
    private final AggregationTemporality temporality;
    private final InstrumentationScopeInfo scope;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock. */
    private final SnapshotConverter converter;
    /** Guards pending only: held to add one snapshot or to take them all, never during a conversion. */
    private final ReentrantLock pendingLock = new ReentrantLock();
    /** Guarded by pendingLock: snapshots accepted since the previous produce, oldest first, at most MAX_PENDING. */
    private ArrayDeque<Snapshot> pending = new ArrayDeque<>();
    /** Guarded by lock: what the previous produce returned. */
    private List<MetricData> lastResult = List.of();

    private StatvarMetricProducer(Builder b) {
        this.registry = b.registry;
        this.temporality = b.temporality;
        this.converter = new SnapshotConverter(b.temporality, b.boundaries);
        this.scope = InstrumentationScopeInfo.builder(SCOPE_NAME).setVersion(version()).build();
    }

    /**
     * A producer whose {@link #produce} closes an interval of {@code registry} ({@code collect()})
     * each time it is called: for when the OpenTelemetry reader is what drives statvar.
     *
     * @param registry the registry whose intervals {@code produce} closes and converts
     * @return a builder of that producer
     * @throws NullPointerException if {@code registry} is null
     */
    public static Builder collecting(StatRegistry registry) {
        return new Builder(Objects.requireNonNull(registry, "registry"));
    }

    /**
     * A producer fed snapshots through {@link #accept} (it is a {@code Consumer<Snapshot>}): the
     * sink of a collector that already runs, e.g. {@code registry.startCollector(interval, producer)}.
     * Its {@link #produce} converts the last snapshot received (nothing before the first one).
     *
     * @return a builder of that producer
     */
    public static Builder fed() {
        return new Builder(null);
    }

    /**
     * The temporality of this producer's sums and histograms.
     *
     * @return {@code CUMULATIVE} (the default) or {@code DELTA}, as built
     */
    public AggregationTemporality temporality() {
        return temporality;
    }

    /**
     * The instrumentation scope of every metric.
     *
     * @return {@value #SCOPE_NAME} with statvar's version
     */
    public InstrumentationScopeInfo scope() {
        return scope;
    }

    /**
     * Receives a snapshot of the registry (from its collector); the next {@link #produce} converts it.
     * Feed one registry's snapshots only, in the order its collects made them.
     *
     * @throws NullPointerException  if {@code snapshot} is null
     * @throws IllegalStateException if this producer was built {@link #collecting} (it takes its own snapshots)
     */
    @Override
    public void accept(Snapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        if (registry != null) {
            throw new IllegalStateException("this producer collects its registry itself on each produce(); "
                    + "build it with StatvarMetricProducer.fed() to feed it snapshots");
        }
        pendingLock.lock();
        try {
            if (pending.size() == MAX_PENDING) {
                pending.removeFirst();
            }
            pending.addLast(snapshot);
        } finally {
            pendingLock.unlock();
        }
    }

    /**
     * The registry's stats as OpenTelemetry metrics, on {@code resource} and in scope
     * {@link #scope()}. A {@link #collecting} producer first closes an interval. A {@link #fed}
     * producer converts the last snapshot received, with the min/max of every interval received
     * since the previous call: none yet gives an empty list; none since the previous call gives
     * the previous result again (cumulative) or nothing (delta: nothing happened since).
     *
     * @throws NullPointerException if {@code resource} is null
     */
    @Override
    public Collection<MetricData> produce(Resource resource) {
        Objects.requireNonNull(resource, "resource");
        lock.lock();
        try {
            List<Snapshot> snapshots = registry != null ? List.of(registry.collect()) : takePending();
            if (snapshots.isEmpty()) {
                return temporality == AggregationTemporality.CUMULATIVE ? lastResult : List.of();
            }
            List<MetricData> result = List.copyOf(converter.convert(snapshots, resource, scope));
            lastResult = result;
            return result;
        } finally {
            lock.unlock();
        }
    }

    /** Every snapshot accepted since the previous call, oldest first. */
    private List<Snapshot> takePending() {
        ArrayDeque<Snapshot> taken;
        pendingLock.lock();
        try {
            taken = pending;
            pending = new ArrayDeque<>();
        } finally {
            pendingLock.unlock();
        }
        return new ArrayList<>(taken);
    }

    /** The bucket bounds this producer's histograms of {@code precision} have (for tests and docs). */
    java.util.List<Double> bounds(dev.statvar.HistogramPrecision precision) {
        lock.lock();
        try {
            return converter.buckets(precision).bounds();
        } finally {
            lock.unlock();
        }
    }

    /** statvar's version, from the filtered resource the build writes. */
    static String version() {
        try (InputStream in = StatvarMetricProducer.class.getResourceAsStream("statvar-otel.properties")) {
            if (in == null) {
                throw new IllegalStateException("statvar-otel.properties is missing from the statvar-otel jar");
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return "StatvarMetricProducer[" + (registry != null ? "collecting" : "fed") + ", " + temporality + "]";
    }

    /** Options of a {@link StatvarMetricProducer}. */
    public static final class Builder {
        private final StatRegistry registry;
        private AggregationTemporality temporality = AggregationTemporality.CUMULATIVE;
        private dev.statvar.export.ExportOptions boundaries = dev.statvar.export.ExportOptions.defaults();

        private Builder(StatRegistry registry) {
            this.registry = registry;
        }

        /**
         * {@link AggregationTemporality#CUMULATIVE} (the default: totals since each series was
         * registered) or {@link AggregationTemporality#DELTA} (the change since the previous produce).
         *
         * @param temporality the temporality of every sum and histogram
         * @return this builder
         * @throws NullPointerException if {@code temporality} is null
         */
        public Builder temporality(AggregationTemporality temporality) {
            this.temporality = Objects.requireNonNull(temporality, "temporality");
            return this;
        }

        /**
         * The histogram bucket boundaries, as statvar-export's {@code ExportOptions} takes them
         * (default {@code ExportOptions.defaultBoundaries()}: 1, 2, 5, 10, ... 10^10): each becomes the
         * upper bound of the statvar bucket holding it, so every bucket count is exact.
         *
         * @param boundaries requested boundaries, increasing, each {@code >= 0}
         * @return this builder
         * @throws IllegalArgumentException if a boundary is negative, they are not increasing, or there
         *                                  are more than {@code ExportOptions.MAX_BOUNDARIES}
         * @throws NullPointerException     if {@code boundaries} is null
         */
        public Builder histogramBoundaries(long... boundaries) {
            Objects.requireNonNull(boundaries, "boundaries");
            // ExportOptions validates them exactly as the Prometheus exposition does
            this.boundaries = dev.statvar.export.ExportOptions.defaults().withBoundaries(boundaries);
            return this;
        }

        /**
         * The producer.
         *
         * @return a new producer with this builder's settings
         */
        public StatvarMetricProducer build() {
            return new StatvarMetricProducer(this);
        }
    }
}
