package dev.statvar.lab.ordered;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.LoadAverage;
import dev.statvar.lab.kit.Machine;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/** {@code statvar lab ordered}: Jean-Philippe Bempel's "Ordered Scheduler" (2015) against a synchronized section and a consumer thread. */
@Command(name = "ordered", mixinStandardHelpOptions = true,
        description = {"Bempel's ordered scheduler: W worker threads compute tasks of S independent streams; each stream's"
                + " results must come out in ticket (creation) order. Designs: statvar-probes' OrderedScheduler (no thread of"
                + " its own: a result is put out by its worker, or left for the worker of the previous ticket), a synchronized"
                + " section per stream (a worker waits for its turn, notifyAll), and a consumer thread per stream fed by an"
                + " ArrayBlockingQueue that reorders (the Disruptor-style design the article avoids). Streams 1, 10, 100; workers"
                + " cores to 8 x cores; each cell in a fresh JVM.",
                "Reported per cell: tasks/s, end-to-end latency p50/p99/p99.9 (task creation to its ordered output, a"
                + " statvar histogram), threads used, CPU per 1,000 tasks (ThreadMXBean: workers and the design's threads;"
                + " and the whole process); every stream's output checked for order and by checksum (the same for all"
                + " designs). Writes ordered.csv, ordered.json, ordered-throughput.png and ordered-p99.png.",
                "--quick: streams 1 and 100, workers cores and 8 x cores, 50,000 tasks per cell after 10,000."},
        footer = {"", "Profiles: --quick (under a minute on 2 cores), the default (a few minutes there: 36 cells)."
                + " docs/LAB.md has a run of this machine and the article's claims point by point."})
public final class OrderedStudy implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    /** --quick (streams 1 and 100, workers cores and 8 x cores, 50,000 tasks after 10,000), --out, --report. */
    @CommandLine.Mixin
    StudyOptions options;
    @Option(names = "--designs", split = ",", paramLabel = "D", description = "only these: ${COMPLETION-CANDIDATES} (default all)")
    List<Design> designs;
    @Option(names = "--streams", split = ",", paramLabel = "S", description = "stream counts (default 1, 10, 100; --quick 1, 100)")
    List<Integer> streams;
    @Option(names = "--workers", split = ",", paramLabel = "W", description = "worker counts (default cores, 2, 4 and 8 x cores; --quick cores, 8 x cores)")
    List<Integer> workers;
    @Option(names = "--tasks", paramLabel = "N", description = "measured tasks per cell (default 200000; --quick 50000)")
    Long tasks;
    @Option(names = "--warmup-tasks", paramLabel = "N", description = "unmeasured tasks per cell before them (default 50000; --quick 10000)")
    Long warmup;
    @Option(names = "--work", paramLabel = "N", description = "mean xorshift rounds per task (uniform 0 .. 2N; default 500)")
    Integer work;

    static List<Integer> defaultWorkers(int cores, boolean quick) {
        return new ArrayList<>(new TreeSet<>(quick ? List.of(cores, 8 * cores) : List.of(cores, 2 * cores, 4 * cores, 8 * cores)));
    }

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            return OrderedReport.again(options.report(), System.out) ? 0 : 1;
        }
        boolean quick = options.quick;
        List<Design> ds = designs != null ? designs : List.of(Design.values());
        List<Integer> ss = streams != null ? streams : quick ? List.of(1, 100) : List.of(1, 10, 100);
        List<Integer> ws = workers != null ? workers : defaultWorkers(Machine.cores(), quick);
        long n = tasks != null ? tasks : quick ? 50_000 : 200_000;
        long w = warmup != null ? warmup : quick ? 10_000 : 50_000;
        int k = work != null ? work : 500;
        if (new HashSet<>(ds).size() != ds.size() || new HashSet<>(ss).size() != ss.size() || new HashSet<>(ws).size() != ws.size()) {
            throw Usage.error(spec, "a design, stream count or worker count is given twice");
        }
        for (int s : ss) {
            if (s < 1 || s > 1000) {
                throw Usage.error(spec, "--streams must be 1 .. 1000, was " + s);
            }
        }
        for (int x : ws) {
            if (x < 1 || x > 1024) {
                throw Usage.error(spec, "--workers must be 1 .. 1024, was " + x);
            }
        }
        int maxStreams = ss.stream().mapToInt(Integer::intValue).max().orElse(1);
        if (n < maxStreams || n > 100_000_000 || w < maxStreams || w > 100_000_000) {
            throw Usage.error(spec, "--tasks and --warmup-tasks must be at least the largest stream count (" + maxStreams + ") and at most 100000000");
        }
        if (k < 0 || k > 1_000_000) {
            throw Usage.error(spec, "--work must be 0 .. 1000000, was " + k);
        }
        Path dir = options.resultsFolder();
        String loadBefore = LoadAverage.now();
        OrderedReport.Info info = new OrderedReport.Info(MachineFacts.here(), System.getProperty("os.version"),
                ds.stream().map(Design::name).toList(), ss, ws, n, w, k, loadBefore);
        OrderedReport.printHeader(info, System.out);
        Progress progress = new Progress(System.err, (long) ds.size() * ss.size() * ws.size());
        List<JsonNode> cells = new ArrayList<>();
        for (int s : ss) {
            for (int x : ws) {
                for (Design d : ds) {
                    cells.add(runCell(d, s, x, n, w, k, progress));
                }
            }
        }
        progress.finish();
        info = new OrderedReport.Info(info.facts(), info.kernel(), info.designs(), ss, ws, n, w, k,
                LoadAverage.beforeAndNow(loadBefore, "; the study keeps up to workers + streams threads busy"));
        System.out.println("load average: " + info.loadAverage());
        return OrderedReport.write(info, cells, dir, System.out) ? 0 : 1;
    }

    /** One cell in a fresh JVM, killed at its time limit (a TIMEOUT result then). */
    private JsonNode runCell(Design d, int s, int x, long n, long w, int k, Progress progress) throws Exception {
        List<String> cmd = ChildProcess.java(List.of("-Xms512m", "-Xmx512m", "-Xss512k"), OrderedRunner.class,
                List.of(d.name(), Integer.toString(s), Integer.toString(x), Long.toString(n), Long.toString(w), Integer.toString(k)));
        long limitMs = 2 * OrderedRunner.PHASE_LIMIT_SECONDS * 1000 + 30_000;
        ChildProcess.JsonResult r = ChildProcess.runForJson(cmd, Duration.ofMillis(limitMs));
        progress.step(String.format(Locale.ROOT, "%-14s streams=%-4d workers=%-4d", d, s, x));
        if (r.json() == null) {
            progress.note(d + " streams=" + s + " workers=" + x + " produced no result: " + r.why());
            return OrderedReport.failedCell(d.name(), s, x, r.timedOut() ? "TIMEOUT" : "FAILED", r.why());
        }
        return r.json();
    }
}
