package dev.statvar.lab.soak;

import dev.statvar.Counter;
import dev.statvar.CounterValue;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.MetricsServer;
import dev.statvar.export.StatExporter;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code statvar lab soak}: statvar under churn for minutes, then an exact account of every count.
 *
 * <p>Threads and what they touch:
 * <ul>
 *   <li><b>Platform workers.</b> {@code --threads} slots; each slot thread starts a worker, joins it and starts the
 *       next, so thousands of short-lived threads (0 to 30 ms each) come and go. Every worker updates a counter
 *       ({@code add()} and {@code add(n)}), a gauge, a histogram (values over 41 octaves, so its buckets grow) and a
 *       labelled family ({@code labels(...)} on every update, 32 series created while threads run); half of them
 *       through {@code localView()}. Each worker also counts what it did in plain fields of its own, read by its
 *       slot thread after {@code join()} (join: happens-before).</li>
 *   <li><b>Virtual threads</b> (JDK 21+, found by reflection): batches of {@code --virtual} at a time, 0 to 5 ms
 *       each, parking now and then so that they interleave on the carriers, updating the same stats.</li>
 *   <li><b>The collector</b> ({@code startCollector}) hands every interval to a {@link StatExporter} and to a sink
 *       that sums every interval it receives.</li>
 *   <li><b>Scrapers:</b> {@code --scrapers} threads GET {@code /metrics} of a {@link MetricsServer} on
 *       127.0.0.1 (port 0) with {@link HttpClient} in a bounded loop, short timeouts; the exposed
 *       {@code soak_ops_total} must never go backwards.</li>
 * </ul>
 * At the end the workers stop and are joined, the collector is closed (it delivers the last interval), and every
 * count is checked: the intervals' sum of each counter, family series, gauge count and sum, histogram count and sum
 * must equal the workers' own counts, and so must the totals a last scrape exposes; the gauge's min and max over all
 * intervals must be the true ones; intervals must chain without a gap; no scrape may fail. Then the heap after full
 * GCs must be within a bound derived from statvar's documented memory per thread.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"A soak test of statvar: for N minutes, thousands of short-lived platform threads (and virtual"
                + " threads on JDK 21+) update counters, a gauge, a histogram and a labelled family, some through"
                + " localView(), while a collector sums every interval and two threads scrape the Prometheus endpoint.",
                "At the end every count must be accounted for (intervals and exported totals against what the"
                + " workers counted themselves: lost = 0), no scrape may have failed, and the heap after GC must be"
                + " within a bound. Exit 0 when every check passes, 1 when one fails, 2 on a bad option."})
public final class Soak implements Callable<Integer> {
    static final String OPS = "soak_ops_total";
    static final String BYTES = "soak_bytes_total";
    static final String QUEUE = "soak_queue";
    static final String LATENCY = "soak_latency_ns";
    static final String REQUESTS = "soak_requests_total";
    static final String[] THREAD_TYPES = {"platform", "virtual"};
    static final int SHARDS = 16;
    /** Updates per op: ops.add(), bytes.add(n), queue.report(v), latency.record(v), requests.labels(..).add(). */
    static final int UPDATES_PER_OP = 5;
    /** statvar's documented heap left per terminated platform thread (README: 20,000 threads leave < 100 bytes each). */
    static final long BYTES_PER_DEAD_PLATFORM_THREAD = 100;
    /** ... and per virtual thread (README: 100,000 virtual threads leave < 40 bytes each). */
    static final long BYTES_PER_VIRTUAL_THREAD = 40;
    /** Room for what is not statvar's: JDK HTTP client and server buffers, the exporter's state, class data. */
    static final long HEAP_SLACK_BYTES = 16L << 20;
    private static final String[] SHARD_NAMES = new String[SHARDS];

