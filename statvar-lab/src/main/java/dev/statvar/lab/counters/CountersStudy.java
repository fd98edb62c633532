package dev.statvar.lab.counters;

import dev.statvar.lab.counters.baseline.Implementations;
import dev.statvar.lab.kit.CommonOptions;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.ResultsFolder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** The study of "Statistical variables in Java: not quite legal but very fast" (2017), as the lab's commands: {@code lab counters}, {@code lab gauges} and {@code lab report}. */
public final class CountersStudy {
    private CountersStudy() {
    }

    static final String RULE_HELP = "how a cell's runs become its figure: paired (default: the median of each run minus"
            + " the base run made right before it, with quartiles and extremes) or article (the article's: the two slowest"
            + " runs of each discarded, the rest averaged, then subtracted)";

    @Command(name = "counters", mixinStandardHelpOptions = true,
            description = {"The statistical-variables article's counter study: every counter of the article and statvar's, each in its own JVM.",
                    "Worker threads run the article's loop (delay factor terms of the harmonic series, then"
                    + " counter.add()) while a collector retrieves every interval. Reported per implementation x delay"
                    + " x threads: time per op minus the base (the loop without the update) of the same cell, the"
                    + " base, CPU time per op, throughput, and the counted and correct sums and their difference;"
                    + " beside each row, the article's published figure.",
                    "--quick: delays 0 and 100, runs of 100 ms, 3 measured runs per cell (~2.5 minutes on 2 cores);"
                    + " otherwise 5 measured runs per cell (--repeats)."})
    public static final class Counters extends Study {
        Counters() {
            super(Catalog.Kind.COUNTERS);
        }
    }

    @Command(name = "gauges", mixinStandardHelpOptions = true,
            description = {"The statistical-variables article's gauge study: every gauge of the article and statvar's, each in its own JVM.",
                    "As the counter study, the workers reporting (n & 1023); counted and correct are report counts,"
                    + " and the sums of the values are checked too.",
                    "--quick: delays 0 and 100, runs of 100 ms, 3 measured runs per cell; otherwise 5 (--repeats)."})
    public static final class Gauges extends Study {
        Gauges() {
            super(Catalog.Kind.GAUGES);
        }
    }

    @Command(name = "report", mixinStandardHelpOptions = true,
            description = {"Prints a finished study again from its results folder (or its counters.json /"
                    + " gauges.json) and redraws its charts and CSV there: e.g. after an upgrade of the lab, or to"
                    + " look at a run made on another machine. With --doc, also the folders of the studies that"
                    + " provide document tables (atomics, spin)."})
    public static final class ReportAgain implements Callable<Integer> {
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
                json = Files.exists(c) ? c : Files.exists(g) ? g : Files.exists(a) ? a : otherStudy(from);
            }
            if (json == null || !Files.isRegularFile(json)) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "no counters.json, gauges.json or another study's JSON (atomics, spin, ...) in " + from);
            }
            var other = dev.statvar.lab.kit.DocTables.of(dev.statvar.lab.kit.Json.read(json));
            if (other.isPresent()) {
                if (doc == null) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "a " + other.get().study() + " study is"
                            + " printed by './statvar lab " + other.get().study() + "'; report reads it only to regenerate a"
                            + " document's tables (--doc FILE)");
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
            Report.write(st.kind(), st.info(), st.results(), exact, ArticleFigures.load(), json.toAbsolutePath().getParent(),
                    System.out, rule);
            return doc == null ? 0 : updateDoc(json);
        }

        /** The one JSON file in {@code dir} whose study has tables for documents ({@link dev.statvar.lab.kit.DocTables}), or null. */
        private static Path otherStudy(Path dir) throws IOException {
            try (var files = Files.list(dir)) {
                for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                    if (dev.statvar.lab.kit.DocTables.of(dev.statvar.lab.kit.Json.read(f)).isPresent()) {
                        return f;
                    }
                }
            }
            return null;
        }

        /** Rewrites {@link #doc}'s blocks citing {@code json}, then checks the whole document against its data. */
        private int updateDoc(Path json) throws IOException {
            String before = Files.readString(doc);
            Path docDir = doc.toAbsolutePath().getParent();
            String after = LabDoc.regenerate(before, docDir, json.toAbsolutePath(), ArticleFigures.load(), rule);
            Files.writeString(doc, after);
            System.out.printf("%n%s: %s%n", doc, before.equals(after) ? "no block cites " + json + ", or its tables were"
                    + " already current" : "tables regenerated");
            List<String> problems = LabDoc.check(after, docDir, ArticleFigures.load());
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

        /** --quick (delays 0 and 100, runs of 100 ms, 3 repeats: counters ~2.5 minutes on 2 cores), --threads, --repeats (default 5; --quick 3), --warmups, --out. */
        @CommandLine.Mixin
        CommonOptions common;
        @Option(names = "--full", description = "the article's protocol: 10 s runs, 1 s interval, 5 repeats (hours)")
        boolean full;
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
            boolean quick = common.quick;
            if (quick && full) {
                throw bad("--quick and --full exclude each other");
            }
            List<Integer> th = common.threads(spec.commandLine(), 1024);
            List<Integer> de = delays != null ? delays : quick ? List.of(0, 100) : List.of(0, 10, 50, 100);
            for (int d : de) {
                if (d < 0 || d > 100_000) {
                    throw bad("delay factors must be 0 .. 100000, was " + d);
                }
            }
            if (new java.util.HashSet<>(de).size() != de.size()) {
                throw bad("a delay factor is given twice");
            }
            long runMillis = runMs != null ? runMs : quick ? 100 : full ? 10_000 : 200;
            long intervalMillis = intervalMs != null ? intervalMs : full ? 1_000 : Math.max(2, runMillis / 10);
            int warmups = common.warmups(spec.commandLine());
            int repeats = common.repeats(spec.commandLine(), 3, 5);
            if (runMillis < 10) {
                throw bad("--run-ms must be at least 10, was " + runMillis);
            }
            if (intervalMillis < 2 || intervalMillis > runMillis) {
                throw bad("--interval-ms must be 2 .. the run length (" + runMillis + "), was " + intervalMillis);
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
            Path dir = ResultsFolder.create(common.out, kind.name().toLowerCase(Locale.ROOT));

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
            Progress progress = new Progress(System.err, total);
            Map<String, List<Forker.Repeat>> results = new LinkedHashMap<>();
            for (String name : names) {
                List<Forker.Repeat> reps = Forker.run(kind, name, cells, runMillis, intervalMillis, warmups, repeats,
                        (d, t) -> progress.step(String.format(Locale.ROOT, "%-28s delay %3d, %2d threads", name, d, t)));
                results.put(name, reps);
            }
            progress.finish();
            Report.write(kind, info, results, exact, ArticleFigures.load(), dir, System.out, rule);
            return 0;
        }
    }
}
