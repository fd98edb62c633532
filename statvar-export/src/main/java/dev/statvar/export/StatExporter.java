package dev.statvar.export;

import dev.statvar.Snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * statvar's stats for Prometheus, OpenMetrics and JSON readers: a collector sink that keeps the
 * last completed interval, and the {@link MetricsSource} a {@link MetricsServer} serves.
 *
 * <pre>{@code
 * StatExporter exporter = new StatExporter();
 * try (StatCollector c = registry.startCollector(Duration.ofSeconds(10), exporter);
 *      MetricsServer server = MetricsServer.builder(exporter).port(9400).build().start()) { ... }
 * }</pre>
 *
 * <h2>Threading contract</h2>
 * {@link #accept} is called by the collector, one snapshot at a time; it publishes the snapshot
 * as a new immutable state with a volatile write. Nothing is accumulated across snapshots: every
 * value a collect delivers carries the engine's totals since registration, so intervals the
 * exporter never received (a manual {@code collect()}, a sink before it that threw, an exporter
 * attached late) are in the totals all the same. Scrapes, from any number
 * of threads, read the state with a volatile read (pairs with that write) and render it: a
 * scrape never collects, never takes a lock the collector or an update takes, and never blocks
 * either. What a scrape shows is the state at the end of the last completed interval: counter
 * totals are exact up to that collect (every update so far, dead threads included); an update
 * made since shows at the next one. Choose an interval no longer than the scrape interval.
 */
public final class StatExporter implements Consumer<Snapshot>, MetricsSource {
    private static final System.Logger LOG = System.getLogger("dev.statvar.export");

    private final ExportOptions options;
    /** Written by accept() (collector), read by scrapes: volatile write/read pair. */
    private volatile ExportState state = ExportState.EMPTY;
    /** Problems already logged, so each is logged once. */
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /** An exporter with {@link ExportOptions#defaults()}. */
    public StatExporter() {
        this(ExportOptions.defaults());
    }

    public StatExporter(ExportOptions options) {
        this.options = java.util.Objects.requireNonNull(options, "options");
    }

    /** Takes the interval just closed; called by the collector. */
    @Override
    public void accept(Snapshot snapshot) {
        java.util.Objects.requireNonNull(snapshot, "snapshot");
        state = new ExportState(snapshot); // volatile write: pairs with the reads of scrapes
    }

    /** The options this exporter renders with. */
    public ExportOptions options() {
        return options;
    }

    /** What a scrape would show now. */
    ExportState state() {
        return state; // volatile read: pairs with the write in accept()
    }

    /** The last snapshot received, or null before the first. */
    public Snapshot lastSnapshot() {
        return state.last();
    }

    @Override
    public String prometheusText() {
        return render(Exposition.Format.PROMETHEUS_004);
    }

    @Override
    public String openMetricsText() {
        return render(Exposition.Format.OPENMETRICS_100);
    }

    @Override
    public String json() {
        return Exposition.json(state, options);
    }

    private String render(Exposition.Format format) {
        List<String> problems = new ArrayList<>();
        String text = Exposition.render(state, options, format, problems);
        for (String p : problems) {
            if (logged.add(p)) {
                LOG.log(System.Logger.Level.ERROR, p);
            }
        }
        return text;
    }
}
