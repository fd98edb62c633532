package dev.statvar.lab.soak;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.MetricsServer;
import dev.statvar.export.StatExporter;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.lang.invoke.MethodHandle;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

import static dev.statvar.lab.soak.SoakStats.BYTES;
import static dev.statvar.lab.soak.SoakStats.LATENCY;
import static dev.statvar.lab.soak.SoakStats.OPS;
import static dev.statvar.lab.soak.SoakStats.QUEUE;
import static dev.statvar.lab.soak.SoakStats.UPDATES_PER_OP;
import static dev.statvar.lab.soak.SoakStats.seriesKey;

/**
 * {@code statvar lab soak}: statvar under churn for minutes, then an exact account of every count. This class is
 * the command (options, their checks, the run's order, the account and the heap bound); the parts each have a class:
 * <ul>
 *   <li><b>Platform workers</b> ({@link SoakWorkload}). {@code --threads} slots; each slot thread starts a worker,
 *       joins it and starts the next, so thousands of short-lived threads (0 to 30 ms each) come and go. Every worker
 *       updates the {@link SoakStats}: a counter ({@code add()} and {@code add(n)}), a gauge, a histogram (values
 *       over 41 octaves, so its buckets grow) and a labelled family ({@code labels(...)} on every update, 32 series
 *       created while threads run); half of them through {@code localView()}. Each worker also counts what it did
 *       ({@link SoakCounts}), read by its slot thread after {@code join()} (join: happens-before).</li>
 *   <li><b>Virtual threads</b> (JDK 21+, found by reflection: {@link VirtualThreads}): batches of {@code --virtual}
 *       at a time, 0 to 5 ms each, parking now and then so that they interleave on the carriers, updating the same
 *       stats.</li>
 *   <li><b>The collector</b> ({@code startCollector}) hands every interval to a {@link StatExporter} and to
 *       {@link IntervalSums}, which sums every interval it receives.</li>
 *   <li><b>Scrapers</b> ({@link Scraper}): {@code --scrapers} threads GET {@code /metrics} of a
 *       {@link MetricsServer} on 127.0.0.1 (port 0) in a bounded loop, short timeouts, and read it with
 *       {@link PrometheusText}; the exposed {@code soak_ops_total} must never go backwards.</li>
 * </ul>
 * At the end the workers stop and are joined, the collector is closed (it delivers the last interval), and every
 * count is checked: the intervals' sum of each counter, family series, gauge count and sum, histogram count and sum
 * must equal the workers' own counts, and so must the totals a last scrape exposes; the gauge's min and max over all
 * intervals must be the true ones; intervals must chain without a gap; no scrape may fail. Then the heap after full
 * GCs must be within a bound derived from statvar's documented memory per thread. Picocli calls {@link #call()} on
 * the main thread, which starts and joins every other thread.
 */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {"A soak test of statvar: for N minutes, thousands of short-lived platform threads (and virtual"
                + " threads on JDK 21+) update counters, a gauge, a histogram and a labelled family, some through"
                + " localView(), while a collector sums every interval and two threads scrape the Prometheus endpoint.",
                "At the end every count must be accounted for (intervals and exported totals against what the"
                + " workers counted themselves: lost = 0), no scrape may have failed, and the heap after GC must be"
                + " within a bound. Exit 0 when every check passes, 1 when one fails, 2 on a bad option."})
public final class Soak implements Callable<Integer> {
    /** statvar's documented heap left per terminated platform thread (README: 20,000 threads leave < 100 bytes each). */
    static final long BYTES_PER_DEAD_PLATFORM_THREAD = 100;
    /** ... and per virtual thread (README: 100,000 virtual threads leave < 40 bytes each). */
    static final long BYTES_PER_VIRTUAL_THREAD = 40;
    /** Room for what is not statvar's: JDK HTTP client and server buffers, the exporter's state, class data. */
    static final long HEAP_SLACK_BYTES = 16L << 20;

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

    // ------------------------------------------------------------------ the heap

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
        MethodHandle startVirtual = VirtualThreads.find();
        boolean vt = startVirtual != null && virtual > 0;
        StatRegistry registry = StatRegistry.create();
        SoakWorkload workload = new SoakWorkload(SoakStats.register(registry));
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
            List<SoakWorkload.Slot> slots = new ArrayList<>();
            for (int i = 0; i < platform; i++) {
                slots.add(workload.new Slot(platformStarted, i));
            }
            SoakWorkload.VirtualSpawner spawner = vt ? workload.new VirtualSpawner(startVirtual, virtual, virtualStarted) : null;
            List<Scraper> scraping = new ArrayList<>();
            for (int i = 0; i < scrapers; i++) {
                scraping.add(new Scraper(uri, i, workload::running, scrapesOk, scrapesFailed, backwards));
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
            workload.stop(); // volatile write: pairs with the reads in every loop
            List<String> problems = new ArrayList<>();
            SoakCounts workers = new SoakCounts();
            long platformThreads = 0;
            for (SoakWorkload.Slot s : slots) {
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
            Map<String, String> exported = Scraper.once(uri, problems);
            server.close();

            // the account
            SoakCounts iv = sums.c;
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
