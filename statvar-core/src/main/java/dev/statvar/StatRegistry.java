package dev.statvar;

import dev.statvar.internal.Engine;
import dev.statvar.internal.IntervalCollector;
import dev.statvar.internal.Names;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.BiFunction;

/**
 * A set of named stats and the collector that closes their intervals.
 *
 * <h2>Threading contract</h2>
 * <ul>
 *   <li>Registration ({@link #counter}, {@link #gauge}, {@link #histogram}) is thread-safe and takes a lock; do it
 *       once and keep the handle.</li>
 *   <li>Updates ({@link Counter#add()}, {@link Gauge#report}, {@link Histogram#record}) from any number of threads, at
 *       any time, never lose a count. A platform thread's counter adds, and its gauge reports and
 *       histogram records once it is <em>hot</em> for that stat, go to cells of its own: once it
 *       has updated this registry before, such an update executes no locked instruction and never
 *       waits. A platform thread is cold for a gauge or histogram until it has updated it
 *       {@link Builder#hotAfter hotAfter} times (default {@value #DEFAULT_HOT_AFTER}) within one
 *       interval (at once for a {@code localView()}); until then its updates of that stat take a
 *       lock of a few stripes shared with all cold and virtual threads (a compare-and-set; it
 *       parks only if every stripe is held). These slow paths take the registry's lock, and so
 *       may wait while {@link #collect()} reads the live threads' cells: a thread's first update;
 *       the first update of a stat registered after the thread's cells were sized; its first
 *       update of a gauge or histogram once hot; a histogram value beyond the octaves the thread
 *       has recorded; {@code localView()}; a thread whose table slot another live thread holds,
 *       now and then, and after a pool erased its ThreadLocals; a virtual or cold thread's first
 *       use of a stripe segment or histogram range. Virtual threads' gauge reports and histogram
 *       records take a stripe's lock (which parks); their counter adds are one atomic add.</li>
 *   <li>{@link #collect()} closes the current interval. Calls are serialised; it does not stop
 *       updates and is <b>not</b> an atomic snapshot: an update that races it lands in the
 *       interval it closes or in the next one, never both, never neither. All intervals add up
 *       exactly to all updates. There is one interval sequence per registry: a
 *       {@link #startCollector collector} and manual {@code collect()} calls share it.
 *       {@link #addCollectListener Collect listeners} see every interval of it, whoever collected.</li>
 *   <li>A gauge's (or histogram's) min and max in an interval cover every value that interval
 *       counts and are values somebody reported. A value reported while the interval switch
 *       raced it may also widen the neighbouring interval's min/max. When a thread's report was
 *       in flight across a whole switch, the engine cannot always tell which of that thread's
 *       values the interval counts; min and max then still cover them but may include values
 *       that thread reported earlier, and {@link GaugeValue#isMinMaxExact()} (or
 *       {@link HistogramValue#isMinMaxExact()}) is false. A histogram record racing the switch
 *       may also be in the sum of the interval before the one counting its bucket.</li>
 * </ul>
 *
 * <h2>Limits</h2>
 * A registry holds at most {@link #maxStats()} stats (default {@value #DEFAULT_MAX_STATS}), not
 * counting removed ones nor families' overflow series (at most one per family, see
 * {@link StatFamily}); registering more throws {@link IllegalArgumentException}, except a new
 * series of a family, which counts into the family's overflow series instead.
 *
 * <h2>Removal</h2>
 * {@link #remove} removes a stat or a family, {@link StatFamily#remove} one series: its updates
 * so far are delivered in the next interval, its last; a removed counter's or gauge's cells are
 * reused once no handle of it is reachable (see "Removal" in {@link StatFamily}).
 *
 * <h2>Memory</h2>
 * Each platform thread that adds to counters holds one array of them: 8 bytes per counter, from
 * the first registered up to at least the last it added to (and at most to the last registered
 * when the array last grew), plus 288 bytes of header and padding (34 cells and the JVM's 16-byte
 * array header). A thread hot for a gauge holds one array of gauges: 72 bytes per gauge (count,
 * sum, and two min/max slots with their tags: the exact per-interval min/max), likewise, plus 288
 * bytes. Each histogram a thread is hot for adds one array of its own: 384
 * bytes plus 8 bytes per bucket of the octaves that thread has recorded ({@link HistogramPrecision}).
 * A thread cold for a stat holds no copy of it: 2 bytes (its count of updates) per gauge or
 * histogram up to the last it touched, and about 70 to 130 bytes per histogram it recorded into
 * (its view and the slots that find it, more where the thread's id collides in the histogram's
 * table of views). A thread's first update in a registry makes its block there,
 * about 300 bytes. Each {@code localView()} of a gauge a thread takes adds a padded array of its
 * own (360 bytes) and its entry in the thread's map of views, about 405 bytes in all (one per
 * thread and gauge, reused by later calls). All of it is released at the first collect after the
 * thread terminates. Virtual and cold threads share a few stripes (2 × cores, rounded up to a
 * power of two) per registry, each holding every stat they updated: 16 bytes per counter and 80
 * per gauge (its cells and the one the collector keeps of what it last read there), plus an
 * 8-byte card per 512 bytes of them, which spares {@code collect()} the cells that did not change.
 *
 * <p>Measured as retained heap of 64 live threads, less that of 64 threads that updated nothing
 * (statvar's tests print each figure and fail outside the range given; the cell counts above are
 * {@code LayoutTest}'s): 8.6 bytes per (counter, thread) for 1,000 counters, block included (8.3
 * to 9.5); 73.8 per (hot gauge, thread) (72 to 78); 2.4 per (cold gauge, thread) (2 to 4); a
 * block 316 to 325 (250 to 400); a cold histogram's view 68 to 133 (32 to 180); a gauge's local
 * view 405 (360 to 480), all in {@code MemoryPerThreadTest}; a hot thread's histogram of 1 µs ..
 * 10 s in ns at the default precision, 12,807 to 13,765 bytes with the thread's own objects
 * ({@code HistogramTest}, 12 to 16 KiB; by the layout, 12,800 bytes of buckets and 384 of
 * header). OpenJDK 17.0.15 on x86-64 (Intel Xeons: family 6, model 85, stepping 7, 2.50 GHz; the
 * gauge figures on family 6, model 207, stepping 2, 2.10 GHz, identical for the others),
 * compressed references (the default below 32 GiB of heap).
 */
