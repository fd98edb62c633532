package dev.statvar;

import dev.statvar.internal.RegistryFullException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A labelled family of counters, gauges or histograms: one name, fixed label names, and one
 * series (a {@link Counter}, {@link Gauge} or {@link Histogram}) per distinct list of label
 * values. Obtain one from {@link StatRegistry#counterFamily}, {@link StatRegistry#gaugeFamily}
 * or {@link StatRegistry#histogramFamily}.
 *
 * <h2>Threading contract</h2>
 * {@link #labels}, {@link #existing} and {@link #remove} may be called from any thread. Until it
 * is removed, the same values always return the same series. {@code labels} looks the values up
 * in a concurrent map (a hash of the values, no lock) and takes the family's and the registry's
 * lock only to create a new series; {@code remove} takes both. A series once held updates exactly
 * as fast as an unlabelled stat: it is one. Hold it where you can (e.g. one per HTTP method, in a
 * field).
 *
 * <h2>Removal</h2>
 * {@link #remove} removes a series. Every update that happens-before {@code remove} returns is
 * delivered, in the interval of the first {@link StatRegistry#collect()} that begins after it,
 * which is the series' last appearance in a snapshot; an update racing {@code remove} is
 * delivered in that interval or not at all, never twice. A later {@code labels} of the same
 * values creates a new series, counting from zero. A {@code labels} racing {@code remove} of the
 * same values may return the series being removed.
 * <p>A handle held after its series was removed (a stale handle, or a {@code localView()} of it)
 * still accepts updates and never throws; they are counted nowhere, once that last interval
 * is out. Its cells (a counter's or a gauge's) are reused by a later registration only once
 * that handle and every local view of it are unreachable (a weak reference, which the GC
 * clears and {@code collect()} then learns of), so a stale handle can never count into the
 * series that reuses its slot. Until the GC has run, removed slots wait: churn leaves the heap
 * and {@code collect()} time flat as long as the GC runs now and then (docs/PERFORMANCE.md,
 * "Removal churn").
 * A counter's {@code localView()} is also held by its thread until the thread ends. A
 * histogram's slot does not wait for the GC: it is reused from the collect that delivers the
 * removed histogram's last interval on, held handle or not, because the histogram that takes it
 * records into arrays of its own (a stale handle's records go to the old arrays, which no
 * collect reads, or are dropped); the threads and the collector let go of the old arrays then.
 *
 * <h2>Series cap and overflow</h2>
 * A family holds at most {@link #maxSeries()} series (default
 * {@value StatRegistry#DEFAULT_MAX_SERIES_PER_FAMILY}, see
 * {@link StatRegistry.Builder#maxSeriesPerFamily}). Unbounded label values (user ids, raw URLs,
 * error messages) would otherwise grow memory and every scrape without limit, a known denial of
 * service of metrics libraries. New values beyond the cap, or while the registry holds its
 * {@link StatRegistry#maxStats()}, do not throw: {@code labels} returns the family's one
 * overflow series, whose labels are exactly {@value #OVERFLOW_LABEL}{@code ="true"} (as the
 * OpenTelemetry SDK marks overflow), so no update is lost to the cap. The overflow series is
 * created on first need, is not counted by {@link #size()} nor towards the registry's
 * {@code maxStats} (at most one per family), and stays until the family is removed
 * ({@link StatRegistry#remove}). {@link #overflowCount()} counts the {@code labels} calls it
 * answered. Removing series makes room below the cap again.
 *
 * @param <T> {@link Counter}, {@link Gauge} or {@link Histogram}
 */
public final class StatFamily<T> {
    /** The label name of a family's overflow series ({@link #labels} beyond the cap), as OpenTelemetry names it. */
    public static final String OVERFLOW_LABEL = "otel_metric_overflow";
    private static final Labels OVERFLOW = new Labels(new String[]{OVERFLOW_LABEL}, new String[]{"true"});

    /** How a family registers and removes its series in the registry's engine. */
    interface Series<T> {
        /** Registers the series of these labels; {@code exempt}: not counted towards maxStats. */
        T create(Labels labels, boolean exempt);

        /** Removes the series of these labels, whose handle is {@code handle}. */
        boolean remove(Labels labels, T handle, boolean exempt);
    }

    private final String name;
    private final StatKind kind;
    private final String[] labelNames;
    private final HistogramPrecision precision;
    private final int maxSeries;
    private final Series<T> engine;
    private final Map<List<String>, T> series = new ConcurrentHashMap<>();
    /** Guarded by this: the overflow series, null until first needed. */
    private T overflow;
    /** Guarded by this: whether the family was removed ({@link StatRegistry#remove}). */
    private boolean removed;
    /** {@code labels} calls answered with the overflow series; written under this, read without a lock. */
    private final AtomicLong overflowCount = new AtomicLong();

    StatFamily(String name, StatKind kind, String[] labelNames, HistogramPrecision precision, int maxSeries,
               Series<T> engine) {
        this.name = name;
        this.kind = kind;
        this.labelNames = labelNames;
        this.precision = precision;
        this.maxSeries = maxSeries;
        this.engine = engine;
    }

    /**
     * The series of these label values (in the order of {@link #labelNames()}), created on first
     * use.
     *
     * New values beyond {@link #maxSeries()} or the registry's {@link StatRegistry#maxStats()}
     * get the family's overflow series (see "Series cap and overflow" in the class comment).
     *
     * @param values one value per label name, not null, without unpaired surrogates
     * @return the series: a {@link Counter}, {@link Gauge} or {@link Histogram} as the family's kind
     * @throws IllegalArgumentException if the number of values is wrong, the values or one of them is null or not
     *                                  encodable as UTF-8
     * @throws IllegalStateException    if the family was removed ({@link StatRegistry#remove})
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
        return series.get(List.of(checkNotNull(values)));
    }

    /**
     * Removes the series of these label values (see "Removal" in the class comment): its updates
     * so far are delivered in the next collected interval, its last; a later {@link #labels} of
     * the same values starts a new series. The overflow series is not removed this way (only
     * with the family).
     *
     * @param labelValues the label values, in the order of {@link #labelNames()}
     * @return whether there was such a series (false also if their number is wrong, or the values
     *         were folded into the overflow series)
     * @throws IllegalArgumentException if {@code labelValues} or one of them is null
     */
    public boolean remove(String... labelValues) {
        String[] v = checkNotNull(labelValues);
        synchronized (this) {
            T s = series.remove(List.of(v));
            if (s == null) {
                return false;
            }
            engine.remove(new Labels(labelNames, v), s, false);
            return true;
        }
    }

    /** Removes every series and the overflow series; {@code labels} throws from now on. For {@link StatRegistry#remove}. */
    synchronized void removeAll() {
        removed = true;
        for (var e : series.entrySet()) {
            engine.remove(new Labels(labelNames, e.getKey().toArray(new String[0])), e.getValue(), false);
        }
        series.clear();
        if (overflow != null) {
            engine.remove(OVERFLOW, overflow, true);
            overflow = null;
        }
    }

    private String[] checkNotNull(String[] values) {
        if (values == null) {
            throw new IllegalArgumentException(owner() + ": the array of label values is null");
        }
        String[] v = values.clone();
        for (int i = 0; i < v.length; i++) {
            if (v[i] == null) {
                throw new IllegalArgumentException(owner() + ": label value " + i + " is null");
            }
        }
        return v;
    }

    private T newSeries(String[] values) {
        String[] v = values.clone();
        Labels.checkValues(owner(), labelNames, v);
        synchronized (this) {
            if (removed) {
                throw new IllegalStateException(owner() + " was removed from its registry; register it again"
                        + " (StatRegistry." + kind.label() + "Family) to get a new family");
            }
            List<String> key = List.of(v);
            T s = series.get(key);
            if (s != null) {
                return s;
            }
            if (series.size() >= maxSeries) {
                return overflow();
            }
            try {
                s = engine.create(new Labels(labelNames, v), false);
            } catch (RegistryFullException e) {
                return overflow();
            }
            series.put(key, s);
            return s;
        }
    }

    /** The overflow series, created on first use (exempt from maxStats, so this never throws for lack of room). Under this. */
    private T overflow() {
        overflowCount.incrementAndGet();
        if (overflow == null) {
            overflow = engine.create(OVERFLOW, true);
        }
        return overflow;
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
     * Number of series the family holds (created and not removed), not counting the overflow
     * series; takes no lock.
     *
     * @return the number of series, at most {@link #maxSeries()}
     */
    public int size() {
        return series.size();
    }

    /**
     * How many {@link #labels} calls were answered with the overflow series (new label values
     * beyond the cap, counted at every such call: the family does not remember them); takes no lock.
     *
     * @return the count since the family was registered; 0 if it never overflowed
     */
    public long overflowCount() {
        return overflowCount.get();
    }

    @Override
    public String toString() {
        return kind.label() + " family " + name + labelNames() + (precision == null ? "" : " with " + precision);
    }
}
