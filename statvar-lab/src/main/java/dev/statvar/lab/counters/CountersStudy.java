package dev.statvar.lab.counters;

import dev.statvar.lab.counters.baseline.Implementations;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.SweepOptions;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** The study of "Statistical variables in Java: not quite legal but very fast" (2017), as the lab's commands: {@code lab counters} and {@code lab gauges}. */
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

    /** The shared options and the run of one study. */
    abstract static class Study implements Callable<Integer> {
        final Catalog.Kind kind;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        /** --quick (delays 0 and 100, runs of 100 ms, 3 repeats: counters ~2.5 minutes on 2 cores), --out, --report. */
        @CommandLine.Mixin
        StudyOptions options;
        /** --threads, --repeats (default 5; --quick 3), --warmups. */
        @CommandLine.Mixin
        SweepOptions sweep;
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
            if (options.report() != null) {
                CountersDoc.print(JsonReport.read(options.report().resolve(options.json())), options.report(), rule, System.out);
                return 0;
            }
            boolean quick = options.quick;
            if (quick && full) {
                throw Usage.error(spec, "--quick and --full exclude each other");
            }
            List<Integer> th = sweep.threads(1024);
            List<Integer> de = delays != null ? delays : quick ? List.of(0, 100) : List.of(0, 10, 50, 100);
            for (int d : de) {
                if (d < 0 || d > 100_000) {
                    throw Usage.error(spec, "delay factors must be 0 .. 100000, was " + d);
                }
            }
            if (new java.util.HashSet<>(de).size() != de.size()) {
                throw Usage.error(spec, "a delay factor is given twice");
            }
            long runMillis = runMs != null ? runMs : quick ? 100 : full ? 10_000 : 200;
            long intervalMillis = intervalMs != null ? intervalMs : full ? 1_000 : Math.max(2, runMillis / 10);
            int warmups = sweep.warmups();
            int repeats = sweep.repeats(quick, 3, 5);
            if (runMillis < 10) {
                throw Usage.error(spec, "--run-ms must be at least 10, was " + runMillis);
            }
            if (intervalMillis < 2 || intervalMillis > runMillis) {
                throw Usage.error(spec, "--interval-ms must be 2 .. the run length (" + runMillis + "), was " + intervalMillis);
            }
            List<String> names = new ArrayList<>();
            for (var i : catalog) {
                names.add(i.name());
            }
            String base = names.get(0); // the Empty implementation comes first
            if (only != null) {
                for (String n : only) {
                    if (!names.contains(n)) {
                        throw Usage.error(spec, "unknown implementation '" + n + "'; known: " + String.join(", ", names));
                    }
                }
                names.removeIf(n -> !n.equals(base) && !only.contains(n));
            }
            Path dir = options.resultsFolder();

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
            Report.write(kind, info, results, CountersDoc.exactness(kind), ArticleFigures.load(), dir, System.out, rule);
            return 0;
        }
    }
}
