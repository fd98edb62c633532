package dev.statvar.export;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Function;

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
 * <h2>One render per interval and format</h2>
 * A body is rendered once and shared: {@link #prometheusText()}, {@link #openMetricsText()} and
 * {@link #json()} each return the same {@code String} to every call that shows the same interval (the
 * snapshot {@link #accept} took last) and, for a bound exporter, the same number of registered stats. A
 * new interval, or a stat registered since, makes the next call render again. Scrapes that miss at the
 * same moment may each render; the last one's body is kept. So a busy endpoint costs one render per
 * interval and format, not one per request. Each format keeps its last body (one per format).
 *
 * <h2>Threading contract</h2>
 * {@link #accept} is called by the collector, one snapshot at a time; it publishes the snapshot as a
 * new immutable state with a volatile write. Scrapes, from any number of threads, read the state with
 * a volatile read (pairs with that write) and render it, or read the body last rendered of it (a
 * volatile read of an element of an {@code AtomicReferenceArray}, paired with the volatile write that
 * stored it). A scrape never collects and takes no lock that
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
     * The last body rendered in each format ({@link #PROMETHEUS}, {@link #OPENMETRICS}, {@link #JSON}), with
     * the state it shows: element-wise volatile reads and writes, last writer wins.
     */
    private final AtomicReferenceArray<Rendered> rendered = new AtomicReferenceArray<>(4);
    private final AtomicLong renders = new AtomicLong();
    private static final int PROMETHEUS = 0;
    private static final int OPENMETRICS = 1;
    private static final int JSON = 2;
    private static final int PROTOBUF = 3;
    /** The protobuf exposition, null for none. */
    private final ProtobufExposition protobuf;

    /** A body and what it shows: the state {@link #accept} published, and the registry's size then. */
    private record Rendered(ExportState base, long registered, Object body) {
    }

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
        this.protobuf = ProtobufProvider.INSTALLED;
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
        this(registry, options, ProtobufProvider.INSTALLED);
    }

    /**
     * As {@link #StatExporter(StatRegistry, ExportOptions)}, with this protobuf exposition instead of the
     * one found with {@link java.util.ServiceLoader} (e.g. statvar-prometheus' with another native
     * schema or bucket limit), or none.
     *
     * @param registry the registry whose collector this exporter is handed to
     * @param options  what the exposition shows of histograms, and which stats it shows in seconds
     * @param protobuf the protobuf exposition to serve, or null to serve none
     * @throws NullPointerException if {@code registry} or {@code options} is null
     */
    public StatExporter(StatRegistry registry, ExportOptions options, ProtobufExposition protobuf) {
        this.options = Objects.requireNonNull(options, "options");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.protobuf = protobuf;
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
        // Both read the registry's stats without a lock; registered() only while the registry changed
        // since the last interval's reads (a registration or a removal; a removed stat's last interval stays)
        if (registry != null && registry.changeCount() != changesShown(s)) {
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

    /**
     * {@inheritDoc} The same {@code String} for every call that shows the same interval and the same
     * registered stats: rendered once (see the class documentation).
     */
    @Override
    public String prometheusText() {
        return shared(PROMETHEUS, s -> render(s, Exposition.Format.PROMETHEUS_004));
    }

    /**
     * {@inheritDoc} The same {@code String} for every call that shows the same interval and the same
     * registered stats: rendered once (see the class documentation).
     */
    @Override
    public String openMetricsText() {
        return shared(OPENMETRICS, s -> render(s, Exposition.Format.OPENMETRICS_100));
    }

    /**
     * {@inheritDoc} The same {@code String} for every call that shows the same interval and the same
     * registered stats: rendered once (see the class documentation).
     */
    @Override
    public String json() {
        return shared(JSON, s -> Exposition.json(s, options));
    }

    /**
     * {@inheritDoc} The exposition found with {@link java.util.ServiceLoader} at construction (the first
     * {@link ProtobufExposition} provider, e.g. statvar-prometheus), or the one given.
     */
    @Override
    public String protobufContentType() {
        return protobuf == null ? null : protobuf.contentType();
    }

    /**
     * {@inheritDoc} The same array for every call that shows the same interval and the same registered
     * stats: rendered once (see the class documentation); do not modify it.
     *
     * @throws UnsupportedOperationException if this exporter has no protobuf exposition
     */
    @Override
    public byte[] prometheusProtobuf() {
        if (protobuf == null) {
            throw new UnsupportedOperationException("no protobuf exposition: put statvar-prometheus on the class path");
        }
        return shared(PROTOBUF, this::renderProtobuf);
    }

    /**
     * The protobuf exposition this exporter serves.
     *
     * @return it, or null when none was installed or given
     */
    public ProtobufExposition protobufExposition() {
        return protobuf;
    }

    /** Bodies rendered since construction (each format counted), for tests and measurements. */
    long renders() {
        return renders.get();
    }

    /** The body of {@code slot} for the current state: the last one rendered if it shows that state, else a new one. */
    @SuppressWarnings("unchecked") // a slot holds bodies of one type: String, or byte[] for PROTOBUF
    private <T> T shared(int slot, Function<ExportState, T> render) {
        ExportState base = state; // volatile read: pairs with the write in accept()
        long registered = registry == null ? 0 : registry.changeCount();
        Rendered last = rendered.get(slot); // volatile read: pairs with the set below
        if (last != null && last.base() == base && last.registered() == registered) {
            return (T) last.body();
        }
        // as state(): the registered stats the interval lacks, read after the count (more is harmless: a
        // later scrape sees a larger count and renders again)
        ExportState shown = registry != null && registered != changesShown(base)
                ? base.withRegistered(registry.registered()) : base;
        T body = render.apply(shown);
        renders.incrementAndGet();
        rendered.set(slot, new Rendered(base, registered, body)); // volatile write
        return body;
    }

    /** The registry's change count the state's interval reflects; -1 before the first interval. */
    private static long changesShown(ExportState s) {
        return s.last() == null ? -1 : s.last().changeCount();
    }

    private String render(ExportState shown, Exposition.Format format) {
        List<String> problems = new ArrayList<>();
        String text = Exposition.render(shown, options, format, problems);
        logOnce(problems);
        return text;
    }

    private byte[] renderProtobuf(ExportState shown) {
        List<String> problems = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try {
            CounterWraps.View wraps = shown.wraps();
            List<dev.statvar.StatValue> values = shown.values();
            if (wraps.total() > 0) { // statvar_counter_wraps_total, as in the text formats
                values = new ArrayList<>(values);
                values.add(new dev.statvar.CounterValue(CounterWraps.SAMPLE,
                        "times a statvar counter's total passed 2^64 - 1 (its _total goes on past 2^64)",
                        dev.statvar.Labels.EMPTY, 0, wraps.total()));
            }
            protobuf.write(out, values, options, options.createdSeries() ? shown::created : null, wraps::totalAsDouble, problems);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        logOnce(problems);
        return out.toByteArray();
    }

    private void logOnce(List<String> problems) {
        for (String p : problems) {
            if (logged.add(p)) {
                LOG.log(System.Logger.Level.ERROR, p);
            }
        }
    }
}
