package dev.statvar.otel;

import dev.statvar.BucketBoundaries;
import dev.statvar.CounterValue;
import dev.statvar.ExponentialBuckets;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatValue;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.GaugeData;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramBuckets;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramData;
import io.opentelemetry.sdk.metrics.data.ExponentialHistogramPointData;
import io.opentelemetry.sdk.metrics.data.HistogramData;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.metrics.data.SumData;
import io.opentelemetry.sdk.resources.Resource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/*
 * Design
 * ------
 * Every value is derived from the engine's totals since registration (CounterValue.total,
 * GaugeValue.totalCount/totalSum, HistogramValue.totals()), never from the interval values, so
 * it is exact however many other collects (a StatCollector, a manual collect(), another
 * exporter) closed intervals in between: cumulative = totals now; delta = totals now minus the
 * totals this converter saw at its previous conversion ("Previous", per series). A series seen
 * for the first time starts from zero at its registration time.
 *
 * Only min and max are per interval in statvar. They are put on a point only when the intervals
 * they come from are exactly what the point covers: for a delta (and for a gauge's min/max,
 * which cover the window since the previous conversion) the intervals received since the
 * previous conversion (one, or several merged for a fed producer) must hold every record of the
 * window (their count == delta of the totals: no other collect took any of them, no snapshot was
 * dropped), and the engine must call them exact (isMinMaxExact). A cumulative histogram point takes the
 * all-time min/max that the engine keeps in totals().
 *
 * Not thread-safe: StatvarMetricProducer serialises conversions.
 */

/** Turns statvar snapshots into OpenTelemetry MetricData, keeping the totals of the previous conversion. */
final class SnapshotConverter {
    /** The totals of one series at the previous conversion, and when that window ended. */
    private static final class Previous {
        long createdNanos; // when the series was registered: another value is a new series of the same key
        long endNanos;
        long total; // counter total; gauge or histogram count
        long sum; // gauge or histogram sum (modulo 2^64)
        long[] bucketCounts; // histogram: per OpenTelemetry bucket
    }

    /** The attribute by which the OpenTelemetry SDK marks a metric's overflow point (cardinality limit). */
    static final AttributeKey<Boolean> OVERFLOW = AttributeKey.booleanKey("otel.metric.overflow");

    private final AggregationTemporality temporality;
    private final BucketBoundaries bounds;
    private final Map<HistogramPrecision, ExplicitBuckets> bucketsByPrecision = new HashMap<>();
    private final Map<String, Previous> previous = new HashMap<>();

    /** Exponential histograms: the most buckets and the highest scale (0 buckets: explicit buckets instead). */
    private final int exponentialMaxBuckets;
    private final int exponentialMaxScale;

    SnapshotConverter(AggregationTemporality temporality, BucketBoundaries bounds) {
        this(temporality, bounds, 0, 0);
    }

    /** {@code exponentialMaxBuckets} 0: explicit-bucket histograms; else exponential ones, as the SDK's base2 aggregation. */
    SnapshotConverter(AggregationTemporality temporality, BucketBoundaries bounds, int exponentialMaxBuckets, int exponentialMaxScale) {
        this.temporality = temporality;
        this.bounds = bounds;
        this.exponentialMaxBuckets = exponentialMaxBuckets;
        this.exponentialMaxScale = exponentialMaxScale;
    }

    /** The bucket bounds of a precision (cached: a registry has few precisions). */
    ExplicitBuckets buckets(HistogramPrecision precision) {
        return bucketsByPrecision.computeIfAbsent(precision, p -> new ExplicitBuckets(bounds.at(p)));
    }

