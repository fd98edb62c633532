package dev.statvar.export;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * statvar's stats for Prometheus, OpenMetrics and JSON readers: a collector sink that keeps the
 * last completed interval, and the {@link MetricsSource} a {@link MetricsServer} serves.
 *
 * <pre>{@code
 * StatExporter exporter = StatExporter.of(registry);   // bound: every registered stat from the first scrape on
 * try (StatCollector c = registry.startCollector(Duration.ofSeconds(10), exporter);
 *      MetricsServer server = MetricsServer.builder(exporter).port(9400).build().start()) { ... }
 * }</pre>
 *
 * <h2>What a scrape shows</h2>
 * The state at the end of the last completed interval: counter totals are exact up to that collect
 * (every update so far, dead threads included); an update made since shows at the next one. Choose an
 * interval no longer than the scrape interval. Every total (counter, gauge summary, histogram) is the
 * engine's own since registration, carried by each value a collect delivers, so intervals this exporter
 * never received (a manual {@code collect()}, a sink before it that threw, an exporter attached late) are
 * in the totals all the same.
 *
 * <h2>Counters past 2^64 - 1</h2>
 * A counter's total is kept modulo 2^64. When a total received is smaller (read unsigned) than the one
 * this exporter received before for that series, it wrapped: the exporter then writes that series'
 * {@code _total} as the exact decimal {@code wraps * 2^64 + total}, so it keeps rising instead of
 * reading as a counter reset, logs a WARNING naming the series, and adds the counter
 * {@code statvar_counter_wraps_total} (the number of wraps seen, all series together; absent until the
 * first) to both text formats. A wrap is seen if fewer than 2^64 were added between two snapshots this
 * exporter received; the count starts at 0 with each exporter.
 *
 * <p>An exporter <b>bound to its registry</b> ({@link #of(StatRegistry)},
 * {@link #StatExporter(StatRegistry, ExportOptions)}) also shows, at each scrape, every registered stat
 * that the last interval lacks (all of them before the first interval closes; a stat registered since the
 * last one), with its empty value ({@link StatRegistry#registered()}): counters 0, gauge summaries with
 * count 0 and min/max NaN, histograms with empty buckets. A fresh service then has every series from its
 * first scrape on. An exporter without a registry shows nothing before the first interval, and a stat
 * registered since the last interval only from the next one.
 *
 * <h2>Threading contract</h2>
 * {@link #accept} is called by the collector, one snapshot at a time; it publishes the snapshot as a
 * new immutable state with a volatile write. Scrapes, from any number of threads, read the state with
 * a volatile read (pairs with that write) and render it. A scrape never collects and takes no lock that
 * an update or the collector takes: a bound exporter's scrape also calls {@link StatRegistry#size()},
 * and {@link StatRegistry#registered()} while the registry has stats the last interval lacks, and
 * both read the registry's list of stats without a lock.
 */
public final class StatExporter implements Consumer<Snapshot>, MetricsSource {
    private static final System.Logger LOG = System.getLogger("dev.statvar.export");

    private final ExportOptions options;
    /** The registry whose registered stats a scrape shows when an interval lacks them; null: not bound. */
    private final StatRegistry registry;
    /** Written by accept() (collector), read by scrapes: volatile write/read pair. */
    private volatile ExportState state = ExportState.EMPTY;
    /** Counters' wraps past 2^64 - 1, updated by accept(). */
    private final CounterWraps wraps = new CounterWraps();
    /** Problems already logged, so each is logged once. */
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /**
     * An exporter with {@link ExportOptions#defaults()}, not bound to a registry: a scrape shows nothing
     * until the first interval is delivered. Prefer {@link #of(StatRegistry)}.
     */
    public StatExporter() {
        this(ExportOptions.defaults());
    }

    /**
     * An exporter with these options, not bound to a registry: a scrape shows nothing until the first
     * interval is delivered, and a stat registered since the last interval only from the next one.
     * Prefer {@link #StatExporter(StatRegistry, ExportOptions)}.
     *
     * @param options what the exposition shows of histograms, and which stats it shows in seconds
     * @throws NullPointerException if {@code options} is null
     */
    public StatExporter(ExportOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.registry = null;
    }

    /**
     * An exporter of {@code registry}'s intervals (hand it to that registry's collector) that shows every
     * stat of {@code registry} from the first scrape on; see the class documentation.
     *
     * @param registry the registry whose collector this exporter is handed to
     * @param options  what the exposition shows of histograms, and which stats it shows in seconds
     * @throws NullPointerException if an argument is null
     */
    public StatExporter(StatRegistry registry, ExportOptions options) {
        this.options = Objects.requireNonNull(options, "options");
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * {@link #StatExporter(StatRegistry, ExportOptions)} with {@link ExportOptions#defaults()}.
     *
     * @param registry the registry whose collector this exporter is handed to
     * @return a new exporter bound to {@code registry}
     * @throws NullPointerException if {@code registry} is null
     */
    public static StatExporter of(StatRegistry registry) {
        return new StatExporter(registry, ExportOptions.defaults());
    }

    /**
     * Takes the interval just closed; called by the collector. Later scrapes show it.
     *
     * @param snapshot the interval just closed
     * @throws NullPointerException if {@code snapshot} is null
     */
    @Override
    public void accept(Snapshot snapshot) {
        Objects.requireNonNull(snapshot, "snapshot");
        state = ExportState.of(snapshot, wraps.update(snapshot)); // volatile write: pairs with the read in state()
    }

    /**
     * The options this exporter renders with.
     *
     * @return the options given at construction
     */
    public ExportOptions options() {
        return options;
    }

    /** What a scrape shows now. */
    ExportState state() {
        ExportState s = state; // volatile read: pairs with the write in accept()
        // Both read the registry's stats without a lock; registered() only while the registry holds
        // stats the last interval lacks (stats are never removed).
        if (registry != null && registry.size() > s.values().size()) {
            return s.withRegistered(registry.registered());
        }
        return s;
    }

    /**
     * The last interval received. Any thread.
     *
     * @return the last snapshot {@link #accept} took, or null before the first
     */
    public Snapshot lastSnapshot() {
        return state.last(); // volatile read: pairs with the write in accept()
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
        return Exposition.json(state(), options);
    }

    private String render(Exposition.Format format) {
        List<String> problems = new ArrayList<>();
        String text = Exposition.render(state(), options, format, problems);
        for (String p : problems) {
            if (logged.add(p)) {
                LOG.log(System.Logger.Level.ERROR, p);
            }
        }
        return text;
    }
}