public final class StatRegistry {
    /** Default maximum number of stats per registry. */
    public static final int DEFAULT_MAX_STATS = 100_000;
    /** Default maximum number of series per labelled family. */
    public static final int DEFAULT_MAX_SERIES_PER_FAMILY = 1_000;
    /** Default of {@link Builder#hotAfter}: a thread's updates of one gauge or histogram per interval before it gets its own copy. */
    public static final int DEFAULT_HOT_AFTER = 1_000;

    private final Engine engine;
    private final int maxSeriesPerFamily;
    private final AtomicBoolean collectorRunning = new AtomicBoolean();
    /** Serialises collect() with its listeners' calls; never taken by an update. */
    private final ReentrantLock collectLock = new ReentrantLock();
    private final List<CollectListener> listeners = new CopyOnWriteArrayList<>();
    private static final System.Logger LOG = System.getLogger("dev.statvar");

    private StatRegistry(int maxStats, int maxSeriesPerFamily, int hotAfter) {
        this.engine = new Engine(maxStats, hotAfter);
        this.maxSeriesPerFamily = maxSeriesPerFamily;
    }

    /**
     * A registry with default settings.
     *
     * @return a new, empty registry accepting {@value #DEFAULT_MAX_STATS} stats and
     *         {@value #DEFAULT_MAX_SERIES_PER_FAMILY} series per family
     */
    public static StatRegistry create() {
        return new StatRegistry(DEFAULT_MAX_STATS, DEFAULT_MAX_SERIES_PER_FAMILY, DEFAULT_HOT_AFTER);
    }

    /**
     * A builder for a registry with non-default settings.
     *
     * @return a new builder, initially with the defaults of {@link #create()}
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Settings of a new registry. Not thread-safe: configure it on one thread, then {@link #build()}. */
    public static final class Builder {
        private int maxStats = DEFAULT_MAX_STATS;
        private int maxSeriesPerFamily = DEFAULT_MAX_SERIES_PER_FAMILY;
        private int hotAfter = DEFAULT_HOT_AFTER;

        private Builder() {
        }

