package dev.statvar;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The values of every stat of a registry in one closed interval, in registration order.
 * Immutable.
 */
public final class Snapshot implements Iterable<StatValue> {
    private final Instant start;
    private final Instant end;
    private final List<StatValue> values;
    /** Series key ({@code name + labels}; a name cannot contain '{') to its index in {@link #values}. */
    /**
     * Index by name and labels, made on the first lookup ({@link #index()}), not by collect(): an
     * exporter iterates and never needs it, and for 100,000 stats it cost about a third of a
     * collect. Racy single check: a reader sees null or a complete map (volatile), and two
     * threads that both make it make equal maps.
     */
    private volatile Map<String, Integer> byKey;
    /** {@code createdMillis[i]}: when the stat of {@code values.get(i)} was registered. */
    private final long[] createdMillis;
    /** The registry's {@link StatRegistry#changeCount()} as of the reads of this snapshot. */
    private final long changeCount;

    Snapshot(Instant start, Instant end, List<StatValue> values, long[] createdMillis, long changeCount) {
        this.start = start;
        this.end = end;
        this.values = List.copyOf(values);
        this.createdMillis = createdMillis.clone();
        this.changeCount = changeCount;
    }

    /**
     * The registry's {@link StatRegistry#changeCount()} as of this snapshot's reads: while the
     * registry's count still equals it, the snapshot holds every registered stat (an exporter
     * adds {@link StatRegistry#registered()} otherwise).
     *
     * @return registrations and removals made before the snapshot read the stats
     */
    public long changeCount() {
        return changeCount;
    }

    /** The index by name and labels, made on first use. */
    private Map<String, Integer> index() {
        Map<String, Integer> m = byKey; // volatile read: a complete map or null
        if (m == null) {
            m = new HashMap<>(Math.max(16, (int) (values.size() / 0.75f) + 1));
            for (int i = 0; i < values.size(); i++) {
                m.put(values.get(i).name() + values.get(i).labels(), i);
            }
            byKey = m; // volatile write: publishes the filled map
        }
        return m;
    }

    /**
     * When the interval began.
     *
     * @return the previous interval's end, or the registry's creation for its first interval (for
     *         {@link StatRegistry#registered()}, the time of that call)
     */
    public Instant start() {
        return start;
    }

    /**
     * When the interval was closed.
     *
     * @return the instant of the switch to the next interval (for {@link StatRegistry#registered()},
     *         equal to {@link #start()})
     */
    public Instant end() {
        return end;
    }

    /**
     * The interval's length.
     *
     * @return {@code end - start}
     */
    public Duration duration() {
        return Duration.between(start, end);
    }

    /**
     * The interval value of a counter.
     *
     * @param name the counter's name
     * @return its {@link CounterValue#value()}
     * @throws IllegalArgumentException if there is no counter of that name in this snapshot
     */
    public long counter(String name) {
        return counterValue(name).value();
    }

    /**
     * The interval value of one series of a counter family.
     *
     * @param name   the family's name
     * @param labels the series' labels, in the family's label order
     * @return its {@link CounterValue#value()}
     * @throws IllegalArgumentException if there is no counter of that name and labels in this snapshot
     */
    public long counter(String name, Labels labels) {
        return counterValue(name, labels).value();
    }

    /**
     * The full value (interval and cumulative) of one series of a counter family.
     *
     * @param name   the family's name
     * @param labels the series' labels, in the family's label order
     * @return its value
     * @throws IllegalArgumentException if there is no counter of that name and labels in this snapshot
     */
    public CounterValue counterValue(String name, Labels labels) {
        return get(name, labels, StatKind.COUNTER, CounterValue.class);
    }

    /**
     * The value of one series of a gauge family.
     *
     * @param name   the family's name
     * @param labels the series' labels, in the family's label order
     * @return its value
     * @throws IllegalArgumentException if there is no gauge of that name and labels in this snapshot
     */
    public GaugeValue gauge(String name, Labels labels) {
        return get(name, labels, StatKind.GAUGE, GaugeValue.class);
    }