    static {
        for (int i = 0; i < SHARDS; i++) {
            SHARD_NAMES[i] = Integer.toString(i);
        }
    }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--minutes", paramLabel = "N", description = "run for N minutes (default 2)")
    Long minutes;
    @Option(names = "--seconds", paramLabel = "N", description = "run for N seconds instead (short runs, tests)")
    Long seconds;
    @Option(names = "--threads", paramLabel = "N", description = "platform worker threads alive at a time (default: 4 x cores, at least 8)")
    Integer threads;
    @Option(names = "--virtual", paramLabel = "N", defaultValue = "64",
            description = "virtual threads alive at a time, JDK 21+ (default ${DEFAULT-VALUE}; 0: none)")
    int virtual;
    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "250", description = "collection interval (default ${DEFAULT-VALUE})")
    long intervalMs;
    @Option(names = "--scrapers", paramLabel = "N", defaultValue = "2", description = "threads scraping /metrics (default ${DEFAULT-VALUE})")
    int scrapers;

    /** Workers run while this is true: volatile write in call(), volatile reads in every loop. */
    private volatile boolean running = true;

    @Override
    public Integer call() throws Exception {
        if (minutes != null && seconds != null) {
            throw Usage.error(spec, "--minutes and --seconds exclude each other");
        }
        if (minutes != null && (minutes < 1 || minutes > 10_080)) {
            throw Usage.error(spec, "--minutes must be 1 .. 10080 (a week), was " + minutes);
        }
        if (seconds != null && (seconds < 1 || seconds > 604_800)) {
            throw Usage.error(spec, "--seconds must be 1 .. 604800 (a week), was " + seconds);
        }
        long runSeconds = seconds != null ? seconds : 60 * (minutes != null ? minutes : 2);
        int cores = Runtime.getRuntime().availableProcessors();
        int platform = threads != null ? threads : Math.max(8, 4 * cores);
        if (platform < 1 || platform > 1024) {
            throw Usage.error(spec, "--threads must be 1 .. 1024, was " + platform);
        }
        if (virtual < 0 || virtual > 100_000) {
            throw Usage.error(spec, "--virtual must be 0 .. 100000, was " + virtual);
        }
        if (intervalMs < 10 || intervalMs > 60_000) {
            throw Usage.error(spec, "--interval-ms must be 10 .. 60000, was " + intervalMs);
        }
        if (intervalMs > runSeconds * 1000) {
            throw Usage.error(spec, "--interval-ms must not exceed the run (" + runSeconds * 1000 + " ms), was " + intervalMs);
        }
        if (scrapers < 0 || scrapers > 16) {
            throw Usage.error(spec, "--scrapers must be 0 .. 16, was " + scrapers);
        }
        return run(runSeconds, platform, System.out, System.err);
    }

    // ------------------------------------------------------------------ the stats and the workers

    /** The stats every worker updates. */
    record Stats(Counter ops, Counter bytes, Gauge queue, Histogram latency, StatFamily<Counter> requests) {
        static Stats register(StatRegistry r) {
            return new Stats(r.counter(OPS, "soak operations (5 updates each)"),
                    r.counter(BYTES, "random amounts added"),
                    r.gauge(QUEUE, "random values reported, negative ones included"),
                    r.histogram(LATENCY, "random values over 41 octaves"),
                    r.counterFamily(REQUESTS, "ops by thread type and shard", "thread", "shard"));
        }
    }

    /** What a worker did, counted by itself. */
    static final class Counts {
        long ops;
        long bytes;
        long gaugeCount;
        long gaugeSum;
        long gaugeMin = Long.MAX_VALUE;
        long gaugeMax = Long.MIN_VALUE;
        long histCount;
        long histSum;
        final long[] series = new long[THREAD_TYPES.length * SHARDS];

        void add(Counts o) {
            ops += o.ops;
            bytes += o.bytes;
            gaugeCount += o.gaugeCount;
            gaugeSum += o.gaugeSum;
            gaugeMin = Math.min(gaugeMin, o.gaugeMin);
            gaugeMax = Math.max(gaugeMax, o.gaugeMax);
            histCount += o.histCount;
            histSum += o.histSum;
            for (int i = 0; i < series.length; i++) {
                series[i] += o.series[i];
            }
        }
    }

    /** One worker: updates every stat until its life ends (at least one op). Its counts are read after join(). */
    final class Work implements Runnable {
        private final Stats s;
        private final int type;
        private final long lifeNanos;
        private final boolean local;
        /** Written by the worker thread only; read by its joiner after join(). */
        final Counts c = new Counts();

        Work(Stats s, int type, long lifeNanos, boolean local) {
            this.s = s;
            this.type = type;
            this.lifeNanos = lifeNanos;
            this.local = local;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            Counter ops = local ? s.ops().localView() : s.ops();
            Gauge queue = local ? s.queue().localView() : s.queue();
            Histogram latency = local ? s.latency().localView() : s.latency();
            String typeName = THREAD_TYPES[type];
            boolean isVirtual = type == 1;
            long end = System.nanoTime() + lifeNanos;
            Counts c = this.c;
            do {
                for (int i = 0; i < 32; i++) {
                    ops.add();
                    long n = r.nextInt(1000);
                    s.bytes().add(n);
                    long g = r.nextLong(-1_000_000_000L, 1_000_000_000L);
                    queue.report(g);
                    long h = r.nextLong(1L << r.nextInt(41)); // 0 .. 2^40: a thread's buckets grow octave by octave
                    latency.record(h);
                    int shard = r.nextInt(SHARDS);
                    s.requests().labels(typeName, SHARD_NAMES[shard]).add();
                    c.ops++;
                    c.bytes += n;
                    c.gaugeCount++;
                    c.gaugeSum += g;
                    c.gaugeMin = Math.min(c.gaugeMin, g);
                    c.gaugeMax = Math.max(c.gaugeMax, g);
                    c.histCount++;
                    c.histSum += h;
                    c.series[type * SHARDS + shard]++;
                }
                if (isVirtual && r.nextInt(4) == 0) {
                    LockSupport.parkNanos(20_000); // unmount: virtual threads interleave on the carriers
                }
            } while (running && System.nanoTime() - end < 0);
        }
    }

    /** A slot: starts a platform worker, joins it, adds its counts, starts the next; until the run ends. */
    final class Slot extends Thread {
        private final Stats s;
        private final AtomicLong started;
        /** Written by this thread only; read by the main thread after join(). */
        final Counts total = new Counts();
        long threads;

        Slot(Stats s, AtomicLong started, int i) {
            super("soak-slot-" + i);
            setDaemon(true);
            this.s = s;
            this.started = started;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            try {
                while (running) {
                    long life = r.nextInt(4) == 0 ? 0 : r.nextLong(1_000_000, 30_000_000); // a quarter: one op and out
                    Work w = new Work(s, 0, life, r.nextBoolean());
                    Thread t = new Thread(w, getName() + "-worker-" + threads);
                    t.setDaemon(true);
                    t.start();
                    threads++;
                    started.incrementAndGet();
                    t.join();
                    total.add(w.c); // after join(): every write of the worker is visible
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * {@code Thread.startVirtualThread(Runnable)} when this JDK has virtual threads, else null (JDK 17-18: no such
     * method; 19-20 without --enable-preview: it throws). Found by reflection, the lab being compiled for Java 17;
     * probed with one thread. Not in a static initializer: the probe thread would wait for that very initializer.
     */
    static MethodHandle findVirtualThreads() {
        try {
            MethodHandle h = MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                    MethodType.methodType(Thread.class, Runnable.class));
            Thread probe = (Thread) h.invokeExact((Runnable) () -> { });
            probe.join(10_000);
            return probe.isAlive() ? null : h;
        } catch (Throwable e) {
            return null;
        }
    }

    static Thread startVirtual(MethodHandle start, Runnable r) {
        try {
            return (Thread) start.invokeExact(r);
        } catch (Throwable e) {
            throw new IllegalStateException("cannot start a virtual thread", e);
        }
    }

    /** Keeps {@code batch} virtual workers alive at a time: starts a batch, joins it, starts the next. */
    final class VirtualSpawner extends Thread {
        private final Stats s;
        private final int batch;
        private final AtomicLong started;
        private final MethodHandle start;
        /** Written by this thread only; read by the main thread after join(). */
        final Counts total = new Counts();

        VirtualSpawner(MethodHandle start, Stats s, int batch, AtomicLong started) {
            super("soak-virtual-spawner");
            setDaemon(true);
            this.start = start;
            this.s = s;
            this.batch = batch;
            this.started = started;
        }

        @Override
        public void run() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            List<Work> works = new ArrayList<>(batch);
            List<Thread> ts = new ArrayList<>(batch);
            try {
                while (running) {
                    works.clear();
                    ts.clear();
                    for (int i = 0; i < batch; i++) {
                        Work w = new Work(s, 1, r.nextInt(4) == 0 ? 0 : r.nextLong(100_000, 5_000_000), r.nextBoolean());
                        works.add(w);
                        ts.add(startVirtual(start, w));
                        started.incrementAndGet();
                    }
                    for (int i = 0; i < batch; i++) {
                        ts.get(i).join();
                        total.add(works.get(i).c); // after join()
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Scrapes /metrics in a bounded loop; counts successes and failures; the exposed ops total must not go back. */
    final class Scraper extends Thread {
        private static final int MAX_SCRAPES = 10_000_000;
        private final URI uri;
        private final AtomicLong ok;
        private final AtomicLong failed;
        private final AtomicLong backwards;
        /** Written by this thread only; read after join(). */
        String firstFailure;

        Scraper(URI uri, int i, AtomicLong ok, AtomicLong failed, AtomicLong backwards) {
            super("soak-scraper-" + i);
            setDaemon(true);
            this.uri = uri;
            this.ok = ok;
            this.failed = failed;
            this.backwards = backwards;
        }

        @Override
        public void run() {
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .proxy(HttpClient.Builder.NO_PROXY).connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest get = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build();
            long last = 0;
            try {
                for (int i = 0; i < MAX_SCRAPES && running; i++) {
                    try {
                        HttpResponse<String> resp = client.send(get, HttpResponse.BodyHandlers.ofString());
                        String body = resp.body();
                        if (resp.statusCode() != 200 || !(body.isEmpty() || body.endsWith("\n"))) {
                            fail("HTTP " + resp.statusCode() + ", " + body.length() + " chars");
                        } else {
                            ok.incrementAndGet();
                            String v = exposed(body).get(OPS);
                            if (v != null) {
                                long now = Long.parseUnsignedLong(v);
                                if (Long.compareUnsigned(now, last) < 0) {
                                    backwards.incrementAndGet();
                                }
                                last = now;
                            }
                        }
                    } catch (IOException | RuntimeException e) {
                        fail(e.toString());
                    }
                    Thread.sleep(5); // a pause between scrapes: the CPU is mostly the workers'
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                closeClient(client);
            }
        }

        private void fail(String why) {
            failed.incrementAndGet();
            if (firstFailure == null) {
                firstFailure = why;
            }
        }
    }

    /** {@code HttpClient} is AutoCloseable from JDK 21 on: close it there, else let GC end it. */
    static void closeClient(HttpClient client) {
        if (client instanceof AutoCloseable a) {
            try {
                a.close();
            } catch (Exception ignored) {
                // closing a client: nothing to do about it
            }
        }
    }

    /** Sums every interval the collector delivers. Called by the collector thread only (serialised). */
    static final class IntervalSums implements java.util.function.Consumer<Snapshot> {
        /** Read by the main thread only after the collector is closed (close() joins its thread). */
        final Counts c = new Counts();
        long intervals;
        long gaps;
        Instant lastEnd;
        /** For the progress line: volatile write here, volatile read by the main thread. */
        volatile long opsSoFar;
        volatile long intervalsSoFar;

        @Override
        public void accept(Snapshot s) {
            if (lastEnd != null && !lastEnd.equals(s.start())) {
                gaps++;
            }
            lastEnd = s.end();
            intervals++;
            for (StatValue v : s) {
                switch (v.name()) {
                    case OPS -> c.ops += ((CounterValue) v).value();
                    case BYTES -> c.bytes += ((CounterValue) v).value();
                    case QUEUE -> {
                        GaugeValue g = (GaugeValue) v;
                        c.gaugeCount += g.count();
                        c.gaugeSum += g.sum();
                        if (!g.isEmpty()) {
                            c.gaugeMin = Math.min(c.gaugeMin, g.min());
                            c.gaugeMax = Math.max(c.gaugeMax, g.max());
                        }
                    }
                    case LATENCY -> {
                        HistogramValue h = (HistogramValue) v;
                        c.histCount += h.count();
                        c.histSum += h.sum();
                    }
                    case REQUESTS -> c.series[seriesIndex(v.labels())] += ((CounterValue) v).value();
                    default -> throw new IllegalStateException("unexpected stat " + v.name());
                }
            }
            opsSoFar = c.ops;
            intervalsSoFar = intervals;
        }
    }

    static int seriesIndex(Labels l) {
        int type = l.get("thread").equals(THREAD_TYPES[0]) ? 0 : 1;
        return type * SHARDS + Integer.parseInt(l.get("shard"));
    }

    static String seriesKey(int i) {
        return REQUESTS + "{thread=\"" + THREAD_TYPES[i / SHARDS] + "\",shard=\"" + i % SHARDS + "\"}";
    }

    /** The samples of a Prometheus 0.0.4 text, series (name and labels as written) to value. */
    static Map<String, String> exposed(String text) {
        Map<String, String> m = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int sp = line.lastIndexOf(' ');
            m.put(line.substring(0, sp), line.substring(sp + 1));
        }
        return m;
    }

    /** Used heap after full collections: the least of a few (a concurrent cycle may still be finishing). */
    static long heapAfterGc() throws InterruptedException {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(50);
            best = Math.min(best, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        }
        return best;
    }

    static long heapUsed() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    // ------------------------------------------------------------------ the run

    int run(long runSeconds, int platform, PrintStream out, PrintStream err) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        MethodHandle startVirtual = findVirtualThreads();
        boolean vt = startVirtual != null && virtual > 0;
        StatRegistry registry = StatRegistry.create();
        Stats stats = Stats.register(registry);
        StatExporter exporter = new StatExporter(registry, ExportOptions.defaults());
        IntervalSums sums = new IntervalSums();
        AtomicLong platformStarted = new AtomicLong();
        AtomicLong virtualStarted = new AtomicLong();
        AtomicLong scrapesOk = new AtomicLong();
        AtomicLong scrapesFailed = new AtomicLong();
        AtomicLong backwards = new AtomicLong();

        MetricsServer server = MetricsServer.builder(exporter).port(0).build().start();
        try {
            URI uri = URI.create("http://127.0.0.1:" + server.port() + "/metrics");
            MachineFacts.here().print(out);
            out.printf(Locale.ROOT, "statvar lab soak: %d s on %d cores, JDK %s; %d platform worker threads at a time"
                            + " (each lives 0-30 ms), %s; a collector every %d ms; %d scraper(s) of %s%n",
                    runSeconds, cores, Runtime.version(), platform,
                    startVirtual == null ? "virtual threads: skipped (this JDK has none; JDK 21+ has them)"
                            : virtual == 0 ? "virtual threads: off (--virtual 0)"
                            : virtual + " virtual threads at a time (each lives 0-5 ms)",
                    intervalMs, scrapers, uri);
            out.flush();
            long baseHeap = heapAfterGc();

            long t0 = System.nanoTime();
            StatCollector collector = registry.startCollector(Duration.ofMillis(intervalMs), exporter.andThen(sums));
            List<Slot> slots = new ArrayList<>();
            for (int i = 0; i < platform; i++) {
                slots.add(new Slot(stats, platformStarted, i));
            }
            VirtualSpawner spawner = vt ? new VirtualSpawner(startVirtual, stats, virtual, virtualStarted) : null;
            List<Scraper> scraping = new ArrayList<>();
            for (int i = 0; i < scrapers; i++) {
                scraping.add(new Scraper(uri, i, scrapesOk, scrapesFailed, backwards));
            }
            slots.forEach(Thread::start);
            if (spawner != null) {
                spawner.start();
            }
            scraping.forEach(Thread::start);

            // progress, until the end
            long endAt = t0 + runSeconds * 1_000_000_000L;
            long every = Math.max(1, Math.min(10, runSeconds / 12)) * 1_000_000_000L;
            for (long next = t0 + every; ; next += every) {
                long now = System.nanoTime();
                long wake = Math.min(next, endAt);
                if (wake - now > 0) {
                    Thread.sleep((wake - now) / 1_000_000, (int) ((wake - now) % 1_000_000));
                }
                now = System.nanoTime();
                if (now - endAt >= 0) {
                    break;
                }
                double el = (now - t0) / 1e9;
                err.printf(Locale.ROOT, "[soak] %4.0f s elapsed, %4.0f s left: %,d ops (%,d updates) in %,d intervals;"
                                + " threads created: %,d platform, %,d virtual; scrapes %,d ok, %,d failed; heap used %,d MiB%n",
                        el, runSeconds - el, sums.opsSoFar, UPDATES_PER_OP * sums.opsSoFar, sums.intervalsSoFar,
                        platformStarted.get(), virtualStarted.get(), scrapesOk.get(), scrapesFailed.get(), heapUsed() >> 20);
                err.flush();
            }

            // stop: workers first, then the collector (it delivers the last interval), scrapers last
            running = false; // volatile write: pairs with the reads in every loop
            List<String> problems = new ArrayList<>();
            Counts workers = new Counts();
            long platformThreads = 0;
            for (Slot s : slots) {
                s.join(30_000);
                if (s.isAlive()) {
                    problems.add(s.getName() + " did not stop within 30 s");
                    continue;
                }
                workers.add(s.total);
                platformThreads += s.threads;
            }
            if (spawner != null) {
                spawner.join(30_000);
                if (spawner.isAlive()) {
                    problems.add("the virtual thread spawner did not stop within 30 s");
                } else {
                    workers.add(spawner.total);
                }
            }
            long virtualThreads = virtualStarted.get();
            collector.close(); // joins the collector thread: the sums are visible from here
            for (Scraper s : scraping) {
                s.join(30_000);
                if (s.isAlive()) {
                    problems.add(s.getName() + " did not stop within 30 s");
                } else if (s.firstFailure != null) {
                    problems.add(s.getName() + ": first failed scrape: " + s.firstFailure);
                }
            }
            double wall = (System.nanoTime() - t0) / 1e9;

            // the exporter's view, through one more scrape of the endpoint
            Map<String, String> exported = Map.of();
            HttpClient client = HttpClient.newBuilder().proxy(HttpClient.Builder.NO_PROXY)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            try {
                HttpResponse<String> last = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (last.statusCode() == 200) {
                    exported = exposed(last.body());
                } else {
                    problems.add("the last scrape got HTTP " + last.statusCode());
                }
            } catch (IOException e) {
                problems.add("the last scrape failed: " + e);
            } finally {
                closeClient(client);
            }
            server.close();

            // the account
            Counts iv = sums.c;
            out.printf(Locale.ROOT, "%nran %.1f s (wall, stop included); %,d intervals%n", wall, sums.intervals);
            out.printf(Locale.ROOT, "%-52s %22s %22s %22s%n", "stat", "workers counted", "intervals sum", "exported total");
            long lost = 0; // counts only: updates the intervals miss (or double) against the workers' own counts
            lost += Math.abs(row(out, problems, OPS, workers.ops, iv.ops, exported.get(OPS), false));
            for (int i = 0; i < workers.series.length; i++) {
                if (workers.series[i] != 0 || iv.series[i] != 0) {
                    String k = seriesKey(i);
                    lost += Math.abs(row(out, problems, k, workers.series[i], iv.series[i], exported.get(k), false));
                }
            }
            lost += Math.abs(row(out, problems, QUEUE + " count", workers.gaugeCount, iv.gaugeCount,
                    exported.get(QUEUE + "_count"), false));
            lost += Math.abs(row(out, problems, LATENCY + " count", workers.histCount, iv.histCount,
                    exported.get(LATENCY + "_count"), false));
            // sums of values: exact too (modulo 2^64); a mismatch is a failed check
            row(out, problems, BYTES + " (sum of n)", workers.bytes, iv.bytes, exported.get(BYTES), false);
            row(out, problems, QUEUE + " sum", workers.gaugeSum, iv.gaugeSum, exported.get(QUEUE + "_sum"), true);
            row(out, problems, LATENCY + " sum", workers.histSum, iv.histSum, exported.get(LATENCY + "_sum"), false);
            out.printf(Locale.ROOT, "%-52s %22s %22s%n", QUEUE + " min / max over all intervals",
                    workers.gaugeMin + " / " + workers.gaugeMax, iv.gaugeMin + " / " + iv.gaugeMax);
            if (workers.gaugeCount > 0 && (workers.gaugeMin != iv.gaugeMin || workers.gaugeMax != iv.gaugeMax)) {
                problems.add("the gauge's min/max over all intervals (" + iv.gaugeMin + " / " + iv.gaugeMax
                        + ") are not the true ones (" + workers.gaugeMin + " / " + workers.gaugeMax + ")");
            }
            if (sums.gaps != 0) {
                problems.add(sums.gaps + " interval(s) did not start where the previous one ended");
            }
            if (workers.ops == 0) {
                problems.add("the workers did nothing");
            }
            if (scrapers > 0 && scrapesOk.get() == 0) {
                problems.add("no scrape succeeded");
            }
            if (scrapesFailed.get() != 0) {
                problems.add(scrapesFailed.get() + " scrape(s) failed");
            }
            if (backwards.get() != 0) {
                problems.add("the exposed " + OPS + " went backwards " + backwards.get() + " time(s)");
            }

            // the heap: every thread has ended and the last collect has released its storage
            long heap = heapAfterGc();
            long bound = baseHeap + BYTES_PER_DEAD_PLATFORM_THREAD * platformThreads
                    + BYTES_PER_VIRTUAL_THREAD * virtualThreads + HEAP_SLACK_BYTES;
            if (heap > bound) {
                problems.add(String.format(Locale.ROOT, "heap after GC %,d bytes exceeds the bound %,d", heap, bound));
            }

            long updates = UPDATES_PER_OP * workers.ops;
            out.printf(Locale.ROOT, "%nsummary: duration %.1f s; %,d updates (%,d ops x %d, %.1f M updates/s); %,d intervals;"
                            + " threads created: %,d platform, %s; scrapes %,d ok, %,d failed%n",
                    wall, updates, workers.ops, UPDATES_PER_OP, updates / wall / 1e6, sums.intervals, platformThreads,
                    vt ? String.format(Locale.ROOT, "%,d virtual", virtualThreads)
                            : "0 virtual (" + (startVirtual == null ? "skipped: JDK " + Runtime.version().feature()
                            + " has none" : "off") + ")",
                    scrapesOk.get(), scrapesFailed.get());
            out.printf(Locale.ROOT, "heap after GC: %.1f MiB (before the run %.1f MiB, +%.1f MiB); bound %.1f MiB ="
                            + " before + %d B x %,d platform threads + %d B x %,d virtual threads + %d MiB slack%n",
                    heap / 1048576.0, baseHeap / 1048576.0, (heap - baseHeap) / 1048576.0, bound / 1048576.0,
                    BYTES_PER_DEAD_PLATFORM_THREAD, platformThreads, BYTES_PER_VIRTUAL_THREAD, virtualThreads,
                    HEAP_SLACK_BYTES >> 20);
            out.println(lost == 0 ? "lost = 0" : "lost = " + lost + " (counts missing or doubled, see the table)");
            if (problems.isEmpty()) {
                out.println("PASS: every count accounted for, every check passed");
            } else {
                for (String p : problems) {
                    out.println("FAIL: " + p);
                }
            }
            out.flush();
            return problems.isEmpty() ? 0 : 1;
        } finally {
            server.close(); // idempotent; closed already unless the run failed
        }
    }

    /**
     * One line of the account; a mismatch is added to {@code problems}.
     *
     * @param signed whether the exposition writes this value signed (a gauge's sum) rather than unsigned
     * @return workers minus intervals: counts the intervals lost (negative: doubled); 0 when exact
     */
    private static long row(PrintStream out, List<String> problems, String what, long workers, long intervals,
                            String exported, boolean signed) {
        String w = signed ? Long.toString(workers) : Long.toUnsignedString(workers);
        String i = signed ? Long.toString(intervals) : Long.toUnsignedString(intervals);
        out.printf(Locale.ROOT, "%-52s %22s %22s %22s%n", what, w, i, exported == null ? "-" : exported);
        if (workers != intervals) {
            problems.add(what + ": the intervals sum to " + i + ", the workers counted " + w);
        }
        if (exported == null) {
            problems.add(what + ": not in the last scrape");
        } else if (!exported.equals(w)) {
            problems.add(what + ": the endpoint exposes " + exported + ", the workers counted " + w);
        }
        return workers - intervals;
    }
}