        /**
         * How many updates of one gauge or histogram a platform thread makes within one interval
         * before it gets a copy of its own ("Memory" in the class comment): until then its updates
         * of that stat go to cells shared by all such threads, under a stripe lock. 1 gives every
         * thread its own copy at its first update: the lock-free path from the start, and the most
         * memory. Counters are not affected: a thread's counter cell is its own 8 bytes from its first add.
         *
         * @param hotAfter 1 to 65,535; default {@value StatRegistry#DEFAULT_HOT_AFTER}
         * @return this builder
         * @throws IllegalArgumentException if {@code hotAfter} is outside 1..65,535
         */
        public Builder hotAfter(int hotAfter) {
            if (hotAfter < 1 || hotAfter > Engine.MAX_HOT_AFTER) {
                throw new IllegalArgumentException("hotAfter must be in 1.." + Engine.MAX_HOT_AFTER + ", was " + hotAfter);
            }
            this.hotAfter = hotAfter;
            return this;
        }

        /**
         * Maximum number of stats (counters, gauges and histograms, each series of a family counting
         * as one) the registry accepts, 1 to 10,000,000.
         *
         * @param maxStats the limit; default {@value StatRegistry#DEFAULT_MAX_STATS}
         * @return this builder
         * @throws IllegalArgumentException if {@code maxStats} is outside 1..10,000,000
         */
        public Builder maxStats(int maxStats) {
            if (maxStats < 1 || maxStats > Engine.MAX_STATS_LIMIT) {
                throw new IllegalArgumentException("maxStats must be in 1.." + Engine.MAX_STATS_LIMIT + ", was " + maxStats);
            }
            this.maxStats = maxStats;
            return this;
        }

        /**
         * Maximum number of series in each labelled family ({@link StatFamily}), 1 to 1,000,000.
         *
         * @param maxSeriesPerFamily the limit; default {@value StatRegistry#DEFAULT_MAX_SERIES_PER_FAMILY}
         * @return this builder
         * @throws IllegalArgumentException if {@code maxSeriesPerFamily} is outside 1..1,000,000
         */
        public Builder maxSeriesPerFamily(int maxSeriesPerFamily) {
            if (maxSeriesPerFamily < 1 || maxSeriesPerFamily > 1_000_000) {
                throw new IllegalArgumentException("maxSeriesPerFamily must be in 1..1000000, was " + maxSeriesPerFamily);
            }
            this.maxSeriesPerFamily = maxSeriesPerFamily;
            return this;
        }

        /**
         * A new registry with these settings.
         *
         * @return a new, empty registry
         */
        public StatRegistry build() {
            return new StatRegistry(maxStats, maxSeriesPerFamily, hotAfter);
        }
    }

    /**
     * The counter of this name, registered on first use, with no help text; as
     * {@link #counter(String, String)}.
     *
     * @param name the stat name
     * @return the counter of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind or
     *                                  by a family, or the registry is full ({@link #maxStats()})
     */
    public Counter counter(String name) {
        return counter(name, "");
    }

    /**
     * The counter of this name, registered on first use. The same name again returns the same
     * counter (its first help text stays).
     *
     * @param name the stat name, {@code [a-zA-Z_:][a-zA-Z0-9_:]*} (Prometheus)
     * @param help the help text, {@code ""} for none; ignored if the counter exists
     * @return the counter of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind or
     *                                  by a family, or the registry is full ({@link #maxStats()}); or if
     *                                  {@code help} is null
     */
    public Counter counter(String name, String help) {
        Names.checkName(name);
        Names.checkHelp(name, help);
        return newCounter(name, Labels.EMPTY, help);
    }

    /**
     * The gauge of this name, registered on first use, with no help text; as
     * {@link #gauge(String, String)}.
     *
     * @param name the stat name
     * @return the gauge of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind or
     *                                  by a family, or the registry is full ({@link #maxStats()})
     */
    public Gauge gauge(String name) {
        return gauge(name, "");
    }

    /**
     * The gauge of this name, registered on first use. The same name again returns the same gauge
     * (its first help text stays).
     *
     * @param name the stat name, {@code [a-zA-Z_:][a-zA-Z0-9_:]*} (Prometheus)
     * @param help the help text, {@code ""} for none; ignored if the gauge exists
     * @return the gauge of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind or
     *                                  by a family, or the registry is full ({@link #maxStats()}); or if
     *                                  {@code help} is null
     */
    public Gauge gauge(String name, String help) {
        Names.checkName(name);
        Names.checkHelp(name, help);
        return newGauge(name, Labels.EMPTY, help);
    }