    /**
     * The value of one series of a histogram family.
     *
     * @param name   the family's name
     * @param labels the series' labels, in the family's label order
     * @return its value
     * @throws IllegalArgumentException if there is no histogram of that name and labels in this snapshot
     */
    public HistogramValue histogram(String name, Labels labels) {
        return get(name, labels, StatKind.HISTOGRAM, HistogramValue.class);
    }

    /**
     * The full value (interval and cumulative) of a counter.
     *
     * @param name the counter's name
     * @return its value
     * @throws IllegalArgumentException if there is no counter of that name in this snapshot
     */
    public CounterValue counterValue(String name) {
        return get(name, Labels.EMPTY, StatKind.COUNTER, CounterValue.class);
    }

    /**
     * The value of a gauge.
     *
     * @param name the gauge's name
     * @return its value
     * @throws IllegalArgumentException if there is no gauge of that name in this snapshot
     */
    public GaugeValue gauge(String name) {
        return get(name, Labels.EMPTY, StatKind.GAUGE, GaugeValue.class);
    }

    /**
     * The value of a histogram.
     *
     * @param name the histogram's name
     * @return its value
     * @throws IllegalArgumentException if there is no histogram of that name in this snapshot
     */
    public HistogramValue histogram(String name) {
        return get(name, Labels.EMPTY, StatKind.HISTOGRAM, HistogramValue.class);
    }

    private <T extends StatValue> T get(String name, Labels labels, StatKind kind, Class<T> type) {
        String key = name + labels;
        Integer i = index().get(key);
        StatValue v = i == null ? null : values.get(i);
        if (v == null) {
            throw new IllegalArgumentException("no stat named '" + key + "' in this snapshot");
        }
        if (v.kind() != kind) {
            throw new IllegalArgumentException("'" + key + "' is a " + v.kind().label() + ", not a " + kind.label());
        }
        return type.cast(v);
    }

    /**
     * When the stat (or the family's series) of this value was registered, to the millisecond:
     * what OpenMetrics calls its {@code _created} time.
     *
     * @param v a value of this snapshot (or one of the same name and labels)
     * @return the registration time, truncated to the millisecond
     * @throws IllegalArgumentException if the value is not one of this snapshot's stats
     */
    public Instant created(StatValue v) {
        Integer i = index().get(v.name() + v.labels());
        if (i == null) {
            throw new IllegalArgumentException("no stat named '" + v.name() + v.labels() + "' in this snapshot");
        }
        return Instant.ofEpochMilli(createdMillis[i]);
    }

    /**
     * Every stat's value, in registration order.
     *
     * @return an unmodifiable list, one value per registered stat
     */
    public List<StatValue> values() {
        return values;
    }

    @Override
    public Iterator<StatValue> iterator() {
        return values.iterator();
    }

    /** One line per stat, e.g. {@code requests 1204} or {@code queue count=3 sum=.. min=.. max=.. mean=..} or {@code latency count=.. sum=.. min=.. mean=.. p50=.. p90=.. p99=.. p99.9=.. max=..}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("interval ").append(start).append(" .. ").append(end)
                .append(" (").append(duration().toMillis()).append(" ms)\n");
        for (StatValue v : values) {
            sb.append("  ").append(v.name()).append(v.labels()).append(' ');
            if (v instanceof CounterValue c) {
                sb.append(c.value()).append(" (total ").append(c.total()).append(')');
            } else if (v instanceof GaugeValue g) {
                sb.append("count=").append(g.count()).append(" sum=").append(g.sum())
                        .append(" min=").append(g.min()).append(" max=").append(g.max())
                        .append(String.format(" mean=%.2f", g.mean()));
            } else if (v instanceof HistogramValue h) {
                sb.append(h.toString().substring(h.name().length() + h.labels().toString().length() + 1));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
