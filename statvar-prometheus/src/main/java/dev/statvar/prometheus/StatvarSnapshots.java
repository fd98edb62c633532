package dev.statvar.prometheus;

import dev.statvar.BucketRange;
import dev.statvar.ExponentialBuckets;
import dev.statvar.export.ProtobufExposition;
import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.StatValue;
import dev.statvar.export.ExportOptions;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.Exemplars;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import io.prometheus.metrics.model.snapshots.Quantiles;
import io.prometheus.metrics.model.snapshots.SummarySnapshot;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * statvar values as client_java {@link MetricSnapshots}, with the families, series and units of
 * statvar-export's text format ({@code Exposition}), so that a dashboard reads the same names whichever
 * endpoint it scrapes:
 * <ul>
 *   <li>a counter: {@link CounterSnapshot} {@code NAME} (a trailing {@code _total} not doubled), its total;</li>
 *   <li>a gauge: {@link SummarySnapshot} {@code NAME} without quantiles (count and sum of every report), and
 *       {@link GaugeSnapshot}s {@code NAME_min} and {@code NAME_max} of the last interval (NaN when it had none);</li>
 *   <li>a histogram: {@link HistogramSnapshot} {@code NAME} of its totals since registration, with the classic
 *       buckets of {@link ExportOptions#boundariesAt} (exact counts) <b>and</b> native buckets, and
 *       {@link GaugeSnapshot} {@code NAME_interval_percentile} of the last interval.</li>
 * </ul>
 *
 * <h2>Native buckets</h2>
 * Schema {@link #schemaFor(HistogramPrecision) subBucketBits - 1} (5 at the default precision) unless set
 * ({@link #withNativeSchema}); zero threshold {@link #ZERO_THRESHOLD} (client_java's and client_golang's),
 * whose bucket holds exactly the zeros; each statvar bucket's count goes whole to the native bucket that holds
 * the bucket's middle taken in the exposed unit (nanoseconds shown in seconds: the middle in seconds). A
 * quantile read from the native buckets anywhere inside the bucket that holds its rank is within
 * {@link #relativeErrorBound} of the exact quantile of the recorded values: statvar's own error and the native
 * bucket's width, {@code (1 + 2^-(b+1)) * 2^(2^-schema) - 1}, 2.99 % by default. A histogram whose populated
 * native buckets exceed {@link #withMaxNativeBuckets the limit} (160 by default) has its schema lowered by one,
 * pairs of buckets merged, until they fit (as client_java's histogram does), down to schema -4. statvar
 * histograms hold no negative value, so the negative buckets are always empty.
 *
 * <h2>Threading contract</h2>
 * Immutable: any number of threads convert with one instance at once. A conversion reads only its arguments
 * (immutable statvar values) and two caches that hold pure functions of their keys, filled on first use
 * through {@code ConcurrentHashMap.computeIfAbsent}: classic bounds per precision (this instance) and the
 * native index of every statvar bucket per (precision, unit, schema) (shared, at most a few hundred KiB).
 */
public final class StatvarSnapshots {
    /** {@link #withNativeSchema}: the schema follows each histogram's precision ({@link #schemaFor}). */
    public static final int SCHEMA_FROM_PRECISION = ProtobufExposition.SCHEMA_FROM_PRECISION;
    /** The default limit on a histogram's populated native buckets, client_java's. */
    public static final int DEFAULT_MAX_NATIVE_BUCKETS = 160;
    /** The native zero bucket's threshold, 2^-128 (client_java's and client_golang's default): holds only 0. */
    public static final double ZERO_THRESHOLD = 0x1p-128;

    private final ExportOptions options;
    private final int schema;
    private final int maxBuckets;
    /** Classic upper bounds (raw values) per precision, from options. */
    private final Map<HistogramPrecision, long[]> les = new ConcurrentHashMap<>();

    private StatvarSnapshots(ExportOptions options, int schema, int maxBuckets) {
        this.options = Objects.requireNonNull(options, "options");
        this.schema = schema;
        this.maxBuckets = maxBuckets;
    }

    /**
     * A conversion with these options' units, classic boundaries and quantiles; native schema from each
     * histogram's precision, at most {@value #DEFAULT_MAX_NATIVE_BUCKETS} native buckets.
     *
     * @param options as statvar-export's text format uses them
     * @return a new conversion
     * @throws NullPointerException if {@code options} is null
     */
    public static StatvarSnapshots of(ExportOptions options) {
        return new StatvarSnapshots(options, SCHEMA_FROM_PRECISION, DEFAULT_MAX_NATIVE_BUCKETS);
    }

    /**
     * This conversion with one native schema for every histogram.
     *
     * @param schema -4..8 (each step up doubles the buckets per power of two), or {@link #SCHEMA_FROM_PRECISION}
     * @return a new conversion; this one is unchanged
     * @throws IllegalArgumentException if {@code schema} is neither
     */
    public StatvarSnapshots withNativeSchema(int schema) {
        return new StatvarSnapshots(options, checkSchema(schema), maxBuckets);
    }

    /** {@code schema}, if -4..8 or {@link #SCHEMA_FROM_PRECISION}. */
    static int checkSchema(int schema) {
        if (schema != SCHEMA_FROM_PRECISION && (schema < ExponentialBuckets.MIN_SCHEMA || schema > ExponentialBuckets.MAX_SCHEMA)) {
            throw new IllegalArgumentException("native schema must be in " + ExponentialBuckets.MIN_SCHEMA + ".."
                    + ExponentialBuckets.MAX_SCHEMA + " (or SCHEMA_FROM_PRECISION), was " + schema);
        }
        return schema;
    }

    /** {@code maxBuckets}, if at least 1. */
    static int checkMaxBuckets(int maxBuckets) {
        if (maxBuckets < 1) {
            throw new IllegalArgumentException("the native bucket limit must be at least 1, was " + maxBuckets);
        }
        return maxBuckets;
    }

    /**
     * This conversion with another limit on a histogram's populated native buckets.
     *
     * @param maxBuckets at least 1
     * @return a new conversion; this one is unchanged
     * @throws IllegalArgumentException if {@code maxBuckets} is below 1
     */
    public StatvarSnapshots withMaxNativeBuckets(int maxBuckets) {
        return new StatvarSnapshots(options, schema, checkMaxBuckets(maxBuckets));
    }

    /**
     * The options (units, classic boundaries, quantiles).
     *
     * @return the options given to {@link #of}
     */
    public ExportOptions options() {
        return options;
    }

    /**
     * The native schema a histogram of {@code precision} gets when none is set: {@code subBucketBits - 1}
     * within -4..8 (5 for the default 6), whose buckets are relatively about 1.4 times as wide as statvar's
     * widest ({@code 2^(2^-s) - 1 ~ 1.39 * 2^-b}): a native bucket spans 1.4 to 2.8 statvar buckets.
     *
     * @param precision a histogram's precision
     * @return its schema
     */
    public static int schemaFor(HistogramPrecision precision) {
        return ExponentialBuckets.schemaFor(precision);
    }

    /**
     * The largest relative error of a quantile read from the native buckets (any value in the bucket that
     * holds its rank) against the exact quantile of the values recorded: {@code (1 + e) * 2^(2^-schema) - 1},
     * {@code e = precision.maxRelativeError()}.
     *
     * @param precision the histogram's precision
     * @param schema    the native schema exposed (after any lowering)
     * @return the bound, e.g. 0.0299 for the default precision at schema 5
     */
    public static double relativeErrorBound(HistogramPrecision precision, int schema) {
        return ExponentialBuckets.relativeErrorBound(precision, schema);
    }

    /**
     * The snapshots of {@code values}.
     *
     * @param values   the values, a family's series in any order; families in first-appearance order
     * @param created  when each value's stat was registered (created timestamps); null: none
     * @param problems receives a line per family left out because its names collide with an earlier
     *                 family's; may be null
     * @return the snapshots, one per family shown
     * @throws NullPointerException if {@code values} or a value is null, or {@code created} returns null
     */
    public MetricSnapshots convert(List<? extends StatValue> values, Function<? super StatValue, Instant> created,
                                   List<String> problems) {
        return convert(values, created, null, problems);
    }

    /**
     * As {@link #convert(List, Function, List)}, each counter's total given by {@code counterTotal} (e.g.
     * statvar-export's, which adds 2^64 per wrap it saw), in the stat's own unit; null: {@code total()} unsigned.
     *
     * @param values       the values, a family's series in any order
     * @param created      when each value's stat was registered; null: none
     * @param counterTotal a counter's total, unsigned, or null
     * @param problems     receives a line per family left out; may be null
     * @return the snapshots, one per family shown
     * @throws NullPointerException if {@code values} or a value is null, or {@code created} returns null
     */
    public MetricSnapshots convert(List<? extends StatValue> values, Function<? super StatValue, Instant> created,
                                   ToDoubleFunction<? super CounterValue> counterTotal, List<String> problems) {
        Objects.requireNonNull(values, "values");
        Map<String, List<StatValue>> families = new LinkedHashMap<>();
        for (StatValue v : values) {
            Objects.requireNonNull(v, "values holds a null value");
            families.computeIfAbsent(v.name(), k -> new ArrayList<>()).add(v);
        }
        List<MetricSnapshot> out = new ArrayList<>(families.size() * 2);
        Map<String, String> taken = new HashMap<>(); // exposed name -> the stat that uses it
        for (List<StatValue> series : families.values()) {
            StatValue first = series.get(0);
            Naming unit = Naming.of(first.name(), options);
            String family = unit.family(first.kind(), first.name());
            String who = first.kind().label() + " '" + first.name() + "'";
            List<String> names = Naming.names(first.kind(), family);
            String clash = names.stream().filter(taken::containsKey).findFirst().orElse(null);
            if (clash != null) {
                if (problems != null) {
                    problems.add(who + " is not exported: its name '" + clash + "' is already used by " + taken.get(clash));
                }
                continue;
            }
            names.forEach(n -> taken.put(n, who));
            switch (first.kind()) {
                case COUNTER -> out.add(counter(family, first.help(), series, unit, created, counterTotal));
                case GAUGE -> gauge(out, family, first.help(), series, unit, created);
                case HISTOGRAM -> histogram(out, family, first.help(), series, unit, created);
            }
        }
        return new MetricSnapshots(out);
    }

    private static CounterSnapshot counter(String family, String help, List<StatValue> series, Naming unit,
                                           Function<? super StatValue, Instant> created,
                                           ToDoubleFunction<? super CounterValue> counterTotal) {
        List<CounterSnapshot.CounterDataPointSnapshot> points = new ArrayList<>(series.size());
        for (StatValue v : series) {
            CounterValue c = (CounterValue) v;
            double total = counterTotal == null ? unit.unsigned(c.total()) : unit.scaled(counterTotal.applyAsDouble(c));
            points.add(new CounterSnapshot.CounterDataPointSnapshot(total,
                    labels(v), null, createdMillis(v, created)));
        }
        return new CounterSnapshot(metadata(family, help), points);
    }

    private static void gauge(List<MetricSnapshot> out, String family, String help, List<StatValue> series,
                              Naming unit, Function<? super StatValue, Instant> created) {
        List<SummarySnapshot.SummaryDataPointSnapshot> totals = new ArrayList<>(series.size());
        List<GaugeSnapshot.GaugeDataPointSnapshot> min = new ArrayList<>(series.size());
        List<GaugeSnapshot.GaugeDataPointSnapshot> max = new ArrayList<>(series.size());
        for (StatValue v : series) {
            GaugeValue g = (GaugeValue) v;
            Labels labels = labels(g);
            totals.add(new SummarySnapshot.SummaryDataPointSnapshot(g.totalCount(), unit.value(g.totalSum()),
                    Quantiles.EMPTY, labels, Exemplars.EMPTY, createdMillis(v, created)));
            min.add(new GaugeSnapshot.GaugeDataPointSnapshot(g.count() == 0 ? Double.NaN : unit.value(g.min()), labels, null));
            max.add(new GaugeSnapshot.GaugeDataPointSnapshot(g.count() == 0 ? Double.NaN : unit.value(g.max()), labels, null));
        }
        out.add(new SummarySnapshot(metadata(family, describe(help, "count and sum of every value reported since start")), totals));
        out.add(new GaugeSnapshot(metadata(family + "_min",
                describe(help, "smallest value reported in the last completed interval; NaN when none")), min));
        out.add(new GaugeSnapshot(metadata(family + "_max",
                describe(help, "largest value reported in the last completed interval; NaN when none")), max));
    }

    private void histogram(List<MetricSnapshot> out, String family, String help, List<StatValue> series, Naming unit,
                           Function<? super StatValue, Instant> created) {
        List<HistogramSnapshot.HistogramDataPointSnapshot> points = new ArrayList<>(series.size());
        List<GaugeSnapshot.GaugeDataPointSnapshot> percentiles = new ArrayList<>();
        double[] quantiles = options.quantiles();
        for (StatValue v : series) {
            HistogramValue interval = (HistogramValue) v;
            HistogramValue h = interval.totals(); // the engine's own, since registration
            Labels labels = labels(v);
            int s = schema == SCHEMA_FROM_PRECISION ? schemaFor(h.precision()) : schema;
            BucketRange buckets = BucketRange.of(h);
            NativeMapping.Result nat = NativeMapping.convert(h, unit, s, maxBuckets);
            points.add(new HistogramSnapshot.HistogramDataPointSnapshot(classic(h, buckets, unit), nat.schema(), nat.zeroCount(),
                    ZERO_THRESHOLD, nat.positive(), NativeHistogramBuckets.EMPTY, unit.unsigned(h.sum()), labels,
                    Exemplars.EMPTY, createdMillis(v, created)));
            for (double q : quantiles) {
                double value = interval.count() == 0 ? Double.NaN
                        : unit.value(interval.valueAtPercentile(BigDecimal.valueOf(q).movePointRight(2).doubleValue()));
                percentiles.add(new GaugeSnapshot.GaugeDataPointSnapshot(value, labels.add("percentile",
                        BigDecimal.valueOf(q).movePointRight(2).stripTrailingZeros().toPlainString()), null));
            }
        }
        out.add(new HistogramSnapshot(metadata(family, describe(help, "every value recorded since start")), points));
        out.add(new GaugeSnapshot(metadata(family + "_interval_percentile", describe(help,
                "percentiles of the last completed interval, within the histogram's precision; NaN when it had no record")),
                percentiles));
    }

    /** Classic buckets on {@link ExportOptions#boundariesAt}: each a statvar bucket's upper bound, so counts are exact. */
    private ClassicHistogramBuckets classic(HistogramValue h, BucketRange buckets, Naming unit) {
        long[] bounds = les.computeIfAbsent(h.precision(), options::boundariesAt);
        double[] upper = new double[bounds.length + 1];
        long[] counts = new long[bounds.length + 1];
        for (int i = 0; i < bounds.length; i++) {
            upper[i] = unit.value(bounds[i]);
        }
        upper[bounds.length] = Double.POSITIVE_INFINITY;
        int i = 0;
        long[] c = buckets.counts();
        for (int k = 0; k < c.length; k++) {
            if (c[k] != 0) {
                long top = h.precision().upperBound(buckets.first() + k);
                while (i < bounds.length && top > bounds[i]) {
                    i++;
                }
                counts[i] += c[k];
            }
        }
        return ClassicHistogramBuckets.of(upper, counts);
    }

    private static Labels labels(StatValue v) {
        dev.statvar.Labels l = v.labels();
        String[] names = new String[l.size()];
        String[] values = new String[l.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = l.name(i);
            values[i] = l.value(i);
        }
        return Labels.of(names, values);
    }

    private static long createdMillis(StatValue v, Function<? super StatValue, Instant> created) {
        if (created == null) {
            return 0;
        }
        return Objects.requireNonNull(created.apply(v), () -> "created returned null for " + v.name() + v.labels()).toEpochMilli();
    }

    private static MetricMetadata metadata(String name, String help) {
        return new MetricMetadata(name, help.isEmpty() ? null : help);
    }

    private static String describe(String help, String what) {
        return help.isEmpty() ? what : help + " (" + what + ")";
    }
}