    /**
     * The histogram of this name at the default precision ({@link HistogramPrecision#DEFAULT}),
     * registered on first use, with no help text; as
     * {@link #histogram(String, String, HistogramPrecision)}.
     *
     * @param name the stat name
     * @return the histogram of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind,
     *                                  by a family or by a histogram of another precision, or the registry is
     *                                  full ({@link #maxStats()})
     */
    public Histogram histogram(String name) {
        return histogram(name, "", HistogramPrecision.DEFAULT);
    }

    /**
     * The histogram of this name at the default precision ({@link HistogramPrecision#DEFAULT}),
     * registered on first use; as {@link #histogram(String, String, HistogramPrecision)}.
     *
     * @param name the stat name
     * @param help the help text, {@code ""} for none; ignored if the histogram exists
     * @return the histogram of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind,
     *                                  by a family or by a histogram of another precision, or the registry is
     *                                  full ({@link #maxStats()}); or if {@code help} is null
     */
    public Histogram histogram(String name, String help) {
        return histogram(name, help, HistogramPrecision.DEFAULT);
    }

    /**
     * The histogram of this name, registered on first use with the given precision. The same
     * name again returns the same histogram (its first help text stays).
     *
     * @param name      the stat name, {@code [a-zA-Z_:][a-zA-Z0-9_:]*} (Prometheus)
     * @param help      the help text, {@code ""} for none; ignored if the histogram exists
     * @param precision the bucket layout; must equal the existing histogram's
     * @return the histogram of this name
     * @throws IllegalArgumentException if the name is invalid (null, empty, or not matching
     *                                  {@code [a-zA-Z_:][a-zA-Z0-9_:]*}), is taken by a stat of another kind,
     *                                  by a family or by a histogram of another precision, or the registry is
     *                                  full ({@link #maxStats()}); or if {@code help} is null
     * @throws NullPointerException     if {@code precision} is null
     */
    public Histogram histogram(String name, String help, HistogramPrecision precision) {
        Names.checkName(name);
        Names.checkHelp(name, help);
        Objects.requireNonNull(precision, "precision");
        return newHistogram(name, Labels.EMPTY, help, precision);
    }

    private Counter newCounter(String name, Labels labels, String help) {
        return engine.counter(name, labels, help);
    }

    private Gauge newGauge(String name, Labels labels, String help) {
        return engine.gauge(name, labels, help);
    }

    private Histogram newHistogram(String name, Labels labels, String help, HistogramPrecision precision) {
        return engine.histogram(name, labels, help, precision);
    }

    /**
     * The labelled counter family of this name, registered on first use: one {@link Counter}
     * per distinct list of label values ({@link StatFamily#labels}), at most
     * {@link #maxSeriesPerFamily()} of them. The same name, kind and label names again return
     * the same family. Registering the family registers no stat; each new series counts as one
     * towards {@link #maxStats()}.
     *
     * @param name       the family's name, {@code [a-zA-Z_:][a-zA-Z0-9_:]*} (Prometheus)
     * @param help       the help text of every series, {@code ""} for none
     * @param labelNames at least one label name, {@code [a-zA-Z_][a-zA-Z0-9_]*}, distinct, not
     *                   starting with {@code __}
     * @return the family of this name
     * @throws IllegalArgumentException if the name or a label name is invalid or null, {@code help}
     *                                  is null, a label name is repeated, there is no label name, or the
     *                                  name is taken by a stat without labels or by a family of another
     *                                  kind or other label names
     * @throws NullPointerException     if {@code labelNames} is null
     */
    public StatFamily<Counter> counterFamily(String name, String help, String... labelNames) {
        return family(name, help, StatKind.COUNTER, null, labelNames, (l, x) -> engine.counter(name, l, help, x));
    }

    /**
     * The labelled gauge family of this name, registered on first use; as {@link #counterFamily}.
     *
     * @param name       the family's name
     * @param help       the help text of every series, {@code ""} for none
     * @param labelNames at least one label name
     * @return the family of this name
     * @throws IllegalArgumentException as {@link #counterFamily}
     * @throws NullPointerException     if {@code labelNames} is null
     */
    public StatFamily<Gauge> gaugeFamily(String name, String help, String... labelNames) {
        return family(name, help, StatKind.GAUGE, null, labelNames, (l, x) -> engine.gauge(name, l, help, x));
    }