    /**
     * The metrics of the last of {@code snapshots}: one per counter or histogram name, up to five per
     * gauge name (see the docs). {@code snapshots}: those received since the previous conversion, in
     * order (one, for a collecting producer); the earlier ones only lend their intervals' min/max.
     */
    List<MetricData> convert(List<Snapshot> snapshots, Resource resource, InstrumentationScopeInfo scope) {
        Snapshot s = snapshots.get(snapshots.size() - 1);
        Map<String, List<StatValue>> earlier = new HashMap<>();
        for (Snapshot e : snapshots.subList(0, snapshots.size() - 1)) {
            for (StatValue v : e.values()) {
                earlier.computeIfAbsent(v.name() + v.labels(), k -> new ArrayList<>()).add(v);
            }
        }
        long end = epochNanos(s.end());
        Map<String, List<StatValue>> byName = new LinkedHashMap<>();
        for (StatValue v : s.values()) {
            byName.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(v);
        }
        List<MetricData> out = new ArrayList<>();
        Map<String, Previous> next = new HashMap<>();
        for (Map.Entry<String, List<StatValue>> e : byName.entrySet()) {
            List<StatValue> series = e.getValue();
            Metrics m = new Metrics(resource, scope, e.getKey(), series.get(0).help(), out);
            for (StatValue v : series) {
                String key = v.name() + v.labels();
                long created = epochNanos(s.created(v));
                Previous p = previous.get(key);
                if (p == null || p.createdNanos != created) { // new, or removed and registered again
                    p = new Previous();
                    p.createdNanos = created;
                    p.endNanos = created;
                }
                long start = temporality == AggregationTemporality.CUMULATIVE ? created : p.endNanos;
                Attributes attributes = attributes(v.labels());
                if (v instanceof CounterValue c) {
                    m.counter.add(LongPointData.create(start, end, attributes, value(c.total(), p.total)));
                    p.total = c.total();
                } else if (v instanceof GaugeValue g) {
                    gauge(m, merged(g, earlier.get(key)), p, start, end, attributes);
                } else {
                    HistogramValue h = (HistogramValue) v;
                    histogram(m, h, merged(h, earlier.get(key)), p, start, end, attributes);
                }
                p.endNanos = end;
                next.put(key, p);
            }
            m.finish();
        }
        previous.clear();
        previous.putAll(next);
        return out;
    }

    /** {@code g} (totals and the last interval) with the intervals of {@code earlier} added: count, sum, min/max. */
    private static GaugeValue merged(GaugeValue g, List<StatValue> earlier) {
        if (earlier == null) {
            return g;
        }
        long count = g.count();
        long sum = g.sum();
        long min = g.min();
        long max = g.max();
        boolean exact = g.isMinMaxExact();
        for (StatValue v : earlier) {
            GaugeValue e = (GaugeValue) v;
            if (e.count() > 0) {
                min = count > 0 ? Math.min(min, e.min()) : e.min();
                max = count > 0 ? Math.max(max, e.max()) : e.max();
                count += e.count();
                sum += e.sum();
                exact &= e.isMinMaxExact();
            }
        }
        return new GaugeValue(g.name(), g.help(), g.labels(), count, sum, min, max, g.totalCount(), g.totalSum(), exact);
    }

    /** The intervals of {@code earlier} and of {@code h} merged (count, buckets, min/max); {@code h} itself when none. */
    private static HistogramValue merged(HistogramValue h, List<StatValue> earlier) {
        if (earlier == null) {
            return h;
        }
        List<HistogramValue> all = new ArrayList<>();
        for (StatValue v : earlier) {
            all.add((HistogramValue) v);
        }
        all.add(h);
        return HistogramValue.mergeAll(h.name(), h.help(), all);
    }

    /** {@code g}: totals as of the last snapshot; count, min and max of the intervals received since the previous conversion. */
    private void gauge(Metrics m, GaugeValue g, Previous p, long start, long end, Attributes attributes) {
        long windowCount = g.totalCount() - p.total;
        long windowSum = g.totalSum() - p.sum;
        if (windowCount > 0) {
            // the mean of the reports since the previous conversion, whoever collected in between
            m.mean.add(DoublePointData.create(p.endNanos, end, attributes, (double) windowSum / windowCount, List.of()));
        }
        if (g.count() > 0 && g.count() == windowCount && g.isMinMaxExact()) {
            m.min.add(LongPointData.create(p.endNanos, end, attributes, g.min()));
            m.max.add(LongPointData.create(p.endNanos, end, attributes, g.max()));
        }
        m.count.add(LongPointData.create(start, end, attributes, value(g.totalCount(), p.total)));
        m.sum.add(LongPointData.create(start, end, attributes, value(g.totalSum(), p.sum)));
        p.total = g.totalCount();
        p.sum = g.totalSum();
    }

