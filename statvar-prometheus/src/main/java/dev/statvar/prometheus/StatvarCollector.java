package dev.statvar.prometheus;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import dev.statvar.export.StatExporter;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * statvar's stats in a client_java {@code PrometheusRegistry}: register it, and client_java's
 * {@code HTTPServer}, Spring Boot's {@code /actuator/prometheus} or any other client_java exposition
 * shows them, native histograms included, with the names statvar-export's text format uses.
 *
 * <pre>{@code
 * StatExporter exporter = StatExporter.of(registry);
 * StatCollector c = registry.startCollector(Duration.ofSeconds(10), exporter);
 * PrometheusRegistry.defaultRegistry.register(StatvarCollector.of(registry, exporter));
 * }</pre>
 *
 * A scrape shows what the exporter's last interval holds, plus every stat of the registry that the interval
 * lacks with its empty value (all of them before the first collect), as statvar-export's endpoint does.
 *
 * <h2>Threading contract</h2>
 * The registry's collector writes the exporter's state (a volatile write); {@link #collect()}, from any
 * number of client_java scrape threads, reads it (volatile read) and the registry's list of stats (no lock)
 * and converts; it never collects and takes no lock an update or the collector takes.
 */
public final class StatvarCollector implements MultiCollector {
    private static final System.Logger LOG = System.getLogger("dev.statvar.prometheus");

    private final StatRegistry registry;
    private final StatExporter exporter;
    private final StatvarSnapshots conversion;
    /** Problems already logged, so each is logged once. */
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    private StatvarCollector(StatRegistry registry, StatExporter exporter, StatvarSnapshots conversion) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.exporter = Objects.requireNonNull(exporter, "exporter");
        this.conversion = Objects.requireNonNull(conversion, "conversion");
    }

    /**
     * A collector of {@code exporter}'s intervals, converted with its options.
     *
     * @param registry the registry whose collector delivers to {@code exporter}
     * @param exporter the sink of that collector
     * @return a new collector; register it on a {@code PrometheusRegistry}
     * @throws NullPointerException if an argument is null
     */
    public static StatvarCollector of(StatRegistry registry, StatExporter exporter) {
        Objects.requireNonNull(exporter, "exporter");
        return new StatvarCollector(registry, exporter, StatvarSnapshots.of(exporter.options()));
    }

    /**
     * This collector converting with {@code conversion} (e.g. another native schema or bucket limit).
     *
     * @param conversion the conversion to use
     * @return a new collector; this one is unchanged
     * @throws NullPointerException if {@code conversion} is null
     */
    public StatvarCollector withConversion(StatvarSnapshots conversion) {
        return new StatvarCollector(registry, exporter, conversion);
    }

    @Override
    public MetricSnapshots collect() {
        List<String> problems = new ArrayList<>();
        MetricSnapshots s = conversion.convert(values(exporter.lastSnapshot(), registry), null, problems);
        for (String p : problems) {
            if (logged.add(p)) {
                LOG.log(System.Logger.Level.ERROR, p);
            }
        }
        return s;
    }

    /** The last interval's values, then those of the registered stats it lacks, in registration order. */
    static List<StatValue> values(Snapshot last, StatRegistry registry) {
        List<StatValue> values = last == null ? List.of() : last.values();
        if (last != null && registry.changeCount() == last.changeCount()) {
            return values; // no registration nor removal since the interval's reads (a size cannot tell: a removal)
        }
        Set<String> have = new HashSet<>();
        for (StatValue v : values) {
            have.add(v.name() + v.labels());
        }
        List<StatValue> all = new ArrayList<>(values);
        for (StatValue v : registry.registered()) {
            if (!have.contains(v.name() + v.labels())) {
                all.add(v);
            }
        }
        return all;
    }
}
