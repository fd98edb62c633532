package dev.statvar.otel;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricProducer;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.resources.Resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
 * Several readers: the SDK calls a provider's producers from every reader's collection and tells
 * them nothing about the reader. forReader(reader) wraps a reader so that its collections run with
 * its cursor current (a ThreadLocal of this producer, set around the SDK's collectAllMetrics, which
 * calls produce on the same thread); each cursor has its own converter and position in a
 * SnapshotLog of the snapshots taken or received, so each reader's window is "since its previous
 * collection" (gauge mean/min/max, deltas). Calls outside a wrapped reader use one default cursor.
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
 *       producer's previous {@code produce} for the calling reader.</li>
 *   <li><b>Several readers</b>: wrap each reader of the provider with {@link #forReader}.
 *       Each wrapped reader then gets its own window: gauge mean, min and max and delta points
 *       cover everything since <em>that reader's</em> previous collection, whatever the others
 *       collected. Unwrapped readers share one window (each sees only what the others left), and
 *       once a producer has wrapped readers, a {@code produce} from outside them throws
 *       {@link IllegalStateException}.</li>
 * </ul>
 */
public final class StatvarMetricProducer implements MetricProducer, Consumer<Snapshot> {
    /** The instrumentation scope name of every metric this producer makes. */
    public static final String SCOPE_NAME = "dev.statvar";
    /**
     * Most snapshots a producer keeps for readers that have not collected them yet (a {@link #fed}
     * producer's received ones; with several {@link #forReader wrapped readers}, also those the others
     * collected); beyond it the oldest is dropped. Only min/max use the earlier ones (a dropped one
     * leaves them out: the intervals kept no longer cover the window); counts, sums and the gauge mean
     * come from the totals.
     */
    public static final int MAX_PENDING = 64;

    private final StatRegistry registry; // null: fed by accept()
    private final AggregationTemporality temporality;
    private final dev.statvar.BucketBoundaries boundaries;
    private final int exponentialMaxBuckets; // 0: explicit-bucket histograms
    private final int exponentialMaxScale;
    private final InstrumentationScopeInfo scope;
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by lock: the snapshots not yet taken by every reader, and each reader's cursor. */
    private final SnapshotLog log = new SnapshotLog(MAX_PENDING);
    /** Guarded by lock: the cursor of produce calls outside a wrapped reader, made at the first one. */
    private SnapshotLog.Cursor defaultCursor;
    /** Guarded by lock: the readers wrapped by forReader, to refuse wrapping one twice. */
    private final Map<MetricReader, Boolean> wrapped = new IdentityHashMap<>();
    /** The cursor of the wrapped reader collecting on this thread, if any: set and read by the same thread only. */
    private final ThreadLocal<SnapshotLog.Cursor> current = new ThreadLocal<>();
    /** Guards pending only: held to add one snapshot or to take them all, never during a conversion. */
    private final ReentrantLock pendingLock = new ReentrantLock();
    /** Guarded by pendingLock: snapshots accepted since the previous produce, oldest first, at most MAX_PENDING. */
    private ArrayDeque<Snapshot> pending = new ArrayDeque<>();

    private StatvarMetricProducer(Builder b) {
        this.registry = b.registry;
        this.temporality = b.temporality;
        this.boundaries = b.boundaries;
        this.exponentialMaxBuckets = b.exponentialMaxBuckets;
        this.exponentialMaxScale = b.exponentialMaxScale;
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
     * producer converts the last snapshot received. Gauge mean, min and max (and delta points)
     * cover every interval taken or received since the calling reader's previous collection (see
     * {@link #forReader}): none yet gives an empty list; none since that reader's previous call
     * gives its previous result again (cumulative) or nothing (delta: nothing happened since).
     *
     * @throws NullPointerException  if {@code resource} is null
     * @throws IllegalStateException if called outside the collection of a reader wrapped by
     *                               {@link #forReader} while this producer has wrapped readers
     */
    @Override
    public Collection<MetricData> produce(Resource resource) {
        Objects.requireNonNull(resource, "resource");
        SnapshotLog.Cursor cursor = current.get();
        lock.lock();
        try {
            if (cursor == null) {
                cursor = defaultCursor();
            }
            log.append(registry != null ? List.of(registry.collect()) : takePending());
            List<Snapshot> snapshots = log.take(cursor);
            if (snapshots.isEmpty()) {
                return temporality == AggregationTemporality.CUMULATIVE ? cursor.lastResult : List.of();
            }
            List<MetricData> result = List.copyOf(cursor.converter.convert(snapshots, resource, scope));
            cursor.lastResult = result;
            return result;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wraps {@code reader} so that this producer gives it a window of its own: register the returned
     * reader with the provider instead of {@code reader}, and wrap every reader of a provider this
     * producer serves, e.g.
     * <pre>{@code
     * SdkMeterProvider.builder()
     *         .registerMetricReader(producer.forReader(PeriodicMetricReader.create(otlpExporter)))
     *         .registerMetricReader(producer.forReader(otherReader))
     *         .registerMetricProducer(producer)
     *         .build();
     * }</pre>
     * Each wrapped reader's points cover everything since <em>its</em> previous collection: gauge
     * mean, min and max, and deltas, whatever the other readers collected in between. The producer
     * keeps the snapshots a reader has not collected yet (at most {@link #MAX_PENDING}; beyond, that
     * reader's next gauge and delta points lose min/max, as for a slow {@link #fed} reader) until
     * the returned reader's {@code shutdown} completes. Every call other than a collection goes to
     * {@code reader}. Thread-safe.
     *
     * @param reader the reader to wrap
     * @return a reader that collects through {@code reader} with its own window of this producer
     * @throws NullPointerException     if {@code reader} is null
     * @throws IllegalArgumentException if {@code reader} was already wrapped by this producer
     */
    public MetricReader forReader(MetricReader reader) {
        Objects.requireNonNull(reader, "reader");
        lock.lock();
        try {
            if (wrapped.putIfAbsent(reader, Boolean.TRUE) != null) {
                throw new IllegalArgumentException("reader " + reader + " is already wrapped by this producer; "
                        + "register the reader forReader returned for it");
            }
            if (defaultCursor != null) { // unwrapped calls are refused from now on: stop keeping snapshots for them
                log.remove(defaultCursor);
                defaultCursor = null;
            }
            return new ReaderCursor(reader, this, log.newCursor(converter()));
        } finally {
            lock.unlock();
        }
    }

    /** Runs the SDK's collection for a wrapped reader with its cursor current on this thread. */
    Collection<MetricData> collectAs(SnapshotLog.Cursor cursor, CollectionRegistration registration) {
        SnapshotLog.Cursor outer = current.get();
        current.set(cursor);
        try {
            return registration.collectAllMetrics();
        } finally {
            if (outer == null) {
                current.remove();
            } else {
                current.set(outer);
            }
        }
    }

    /** A wrapped reader shut down: its cursor no longer holds snapshots. */
    void release(SnapshotLog.Cursor cursor) {
        lock.lock();
        try {
            log.remove(cursor);
        } finally {
            lock.unlock();
        }
    }

    /** The cursor of calls outside a wrapped reader; refused while wrapped readers are registered. Under lock. */
    private SnapshotLog.Cursor defaultCursor() {
        int readers = log.cursorCount() - (defaultCursor != null ? 1 : 0);
        if (readers > 0) {
            throw new IllegalStateException("produce() called outside the readers wrapped by forReader, while this "
                    + "producer serves " + readers + " of them: an unwrapped reader would take the other readers' "
                    + "windows; register every reader of the provider as producer.forReader(reader)");
        }
        if (defaultCursor == null) {
            defaultCursor = log.newCursor(converter());
        }
        return defaultCursor;
    }

    private SnapshotConverter converter() {
        return new SnapshotConverter(temporality, boundaries, exponentialMaxBuckets, exponentialMaxScale);
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
        return converter().buckets(precision).bounds();
    }

    /** Snapshots kept for readers that have not collected them yet (for tests). */
    int kept() {
        lock.lock();
        try {
            return log.size();
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
        private dev.statvar.BucketBoundaries boundaries = dev.statvar.BucketBoundaries.defaults();
        private int exponentialMaxBuckets;
        private int exponentialMaxScale;

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
         * The histogram bucket boundaries, as {@link dev.statvar.BucketBoundaries} takes them
         * (default {@link dev.statvar.BucketBoundaries#defaults()}: 1, 2, 5, 10, ... 10^10): each becomes the
         * upper bound of the statvar bucket holding it, so every bucket count is exact.
         *
         * @param boundaries requested boundaries, increasing, each {@code >= 0}
         * @return this builder
         * @throws IllegalArgumentException if a boundary is negative, they are not increasing, or there
         *                                  are more than {@link dev.statvar.BucketBoundaries#MAX}
         * @throws NullPointerException     if {@code boundaries} is null
         */
        public Builder histogramBoundaries(long... boundaries) {
            Objects.requireNonNull(boundaries, "boundaries");
            // validated as the Prometheus exposition's ExportOptions validates them: by BucketBoundaries
            this.boundaries = dev.statvar.BucketBoundaries.of(boundaries);
            return this;
        }

        /**
         * Histograms as {@code ExponentialHistogramData} (base-2 exponential buckets) instead of explicit
         * buckets, with the SDK's defaults: as {@code Aggregation.base2ExponentialBucketHistogram()}, at most
         * 160 buckets, scale at most 20.
         *
         * @return this builder
         */
        public Builder exponentialHistograms() {
            return exponentialHistograms(160, 20);
        }

        /**
         * Histograms as {@code ExponentialHistogramData} (base-2 exponential buckets) instead of explicit
         * buckets, selected as the SDK selects its aggregation ({@code
         * Aggregation.base2ExponentialBucketHistogram(maxBuckets, maxScale)}). The buckets are those
         * statvar-prometheus' native histograms carry (statvar-core's {@link dev.statvar.ExponentialBuckets}; OpenTelemetry
         * index = Prometheus index - 1), in the unit the histogram records: scale = min(maxScale, the precision's
         * {@code subBucketBits - 1}), lowered (pairs merged) while the buckets from the first to the last populated
         * one are more than {@code maxBuckets}, as the SDK rescales; each statvar bucket whole in the bucket of its middle, so a quantile read from them is
         * within {@code ExponentialBuckets.relativeErrorBound} (2.99 % at the defaults).
         *
         * @param maxBuckets the most populated buckets, at least 2 (the SDK's minimum)
         * @param maxScale   the highest scale, -10..20 as the SDK takes it (statvar's highest is 8)
         * @return this builder
         * @throws IllegalArgumentException if {@code maxBuckets} is below 2 or {@code maxScale} outside -10..20
         */
        public Builder exponentialHistograms(int maxBuckets, int maxScale) {
            if (maxBuckets < 2) {
                throw new IllegalArgumentException("maxBuckets must be at least 2 (as the SDK's), was " + maxBuckets);
            }
            if (maxScale < -10 || maxScale > 20) {
                throw new IllegalArgumentException("maxScale must be in -10..20 (as the SDK's), was " + maxScale);
            }
            this.exponentialMaxBuckets = maxBuckets;
            this.exponentialMaxScale = Math.max(dev.statvar.ExponentialBuckets.MIN_SCHEMA,
                    Math.min(dev.statvar.ExponentialBuckets.MAX_SCHEMA, maxScale));
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