    /**
     * The labelled histogram family of this name, registered on first use with this precision;
     * as {@link #counterFamily}. The label names {@code le} and {@code quantile} are reserved.
     *
     * @param name       the family's name
     * @param help       the help text of every series, {@code ""} for none
     * @param precision  the bucket layout of every series; part of the family's identity
     * @param labelNames at least one label name, neither {@code le} nor {@code quantile}
     * @return the family of this name
     * @throws IllegalArgumentException as {@link #counterFamily}; also if the name is taken by a
     *                                  histogram family of another precision, or a label name
     *                                  is reserved
     * @throws NullPointerException     if {@code precision} or {@code labelNames} is null
     */
    public StatFamily<Histogram> histogramFamily(String name, String help, HistogramPrecision precision,
                                                 String... labelNames) {
        Objects.requireNonNull(precision, "precision");
        return family(name, help, StatKind.HISTOGRAM, precision, labelNames,
                (l, x) -> engine.histogram(name, l, help, precision, x));
    }

    @SuppressWarnings("unchecked")
    private <T> StatFamily<T> family(String name, String help, StatKind kind, HistogramPrecision precision,
                                     String[] labelNames, BiFunction<Labels, Boolean, T> create) {
        Names.checkName(name);
        Names.checkHelp(name, help);
        Objects.requireNonNull(labelNames, "labelNames");
        String[] ln = labelNames.clone();
        String description = kind.label() + " family " + name + Arrays.toString(ln)
                + (precision == null ? "" : " with " + precision);
        Labels.checkNames(description, ln, kind == StatKind.HISTOGRAM);
        if (ln.length == 0) {
            throw new IllegalArgumentException(description + ": a family needs at least one label name; for a stat"
                    + " without labels use " + kind.label() + "(name)");
        }
        List<String> names = List.of(ln);
        return (StatFamily<T>) engine.registerFamily(name, kind,
                f -> f instanceof StatFamily<?> sf && sf.kind() == kind && sf.labelNames().equals(names)
                        && Objects.equals(sf.precision(), precision),
                () -> new StatFamily<>(name, kind, ln, precision, maxSeriesPerFamily, new StatFamily.Series<T>() {
                    @Override
                    public T create(Labels labels, boolean exempt) {
                        return create.apply(labels, exempt);
                    }

                    @Override
                    public boolean remove(Labels labels, T handle, boolean exempt) {
                        return engine.remove(name, labels, handle, exempt);
                    }
                }), description);
    }

    /**
     * Removes the stat without labels of this name, or the whole family of this name (every
     * series and its overflow series; the family object then refuses new series with
     * {@link IllegalStateException}, and the name may be registered again, as anything).
     * A removed series' updates so far are delivered in the interval of the next
     * {@link #collect()}, its last; see "Removal" in {@link StatFamily} for what that guarantees
     * and for handles held after the removal. Thread-safe; takes the registry's lock.
     *
     * @param name a stat's or family's name
     * @return whether a stat or family of that name was registered
     * @throws NullPointerException if {@code name} is null
     */
    public boolean remove(String name) {
        Objects.requireNonNull(name, "name");
        if (engine.family(name) instanceof StatFamily<?> f) {
            f.removeAll();
            engine.removeFamily(name, f);
            return true;
        }
        Object h = engine.unlabelled(name);
        return h != null && engine.remove(name, Labels.EMPTY, h, false);
    }

    /**
     * Closes the current interval and returns its values; the next interval starts now.
     * Also folds in and releases the storage of threads that have terminated.
     * Its time grows with the cells of live threads it reads: statvar-jmh's ScaleBenchmark measures
     * it (e.g. {@code collect-1k-64}: 1,000 stats each updated by 64 threads), per machine in
     * docs/PERFORMANCE.md.
     * Any thread may call it; calls are serialised (see the class's threading contract).
     *
     * @return the closed interval: every stat registered so far, in registration order
     * @throws IllegalStateException if called from a {@link CollectListener} of this registry
     */
    public Snapshot collect() {
        if (collectLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("collect() called from a CollectListener of the same registry");
        }
        collectLock.lock();
        try {
            for (CollectListener l : listeners) {
                try {
                    l.beforeCollect();
                } catch (RuntimeException | Error e) {
                    LOG.log(System.Logger.Level.ERROR, "CollectListener.beforeCollect failed: " + l, e);
                }
            }
            Engine.Interval i = engine.collect();
            Snapshot s = new Snapshot(i.start(), i.end(), i.values(), i.createdMillis(), i.changes());
            for (CollectListener l : listeners) {
                try {
                    l.afterCollect(s);
                } catch (RuntimeException | Error e) {
                    LOG.log(System.Logger.Level.ERROR, "CollectListener.afterCollect failed: " + l, e);
                }
            }
            return s;
        } finally {
            collectLock.unlock();
        }
    }

