package dev.statvar;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A labelled family of counters, gauges or histograms: one name, fixed label names, and one
 * series (a {@link Counter}, {@link Gauge} or {@link Histogram}) per distinct list of label
 * values. Obtain one from {@link StatRegistry#counterFamily}, {@link StatRegistry#gaugeFamily}
 * or {@link StatRegistry#histogramFamily}.
 *
 * <h2>Threading contract</h2>
 * {@link #labels} may be called from any thread; the same values always return the same
 * series. It looks the values up in a concurrent map (a hash of the values, no lock) and takes
 * the registry's lock only to create a new series. A series once held updates exactly as fast as
 * an unlabelled stat: it is one. Hold it where you can (e.g. one per HTTP method, in a field).
 *
 * <h2>Series cap</h2>
 * A family holds at most {@link #maxSeries()} series (default
 * {@value StatRegistry#DEFAULT_MAX_SERIES_PER_FAMILY}, see
 * {@link StatRegistry.Builder#maxSeriesPerFamily}); asking for new values beyond it throws.
 * Unbounded label values (user ids, raw URLs, error messages) would otherwise grow memory and
 * every scrape without limit, a known denial of service of metrics libraries. Series are never
 * removed.
 *
 * @param <T> {@link Counter}, {@link Gauge} or {@link Histogram}
 */
public final class StatFamily<T> {
    private final String name;
    private final StatKind kind;
    private final String[] labelNames;
    private final HistogramPrecision precision;
    private final int maxSeries;
    private final Function<Labels, T> create;
    private final Map<List<String>, T> series = new ConcurrentHashMap<>();

    StatFamily(String name, StatKind kind, String[] labelNames, HistogramPrecision precision, int maxSeries,
               Function<Labels, T> create) {
        this.name = name;
        this.kind = kind;
        this.labelNames = labelNames;
        this.precision = precision;
        this.maxSeries = maxSeries;
        this.create = create;
    }

    /**
     * The series of these label values (in the order of {@link #labelNames()}), created on first
     * use.
     *
     * @param values one value per label name, not null, without unpaired surrogates
     * @return the series: a {@link Counter}, {@link Gauge} or {@link Histogram} as the family's kind
     * @throws IllegalArgumentException if the number of values is wrong, the values or one of them is null or not
     *                                  encodable as UTF-8, or these values would be a new series
     *                                  beyond {@link #maxSeries()}
     *                                  or the registry's {@link StatRegistry#maxStats()}
     */
    public T labels(String... values) {
        List<String> key;
        try {
            key = List.of(values); // a copy
        } catch (NullPointerException e) {
            if (values == null) {
                throw new IllegalArgumentException(owner() + ": the array of label values is null; expected "
                        + labelNames.length + " value(s) for " + labelNames());
            }
            Labels.checkValues(owner(), labelNames, values); // names the null value
            throw e;
        }
        T s = series.get(key);
        return s != null ? s : newSeries(values);
    }

    /**
     * The series of these label values if it exists, else null; never creates one, so it works the
     * same at the family's cap (for code that must not take a new slot, such as a probe folding new
     * values into "other" once the family is nearly full).
     *
     * @param values the label values, in the order of {@link #labelNames()}
     * @return the series, or null if there is none of these values (also if their number is wrong)
     * @throws IllegalArgumentException if {@code values} or one of them is null
     */
    public T existing(String... values) {
        if (values == null) {
            throw new IllegalArgumentException(owner() + ": the array of label values is null");
        }
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                throw new IllegalArgumentException(owner() + ": label value " + i + " is null");
            }
        }
        return series.get(List.of(values));
    }

    private T newSeries(String[] values) {
        String[] v = values.clone();
        Labels.checkValues(owner(), labelNames, v);
        synchronized (this) {
            List<String> key = List.of(v);
            T s = series.get(key);
            if (s != null) {
                return s;
            }
            if (series.size() >= maxSeries) {
                throw new IllegalArgumentException(kind.label() + " family '" + name + "' holds its maximum of " + maxSeries
                        + " series; refusing new label values " + new Labels(labelNames, v)
                        + ". Label values must come from a small, bounded set (not ids, raw URLs or messages);"
                        + " if they do, raise the cap with StatRegistry.builder().maxSeriesPerFamily(n)");
            }
            s = create.apply(new Labels(labelNames, v));
            series.put(key, s);
            return s;
        }
    }

    private String owner() {
        return kind.label() + " family '" + name + "'";
    }

    /**
     * The family's name.
     *
     * @return the name it was registered with, which every series has
     */
    public String name() {
        return name;
    }

    /**
     * The kind of the family's series.
     *
     * @return {@link StatKind#COUNTER}, {@link StatKind#GAUGE} or {@link StatKind#HISTOGRAM}
     */
    public StatKind kind() {
        return kind;
    }

    /**
     * The label names, in order.
     *
     * @return an unmodifiable list of the names the family was registered with
     */
    public List<String> labelNames() {
        return List.of(labelNames);
    }

    /**
     * A histogram family's precision.
     *
     * @return the precision of every series; null for counters and gauges
     */
    public HistogramPrecision precision() {
        return precision;
    }

    /**
     * The most series this family accepts.
     *
     * @return the registry's {@link StatRegistry#maxSeriesPerFamily()}
     */
    public int maxSeries() {
        return maxSeries;
    }

    /**
     * Number of series created so far; takes no lock.
     *
     * @return the number of series, at most {@link #maxSeries()}
     */
    public int size() {
        return series.size();
    }

    @Override
    public String toString() {
        return kind.label() + " family " + name + labelNames() + (precision == null ? "" : " with " + precision);
    }
}
