package dev.statvar.lab;

import dev.statvar.lab.baseline.Implementations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code ./statvar}: the lab's command line. */
@Command(name = "statvar", mixinStandardHelpOptions = true, version = "statvar 0.1.0",
        description = "statvar: always-on JVM statistics, and a lab that re-runs the measurements behind them on this machine.",
        subcommands = {LabMain.Lab.class, LabMain.DemoCommand.class},
        footer = {"", "Also: ./statvar example [--seconds N] [--threads N] [--interval-ms N]: the usage example"
                + " (examples/Example.java): worker threads update stats, every interval is printed, and the intervals"
                + " are checked against what the workers did.", "", "Start with: ./statvar lab counters --quick"})
public final class LabMain implements Runnable {

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    /** The command line, with argument errors reported as one message and a pointer to --help. */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new LabMain()).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setParameterExceptionHandler((ex, args) -> {
            CommandLine c = ex.getCommandLine();
            c.getErr().println("statvar: " + ex.getMessage());
            CommandLine.UnmatchedArgumentException.printSuggestions(ex, c.getErr());
            c.getErr().println("Try './" + c.getCommandSpec().qualifiedName(" ") + " --help'.");
            c.getErr().flush();
            return c.getCommandSpec().exitCodeOnInvalidInput();
        });
        return cl;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** The CPU's model name from /proc/cpuinfo, or the architecture when it cannot be read. */
    public static String cpuModel() {
        Path ci = Path.of("/proc/cpuinfo");
        try {
            if (Files.isReadable(ci)) {
                for (String l : Files.readAllLines(ci)) {
                    if (l.startsWith("model name")) {
                        return l.substring(l.indexOf(':') + 1).trim();
                    }
                }
            }
        } catch (IOException ignored) {
            // fall through
        }
        return System.getProperty("os.arch") + " (model unknown)";
    }

    /** The studies' default thread counts: 1 .. cores, then 2 x cores (oversubscribed). */
    public static List<Integer> defaultThreads() {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> th = new ArrayList<>();
        for (int i = 1; i <= cores; i++) {
            th.add(i);
        }
        th.add(2 * cores);
        return th;
    }

    static final String RULE_HELP = "how a cell's runs become its figure: paired (default: the median of each run minus"
            + " the base run made right before it, with quartiles and extremes) or article (the article's: the two slowest"
            + " runs of each discarded, the rest averaged, then subtracted)";

    /** {@code statvar demo}: the export endpoint over a small multi-threaded workload. */
    @Command(name = "demo", mixinStandardHelpOptions = true,
            description = {"A fake request handler (worker threads) updating labelled counters, a gauge and"
                    + " labelled histograms; a collector closes an interval every few seconds, logs one line per stat"
                    + " and hands it to the Prometheus/OpenMetrics/JSON endpoint. Runs until Ctrl-C (or --seconds).",
                    "Look at it with: curl -s http://127.0.0.1:9400/metrics   (OpenMetrics: add -H 'Accept:"
                    + " application/openmetrics-text'; JSON: /stats.json; health: /-/healthy)"})
    static final class DemoCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--port", defaultValue = "9400", description = "port to serve on (default ${DEFAULT-VALUE}; 0: any free port)")
        int port;
        @Option(names = "--bind", defaultValue = "127.0.0.1", description = "address to bind (default ${DEFAULT-VALUE}: this machine only)")
        String bind;
        @Option(names = "--threads", defaultValue = "4", description = "worker threads (default ${DEFAULT-VALUE})")
        int threads;
        @Option(names = "--interval-ms", defaultValue = "5000", description = "collection interval (default ${DEFAULT-VALUE})")
        long intervalMs;
        @Option(names = "--seconds", paramLabel = "N", description = "stop after N seconds and check the exported count (default: until Ctrl-C)")
        Long seconds;
        @Option(names = "--quiet", description = "no log line per stat per interval")
        boolean quiet;

        @Override
        public Integer call() throws Exception {
            if (port < 0 || port > 65535) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--port must be 0 .. 65535, was " + port);
            }
            if (threads < 1 || threads > 1024) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--threads must be 1 .. 1024, was " + threads);
            }
            if (intervalMs < 10 || intervalMs > 3_600_000) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--interval-ms must be 10 .. 3600000, was " + intervalMs);
            }
            if (seconds != null && seconds < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--seconds must be >= 1, was " + seconds);
            }
            if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
                System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tT %5$s%6$s%n"); // one line a record
            }
            dev.statvar.export.Demo demo;
            try {
                demo = dev.statvar.export.Demo.start(bind, port, threads, java.time.Duration.ofMillis(intervalMs),
                        quiet ? null : new dev.statvar.export.LogReporter());
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot serve on " + bind + ":" + port + ": " + e);
            }
            String base = "http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + demo.port();
            System.out.printf("statvar demo: %d worker threads, an interval every %d ms; serving %s/metrics%n"
                    + "  curl -s %s/metrics%n  curl -s -H 'Accept: application/openmetrics-text' %s/metrics%n"
                    + "  curl -s %s/stats.json%n%s%n", threads, intervalMs, base, base, base, base,
                    seconds == null ? "Ctrl-C stops it." : "stops in " + seconds + " s.");
            System.out.flush();
            if (seconds == null) {
                Runtime.getRuntime().addShutdownHook(new Thread(demo::close, "statvar-demo-shutdown"));
                new java.util.concurrent.CountDownLatch(1).await(); // until the JVM is stopped
                return 0;
            }
            try (demo) {
                Thread.sleep(seconds * 1000);
                demo.finish();
                long handled = demo.handled();
                long exported = 0;
                for (var v : demo.exporter().lastSnapshot()) {
                    if (v.name().equals(dev.statvar.export.Demo.REQUESTS)) {
                        exported += ((dev.statvar.CounterValue) v).total();
                    }
                }
                System.out.printf("handled %d requests; %s sums to %d: %s%n", handled, dev.statvar.export.Demo.REQUESTS,
                        exported, exported == handled ? "lost 0" : "MISMATCH (" + (exported - handled) + ")");
                return exported == handled ? 0 : 1;
            }
        }
    }

    /** {@code statvar lab}. */
    @Command(name = "lab", mixinStandardHelpOptions = true,
            description = "Re-runs the seeds' experiments on this machine, each implementation in a fresh JVM;"
                    + " prints the article's tables with its published figures beside them and writes CSV, JSON"
                    + " and PNG charts into a results folder.",
            subcommands = {Counters.class, Gauges.class, dev.statvar.lab.atomics.AtomicsStudy.class, ReportAgain.class, Soak.class},
            footer = {"", "Profiles: --quick (counters: under 3 minutes on 2 cores), the default (counters: ~15 minutes,"
                    + " gauges: ~7), --full (the article's 10 s runs: hours). docs/LAB.md has a default run of this"
                    + " machine and what it shows.", "",
                    "lab atomics [--quick]: seeds 000 and 001, N threads incrementing one counter six ways (LOCK ADD,"
                    + " XADD, CMPXCHG loops, seed 001's CAS loop as written), Java beside C, with the fairness the second article found (under 2 minutes"
                    + " with --quick).", "",
                    "lab soak [--minutes N]: statvar itself under thread churn, virtual threads, a collector and"
                    + " concurrent scrapes; every count must be accounted for (lost = 0) and the heap bounded."})
    static final class Lab implements Runnable {
        @Override
        public void run() {
            new CommandLine(this).usage(System.out);
        }
    }

    @Command(name = "counters", mixinStandardHelpOptions = true,
            description = {"Seed 002's counter study: every counter of the article and statvar's, each in its own JVM.",
                    "Worker threads run the article's loop (delay factor terms of the harmonic series, then"
                    + " counter.add()) while a collector retrieves every interval. Reported per implementation x delay"
                    + " x threads: time per op minus the base (the loop without the update) of the same cell, the"
                    + " base, CPU time per op, throughput, and the counted and correct sums and their difference;"
                    + " beside each row, the article's published figure."})
    static final class Counters extends Study {
        Counters() {
            super(Catalog.Kind.COUNTERS);
        }
    }

    @Command(name = "gauges", mixinStandardHelpOptions = true,
            description = {"Seed 002's gauge study: every gauge of the article and statvar's, each in its own JVM.",
                    "As the counter study, the workers reporting (n & 1023); counted and correct are report counts,"
                    + " and the sums of the values are checked too."})
    static final class Gauges extends Study {
        Gauges() {
            super(Catalog.Kind.GAUGES);
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Prints a finished study again from its results folder (or its counters.json /"
                    + " gauges.json) and redraws its charts and CSV there: e.g. after an upgrade of the lab, or to"
                    + " look at a run made on another machine."})
    static final class ReportAgain implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @CommandLine.Parameters(paramLabel = "RESULTS", description = "a results folder, or the JSON file in it")
        Path from;
        @Option(names = "--rule", defaultValue = "paired", paramLabel = "RULE", description = RULE_HELP)
        CellStats.Rule rule;
        @Option(names = "--doc", paramLabel = "FILE", description = "also rewrite the generated tables in FILE (e.g."
                + " docs/LAB.md) that cite this study's JSON: the blocks between '<!-- lab report: PATH -->' and"
                + " '<!-- /lab report -->' (see LabDoc); with the paired rule only")
        Path doc;

        @Override
        public Integer call() throws Exception {
            if (doc != null && rule != CellStats.Rule.PAIRED) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--doc writes the paired rule's tables; drop --rule");
            }
            if (doc != null && !Files.isRegularFile(doc)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--doc: no file " + doc);
            }
            Path json = from;
            if (Files.isDirectory(from)) {
                Path c = from.resolve("counters.json");
                Path g = from.resolve("gauges.json");
                Path a = from.resolve("atomics.json");
                json = Files.exists(c) ? c : Files.exists(g) ? g : a;
            }
            if (!Files.isRegularFile(json)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "no counters.json, gauges.json or atomics.json in " + from);
            }
            if (json.getFileName().toString().equals("atomics.json")) {
                if (doc == null) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "an atomics study is printed by './statvar"
                            + " lab atomics'; report reads it only to regenerate a document's tables (--doc FILE)");
                }
                return updateDoc(json);
            }
            JsonReport.Study st;
            try {
                st = JsonReport.read(json);
            } catch (IOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "cannot read " + json + ": " + e.getMessage());
            }
            Map<String, Boolean> exact = new LinkedHashMap<>();
            for (var i : st.kind() == Catalog.Kind.COUNTERS ? Catalog.counters() : Catalog.gauges()) {
                exact.put(i.name(), i.expectedExact());
            }
            System.out.println(st.info().machineLine());
            System.out.println(st.info().protocolLine());
            Report.write(st.kind(), st.info(), st.results(), exact, SeedFigures.load(), json.toAbsolutePath().getParent(),
                    System.out, rule);
            return doc == null ? 0 : updateDoc(json);
        }

        /** Rewrites {@link #doc}'s blocks citing {@code json}, then checks the whole document against its data. */
        private int updateDoc(Path json) throws IOException {
            String before = Files.readString(doc);
            Path docDir = doc.toAbsolutePath().getParent();
            String after = LabDoc.regenerate(before, docDir, json.toAbsolutePath(), SeedFigures.load(), rule);
            Files.writeString(doc, after);
            System.out.printf("%n%s: %s%n", doc, before.equals(after) ? "no block cites " + json + ", or its tables were"
                    + " already current" : "tables regenerated");
            List<String> problems = LabDoc.check(after, docDir, SeedFigures.load());
            for (String p : problems) {
                System.out.println("  " + p);
            }
            if (!problems.isEmpty()) {
                System.out.printf("%d figure(s) or table(s) of %s do not match their data%n", problems.size(), doc);
                return 1;
            }
            return 0;
        }
    }

    /** The shared options and the run of one study. */
    abstract static class Study implements Callable<Integer> {
        final Catalog.Kind kind;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--quick", description = "a short run: delays 0 and 100, runs of 100 ms, 3 repeats (counters: ~2.5 minutes on 2 cores)")
        boolean quick;
        @Option(names = "--full", description = "the article's protocol: 10 s runs, 1 s interval, 5 repeats (hours)")
        boolean full;
        @Option(names = "--threads", split = ",", paramLabel = "N",
                description = "thread counts (default: 1 .. cores, then 2 x cores oversubscribed)")
        List<Integer> threads;
        @Option(names = "--delays", split = ",", paramLabel = "D", description = "delay factors (default 0,10,50,100; --quick: 0,100)")
        List<Integer> delays;
        @Option(names = "--impl", split = ",", paramLabel = "NAME", description = "only these implementations (the Empty one always runs too); see --list")
        List<String> only;
        @Option(names = "--list", description = "list the implementations and exit")
        boolean list;
        @Option(names = "--run-ms", paramLabel = "MS", description = "length of one run (default 200; --quick 100; --full 10000)")
        Long runMs;
        @Option(names = "--interval-ms", paramLabel = "MS", description = "collection interval (default: a tenth of the run)")
        Long intervalMs;
        @Option(names = "--repeats", paramLabel = "N", description = "measured runs per cell (default 5; --quick 3; --full 5)")
        Integer repeatsOpt;
        @Option(names = "--warmups", paramLabel = "N", description = "unreported runs per cell before them (default 1)")
        Integer warmupsOpt;
        @Option(names = "--out", paramLabel = "DIR", description = "results folder (default lab-results/<study>-<time>)")
        Path out;
        @Option(names = "--rule", defaultValue = "paired", paramLabel = "RULE", description = RULE_HELP)
        CellStats.Rule rule;

        Study(Catalog.Kind kind) {
            this.kind = kind;
        }

        private CommandLine.ParameterException bad(String message) {
            return new CommandLine.ParameterException(spec.commandLine(), message);
        }

        @Override
        public Integer call() throws Exception {
            List<Implementations.Impl<?>> catalog = new ArrayList<>(kind == Catalog.Kind.COUNTERS ? Catalog.counters() : Catalog.gauges());
            if (list) {
                for (var i : catalog) {
                    System.out.printf("%-28s %s%n", i.name(), i == catalog.get(0) ? "the base: updates nothing"
                            : (i.indirect() ? "lazy retrieval; " : "") + (i.expectedExact() ? "exact (the article)"
                            : "not exact with several threads (the article)"));
                }
                return 0;
            }
            if (quick && full) {
                throw bad("--quick and --full exclude each other");
            }
            List<Integer> th = threads != null ? threads : defaultThreads();
            List<Integer> de = delays != null ? delays : quick ? List.of(0, 100) : List.of(0, 10, 50, 100);
            for (int t : th) {
                if (t < 1 || t > 1024) {
                    throw bad("thread counts must be 1 .. 1024, was " + t);
                }
            }
            for (int d : de) {
                if (d < 0 || d > 100_000) {
                    throw bad("delay factors must be 0 .. 100000, was " + d);
                }
            }
            if (new java.util.HashSet<>(th).size() != th.size() || new java.util.HashSet<>(de).size() != de.size()) {
                throw bad("a thread count or delay factor is given twice");
            }
            long runMillis = runMs != null ? runMs : quick ? 100 : full ? 10_000 : 200;
            long intervalMillis = intervalMs != null ? intervalMs : full ? 1_000 : Math.max(2, runMillis / 10);
            int warmups = warmupsOpt != null ? warmupsOpt : 1;
            int repeats = repeatsOpt != null ? repeatsOpt : quick ? 3 : 5;
            if (runMillis < 10) {
                throw bad("--run-ms must be at least 10, was " + runMillis);
            }
            if (intervalMillis < 2 || intervalMillis > runMillis) {
                throw bad("--interval-ms must be 2 .. the run length (" + runMillis + "), was " + intervalMillis);
            }
            if (repeats < 1 || warmups < 0) {
                throw bad("--repeats must be >= 1 and --warmups >= 0, were " + repeats + " and " + warmups);
            }
            List<String> names = new ArrayList<>();
            Map<String, Boolean> exact = new LinkedHashMap<>();
            for (var i : catalog) {
                names.add(i.name());
                exact.put(i.name(), i.expectedExact());
            }
            String base = names.get(0); // the Empty implementation comes first
            if (only != null) {
                for (String n : only) {
                    if (!names.contains(n)) {
                        throw bad("unknown implementation '" + n + "'; known: " + String.join(", ", names));
                    }
                }
                names.removeIf(n -> !n.equals(base) && !only.contains(n));
            }
            Path dir = out != null ? out : Path.of("lab-results",
                    kind.name().toLowerCase(Locale.ROOT) + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            Files.createDirectories(dir);

            RunInfo info = RunInfo.of(runMillis, intervalMillis, warmups, repeats, de, th);
            System.out.println(info.machineLine());
            System.out.println(info.protocolLine());
            List<int[]> cells = new ArrayList<>();
            for (int d : de) {
                for (int t : th) {
                    cells.add(new int[]{d, t});
                }
            }
            // progress: runs done / total (a warm-up or measured run with its base run)
            long total = (long) names.size() * cells.size() * (warmups + repeats);
            System.err.printf("%d implementations x %d cells x %d runs, each with its base run: ~%.0f s of runs%n",
                    names.size(), cells.size(), warmups + repeats, 2.0 * total * runMillis / 1000);
            long started = System.nanoTime();
            long[] done = {0};
            Map<String, List<Forker.Repeat>> results = new LinkedHashMap<>();
            for (String name : names) {
                List<Forker.Repeat> reps = Forker.run(kind, name, cells, runMillis, intervalMillis, warmups, repeats, (d, t) -> {
                    done[0]++;
                    double el = (System.nanoTime() - started) / 1e9;
                    System.err.printf("\r[run %d/%d] %-28s delay %3d, %2d threads   %4.0f s elapsed, ~%4.0f s left   ",
                            done[0], total, name, d, t, el, el / done[0] * (total - done[0]));
                });
                results.put(name, reps);
            }
            System.err.printf("%ndone in %.0f s%n", (System.nanoTime() - started) / 1e9);
            Report.write(kind, info, results, exact, SeedFigures.load(), dir, System.out, rule);
            return 0;
        }
    }
}
