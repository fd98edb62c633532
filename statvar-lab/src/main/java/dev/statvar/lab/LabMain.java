package dev.statvar.lab;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
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
        subcommands = {LabMain.Lab.class})
public final class LabMain implements Runnable {

    public static void main(String[] args) {
        System.exit(new CommandLine(new LabMain()).execute(args));
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    /** {@code statvar lab}. */
    @Command(name = "lab", mixinStandardHelpOptions = true,
            description = "Re-runs the seeds' experiments on this machine.",
            subcommands = {Counters.class, Gauges.class})
    static final class Lab implements Runnable {
        @Override
        public void run() {
            new CommandLine(this).usage(System.out);
        }
    }

    @Command(name = "counters", mixinStandardHelpOptions = true,
            description = {"Seed 002's counter study: every counter of the article and statvar's, each in its own JVM.",
                    "Worker threads run the article's loop (delay factor of 1/j sums, then counter.add()) while a",
                    "collector retrieves every interval; reported per implementation x delay x threads: time per op",
                    "minus the Empty base of the same cell, the base, counted and correct sums and their difference."})
    static final class Counters extends Study {
        Counters() {
            super(Catalog.Kind.COUNTERS);
        }
    }

    @Command(name = "gauges", mixinStandardHelpOptions = true,
            description = {"Seed 002's gauge study: every gauge of the article and statvar's, each in its own JVM;",
                    "workers report (n & 1023); counted/correct are report counts, and the sums are checked too."})
    static final class Gauges extends Study {
        Gauges() {
            super(Catalog.Kind.GAUGES);
        }
    }

    /** The shared options and the run of one study. */
    abstract static class Study implements Callable<Integer> {
        final Catalog.Kind kind;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--quick", description = "short runs: delays 0 and 100, 0.15 s per run, 3 repeats (a few minutes)")
        boolean quick;
        @Option(names = "--full", description = "the article's protocol: 10 s runs, 1 s interval, 5 repeats (hours)")
        boolean full;
        @Option(names = "--threads", split = ",", paramLabel = "N",
                description = "thread counts (default: 1 .. cores, then 2 x cores oversubscribed)")
        List<Integer> threads;
        @Option(names = "--delays", split = ",", paramLabel = "D", description = "delay factors (default 0,10,50,100)")
        List<Integer> delays;
        @Option(names = "--impl", split = ",", paramLabel = "NAME", description = "only these implementations (plus the Empty base)")
        List<String> only;
        @Option(names = "--out", paramLabel = "DIR", description = "results folder (default lab-results/<kind>-<time>)")
        Path out;

        Study(Catalog.Kind kind) {
            this.kind = kind;
        }

        @Override
        public Integer call() throws Exception {
            if (quick && full) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--quick and --full exclude each other");
            }
            int cores = Runtime.getRuntime().availableProcessors();
            List<Integer> th = threads;
            if (th == null) {
                th = new ArrayList<>();
                for (int i = 1; i <= cores; i++) {
                    th.add(i);
                }
                th.add(2 * cores);
            }
            List<Integer> de = delays != null ? delays : quick ? List.of(0, 100) : List.of(0, 10, 50, 100);
            for (int t : th) {
                if (t < 1) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "thread counts must be >= 1, was " + t);
                }
            }
            for (int d : de) {
                if (d < 0) {
                    throw new CommandLine.ParameterException(spec.commandLine(), "delay factors must be >= 0, was " + d);
                }
            }
            long runMillis = quick ? 150 : full ? 10_000 : 500;
            long intervalMillis = quick ? 50 : full ? 1_000 : 100;
            int warmups = 1;
            int repeats = quick ? 3 : full ? 5 : 4;
            List<String> names = new ArrayList<>();
            for (var i : kind == Catalog.Kind.COUNTERS ? Catalog.counters() : Catalog.gauges()) {
                names.add(i.name());
            }
            String base = names.get(0); // the Empty implementation comes first
            if (only != null) {
                for (String n : only) {
                    if (!names.contains(n)) {
                        throw new CommandLine.ParameterException(spec.commandLine(),
                                "unknown implementation '" + n + "'; known: " + String.join(", ", names));
                    }
                }
                names.removeIf(n -> !n.equals(base) && !only.contains(n));
            }
            Path dir = out != null ? out : Path.of("lab-results",
                    kind.name().toLowerCase(Locale.ROOT) + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            Files.createDirectories(dir);

            printMachine(runMillis, intervalMillis, warmups, repeats);
            List<int[]> cells = new ArrayList<>();
            for (int d : de) {
                for (int t : th) {
                    cells.add(new int[]{d, t});
                }
            }
            int total = names.size() * cells.size() * repeats;
            int[] done = {0};
            long started = System.nanoTime();
            Map<String, List<Forker.Repeat>> results = new LinkedHashMap<>();
            for (String name : names) {
                List<Forker.Repeat> reps = Forker.run(kind, name, cells, runMillis, intervalMillis, warmups, repeats, r -> {
                    done[0]++;
                    double el = (System.nanoTime() - started) / 1e9;
                    System.err.printf("\r[%d/%d] %-28s delay %3d, %2d threads   %4.0f s elapsed, ~%4.0f s left   ",
                            done[0], total, name, r.delay(), r.threads(), el, el / done[0] * (total - done[0]));
                });
                results.put(name, reps);
            }
            System.err.println();
            Report.write(kind, results, base, de, th, dir, System.out);
            return 0;
        }

        private void printMachine(long runMillis, long intervalMillis, int warmups, int repeats) throws IOException {
            String cpu = "unknown CPU";
            Path ci = Path.of("/proc/cpuinfo");
            if (Files.isReadable(ci)) {
                for (String l : Files.readAllLines(ci)) {
                    if (l.startsWith("model name")) {
                        cpu = l.substring(l.indexOf(':') + 1).trim();
                        break;
                    }
                }
            }
            PrintWriter o = new PrintWriter(System.out, true);
            o.printf("machine: %s, %d cores; JDK %s (%s); forked JVM flags %s%n", cpu,
                    Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                    System.getProperty("java.vm.name"), String.join(" ", Forker.JVM_FLAGS));
            o.printf("protocol: one fresh JVM per implementation; per cell %d warm-up run(s) then %d runs of %d ms,"
                    + " collecting every %d ms (indirect ones: lazy retrieval, fetch on one half-interval, use on the next);"
                    + " of the runs the two slowest are discarded and the rest averaged (the article's rule)%n",
                    warmups, repeats, runMillis, intervalMillis);
        }
    }
}