    /** {@code h}: the last snapshot's value (its totals); {@code interval}: the intervals received since the previous conversion. */
    private void histogram(Metrics m, HistogramValue h, HistogramValue interval, Previous p, long start, long end,
                           Attributes attributes) {
        if (exponentialMaxBuckets > 0) {
            exponential(m, h, interval, p, start, end, attributes);
            return;
        }
        HistogramValue t = h.totals();
        ExplicitBuckets buckets = buckets(t.precision());
        long[] counts = buckets.counts(t);
        List<Long> pointCounts = new ArrayList<>(counts.length);
        for (int i = 0; i < counts.length; i++) {
            pointCounts.add(p.bucketCounts == null ? value(counts[i], 0) : value(counts[i], p.bucketCounts[i]));
        }
        long count = value(t.count(), p.total);
        double sum = unsigned(value(t.sum(), p.sum));
        boolean cumulative = temporality == AggregationTemporality.CUMULATIVE;
        HistogramValue minMaxOf = cumulative ? t : interval;
        boolean hasMinMax = minMaxOf.count() > 0 && minMaxOf.isMinMaxExact() && (cumulative || interval.count() == count);
        m.histogram.add(HistogramPointData.create(start, end, attributes, sum, hasMinMax,
                hasMinMax ? minMaxOf.min() : 0, hasMinMax, hasMinMax ? minMaxOf.max() : 0,
                buckets.bounds(), pointCounts));
        p.total = t.count();
        p.sum = t.sum();
        p.bucketCounts = counts;
    }

    /**
     * An exponential histogram point: statvar-core's {@link ExponentialBuckets} (the buckets statvar-prometheus'
     * native histograms carry, values as recorded) at scale min(maxScale, the precision's), lowered while the
     * buckets span more than maxBuckets indices, as the SDK's base2 aggregation rescales. Cumulative: the totals; delta: the
     * intervals received since the previous conversion.
     */
    private void exponential(Metrics m, HistogramValue h, HistogramValue interval, Previous p, long start, long end,
                             Attributes attributes) {
        HistogramValue t = h.totals();
        boolean cumulative = temporality == AggregationTemporality.CUMULATIVE;
        HistogramValue shown = cumulative ? t : interval;
        int scale = Math.min(exponentialMaxScale, ExponentialBuckets.schemaFor(shown.precision()));
        // the SDK's limit is on the dense range of buckets (OpenTelemetry sends them dense), not on the populated ones
        ExponentialBuckets b = ExponentialBuckets.of(shown, 0, scale, Integer.MAX_VALUE);
        while (b.denseCounts().length > exponentialMaxBuckets && b.schema() > ExponentialBuckets.MIN_SCHEMA) {
            b = ExponentialBuckets.of(shown, 0, b.schema() - 1, Integer.MAX_VALUE);
        }
        // OpenTelemetry's bucket index is Prometheus' minus one: offset = first index - 1
        ExponentialHistogramBuckets positive = ExponentialHistogramBuckets.create(b.schema(), b.firstIndex() - 1,
                java.util.Arrays.stream(b.denseCounts()).boxed().toList());
        ExponentialHistogramBuckets negative = ExponentialHistogramBuckets.create(b.schema(), 0, List.of());
        boolean hasMinMax = shown.count() > 0 && shown.isMinMaxExact();
        m.exponential.add(ExponentialHistogramPointData.create(b.schema(), unsigned(shown.sum()), b.zeroCount(),
                hasMinMax, hasMinMax ? shown.min() : 0, hasMinMax, hasMinMax ? shown.max() : 0, positive, negative,
                start, end, attributes, List.of()));
        p.total = t.count();
        p.sum = t.sum();
    }