    /**
     * Calls {@code listener} around every later collect of this registry, whoever calls it (see
     * {@link CollectListener}); for adapters that sample pull-style values into stats, or keep the
     * intervals they did not close themselves. The registry holds the listener strongly until
     * {@link #removeCollectListener}: remove it when its owner goes away (a dropped class loader
     * stays reachable through a listener it defined). Thread-safe.
     *
     * @param listener the listener; added again, it is called again
     * @throws NullPointerException if {@code listener} is null
     */
    public void addCollectListener(CollectListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Removes {@code listener} (one registration of it). Thread-safe.
     *
     * @param listener the listener to remove
     * @return whether it was registered
     * @throws NullPointerException if {@code listener} is null
     */
    public boolean removeCollectListener(CollectListener listener) {
        return listeners.remove(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Starts the statistic engine: a daemon thread that calls {@link #collect()} every
     * {@code interval} and hands each snapshot to {@code sink}. A sink that throws is logged
     * (System.Logger "dev.statvar") and collection goes on. {@link StatCollector#close()} stops
     * it and delivers the last, partial interval, waiting at most
     * {@link StatCollector#DEFAULT_CLOSE_TIMEOUT 5 s} for a sink that does not return (then it
     * throws, naming the sink, and abandons the collector). The sink runs on the collector's
     * thread, one snapshot at a time.
     *
     * @param interval the length of each interval, positive
     * @param sink     receives each closed interval
     * @return the running collector; once its {@code close} has returned or thrown, a new one may be started
     * @throws IllegalArgumentException if the interval is not positive
     * @throws IllegalStateException    if a collector is already running on this registry (started
     *                                  and not yet closed, or closing)
     * @throws NullPointerException     if {@code interval} or {@code sink} is null
     */
    public StatCollector startCollector(Duration interval, Consumer<Snapshot> sink) {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(sink, "sink");
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("collection interval must be positive, was " + interval);
        }
        if (!collectorRunning.compareAndSet(false, true)) {
            throw new IllegalStateException("a collector is already running on this registry; close it first");
        }
        IntervalCollector<Snapshot> c = new IntervalCollector<>("statvar-collector", interval.toNanos(),
                this::collect, sink, () -> collectorRunning.set(false));
        c.start();
        return c;
    }

    /**
     * Every stat registered so far, each with an empty value (counters 0, gauges with count 0,
     * histograms without buckets) and its registration time: what an exporter shows for stats
     * that no collect has delivered yet (a freshly started service, a stat registered since the
     * last interval). Reads no cell and closes no interval; {@code start() == end()}.
     * Thread-safe, takes no lock.
     *
     * @return every registered stat with an empty value, in registration order, both instants now
     */
    public Snapshot registered() {
        Engine.Interval i = engine.registered();
        return new Snapshot(i.start(), i.end(), i.values(), i.createdMillis(), i.changes());
    }

    /**
     * Registrations and removals made so far in this registry (each series of a family, and its
     * overflow series, counts); takes no lock. It only grows: a {@link Snapshot} whose
     * {@link Snapshot#changeCount()} equals it holds every stat registered now, which is how an
     * exporter knows whether to add {@link #registered()} to the last interval.
     *
     * @return the number of changes so far
     */
    public long changeCount() {
        return engine.changes();
    }

    /**
     * Number of registered stats (each series of a family counts as one); takes no lock.
     *
     * @return the number of stats, at most {@link #maxStats()}
     */
    public int size() {
        return engine.size();
    }

    /**
     * Maximum number of series of each labelled family.
     *
     * @return the limit set by {@link Builder#maxSeriesPerFamily}, default
     *         {@value #DEFAULT_MAX_SERIES_PER_FAMILY}
     */
    public int maxSeriesPerFamily() {
        return maxSeriesPerFamily;
    }

    /**
     * Maximum number of stats this registry accepts.
     *
     * @return the limit set by {@link Builder#maxStats}, default {@value #DEFAULT_MAX_STATS}
     */
    public int maxStats() {
        return engine.maxStats();
    }

    /** For tests: per-thread cell arrays currently held. */
    int threadBlocks() {
        return engine.threadBlocks();
    }

    /** For tests: the longest single hold of the engine's lock by the last collect(), ns. */
    long lastCollectLongestHoldNanos() {
        return engine.lastCollectLongestHoldNanos();
    }
}