    /** The point's value: the total, or (delta) its change since the previous conversion, modulo 2^64. */
    private long value(long total, long previousTotal) {
        return temporality == AggregationTemporality.CUMULATIVE ? total : total - previousTotal;
    }

    /** A histogram sum (never negative in statvar, exact modulo 2^64) as a double, read unsigned. */
    static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }

    static long epochNanos(Instant i) {
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
    }

    static Attributes attributes(Labels labels) {
        if (labels.isEmpty()) {
            return Attributes.empty();
        }
        AttributesBuilder b = Attributes.builder();
        for (int i = 0; i < labels.size(); i++) {
            if (labels.name(i).equals(StatFamily.OVERFLOW_LABEL)) {
                b.put(OVERFLOW, Boolean.parseBoolean(labels.value(i))); // the SDK's own overflow attribute
            } else {
                b.put(labels.name(i), labels.value(i));
            }
        }
        return b.build();
    }

    /** The points of one stat name (a stat, or every series of a family), gathered per metric. */
    private final class Metrics {
        final Resource resource;
        final InstrumentationScopeInfo scope;
        final String name;
        final String help;
        final List<MetricData> out;
        final List<LongPointData> counter = new ArrayList<>();
        final List<DoublePointData> mean = new ArrayList<>();
        final List<LongPointData> count = new ArrayList<>();
        final List<LongPointData> sum = new ArrayList<>();
        final List<LongPointData> min = new ArrayList<>();
        final List<LongPointData> max = new ArrayList<>();
        final List<HistogramPointData> histogram = new ArrayList<>();
        final List<ExponentialHistogramPointData> exponential = new ArrayList<>();

        Metrics(Resource resource, InstrumentationScopeInfo scope, String name, String help, List<MetricData> out) {
            this.resource = resource;
            this.scope = scope;
            this.name = name;
            this.help = help;
            this.out = out;
        }

        /** Adds a metric for every kind of point gathered; a metric without points is left out. */
        void finish() {
            if (!counter.isEmpty()) {
                add(name, help, MetricDataType.LONG_SUM, SumData.createLongSumData(true, temporality, counter));
            }
            if (!mean.isEmpty()) {
                add(name, describe("mean of the values reported since the previous export"),
                        MetricDataType.DOUBLE_GAUGE, GaugeData.createDoubleGaugeData(mean));
            }
            if (!count.isEmpty()) {
                add(name + ".count", describe("number of values reported"), MetricDataType.LONG_SUM,
                        SumData.createLongSumData(true, temporality, count));
                add(name + ".sum", describe("sum of the values reported"), MetricDataType.LONG_SUM,
                        SumData.createLongSumData(false, temporality, sum));
            }
            if (!min.isEmpty()) {
                add(name + ".min", describe("smallest value reported since the previous export"),
                        MetricDataType.LONG_GAUGE, GaugeData.createLongGaugeData(min));
                add(name + ".max", describe("largest value reported since the previous export"),
                        MetricDataType.LONG_GAUGE, GaugeData.createLongGaugeData(max));
            }
            if (!histogram.isEmpty()) {
                add(name, help, MetricDataType.HISTOGRAM, HistogramData.create(temporality, histogram));
            }
            if (!exponential.isEmpty()) {
                add(name, help, MetricDataType.EXPONENTIAL_HISTOGRAM, ExponentialHistogramData.create(temporality, exponential));
            }
        }

        private String describe(String what) {
            return help.isEmpty() ? what : help + " (" + what + ")";
        }

        private void add(String metricName, String description, MetricDataType type,
                         io.opentelemetry.sdk.metrics.data.Data<?> data) {
            out.add(new StatvarMetricData(resource, scope, metricName, description, type, data));
        }
    }
}
