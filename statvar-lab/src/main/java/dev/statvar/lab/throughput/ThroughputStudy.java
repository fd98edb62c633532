package dev.statvar.lab.throughput;

import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.LoadAverage;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code statvar lab throughput}: the Disruptor harness of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs", made honest and per second. */
@Command(name = "throughput", mixinStandardHelpOptions = true,
        description = {"Click's throughput harness: a producer thread hands values to a consumer thread through an"
                + " ArrayBlockingQueue (queue) and through a Disruptor-like ring buffer (ring: bounded spin, then"
                + " parkNanos), each in a fresh JVM, never summed. A timeline counts the ops of every second (statvar"
                + " counters collected each second, exact), with the JIT and OSR compilations (JFR), GC pauses and each"
                + " worker's CPU migrations of that second; the report gives the first steady second, the median, min"
                + " and max of the steady seconds, and flags a timeline at two levels.",
                "The self-check (on by default): a producer held to --rate values per second must show that rate within"
                + " 1 %% in every steady second it was on schedule at both ends (at least 3), and every run's seconds must add up exactly to what its workers"
                + " counted; exit 1 otherwise.",
                "The pitfalls (on by default): the article's mistakes beside the honest way, with numbers: (1) both"
                + " implementations one after the other in one JVM (profile pollution), (2) the article's sum of queue"
                + " and ring times as one figure, (3) the work as one huge OSR-only loop against a method called again"
                + " and again.",
                "Writes throughput.csv (one row per run and second), throughput.json and charts into a results folder.",
                "--quick: 8 s per run and the self-check (about 1.5 minutes on 2 cores); otherwise 20 s and 10 s (about 3.5)."
                + " --threads, --repeats and --warmups do not apply (two threads, one run each) and are refused."},
        footer = {"", "docs/LAB.md has a --quick run of this machine beside the article's claims."})
public final class ThroughputStudy implements Callable<Integer> {
    /** The child JVMs' flags: a fixed heap and collector, so that runs differ only by what they run. */
    static final List<String> JVM_FLAGS = List.of("-Xms256m", "-Xmx256m", "-XX:+UseParallelGC");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** --quick, --out, --report (the pitfalls' verdicts judged again: no full reader of throughput.json yet); not --threads, --repeats, --warmups (two threads, one run per implementation). */
    @CommandLine.Mixin
    StudyOptions options;
    @Option(names = "--seconds", paramLabel = "N", description = "full seconds per run (default 20; --quick 8)")
    Integer seconds;
    @Option(names = "--impl", split = ",", paramLabel = "IMPL", description = "only these: ${COMPLETION-CANDIDATES} (default both)")
    List<Handoff.Impl> impls;
    @Option(names = "--pitfalls", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "run the article's three pitfalls beside the honest runs (default on; --no-pitfalls: off)")
    boolean pitfalls;
    @Option(names = "--self-check", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "run the self-check, a producer held to --rate (default on; --no-self-check: off)")
    boolean selfCheck;
    @Option(names = "--rate", paramLabel = "N", defaultValue = "100000",
            description = "the self-check's rate, values per second (default ${DEFAULT-VALUE})")
    long rate;
    @Option(names = "--timeline", description = "print every run's table of seconds (the pitfalls' runs too;"
            + " the implementations' and the self-check's are always printed)")
    boolean timeline;

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            // Only the pitfalls' verdicts are derived again (in the lab's scheme, from the rates in the data); the rest of
            // the report is in throughput.csv and the charts beside it.
            try {
                PitfallsReport.judgeAgain(options.report().resolve("throughput.json"), System.out);
            } catch (java.io.IOException e) {
                throw Usage.error(spec, "--report: cannot read " + options.report().resolve("throughput.json") + ": " + e.getMessage());
            }
            return 0;
        }
        int sec = seconds != null ? seconds : options.quick ? 8 : 20;
        if (sec < 3 || sec > 3600) {
            throw Usage.error(spec, "--seconds must be 3 .. 3600 (a steady plateau is 3 seconds), was " + sec);
        }
        if (rate < 1_000 || rate > 10_000_000) {
            throw Usage.error(spec, "--rate must be 1000 .. 10000000, was " + rate);
        }
        List<Handoff.Impl> im = impls != null ? impls : List.of(Handoff.Impl.values());
        if (new HashSet<>(im).size() != im.size()) {
            throw Usage.error(spec, "an implementation is given twice");
        }
        int checkSeconds = Math.max(6, seconds != null ? Math.min(sec, 10) : options.quick ? 8 : 10);
        Path dir = options.resultsFolder();

        List<Job> jobs = new ArrayList<>();
        for (Handoff.Impl i : im) {
            jobs.add(new Job(HandoffRunner.class, List.of("alone", i.name(), "" + sec), List.of(i.label()), sec));
        }
        if (selfCheck) {
            jobs.add(new Job(HandoffRunner.class, List.of("throttled", "" + rate, "" + checkSeconds), List.of("self-check"),
                    checkSeconds));
        }
        boolean both = im.size() == 2;
        if (pitfalls) {
            if (both) {
                for (Handoff.Impl a : im) {
                    Handoff.Impl b = a == Handoff.Impl.QUEUE ? Handoff.Impl.RING : Handoff.Impl.QUEUE;
                    String prefix = "together-" + a.label() + "-" + b.label() + "/";
                    jobs.add(new Job(HandoffRunner.class, List.of("together", a.name(), b.name(), "" + sec),
                            List.of(prefix + a.label(), prefix + b.label()), 2 * sec));
                }
            }
            jobs.add(new Job(OsrRunner.class, List.of("osr", "" + sec), List.of("osr-loop"), sec));
            jobs.add(new Job(OsrRunner.class, List.of("method", "" + sec), List.of("method-loop"), sec));
        }

        ThroughputReport.Info info = ThroughputReport.Info.here(sec, checkSeconds, rate, im, pitfalls, selfCheck, both);
        info.machine().print(System.out);
        System.out.println(info.protocolLine());
        String loadBefore = LoadAverage.oneMinute();
        System.out.flush();
        Progress progress = new Progress(System.err, jobs.stream().mapToLong(j -> j.seconds).sum());
        List<RunData> runs = new ArrayList<>();
        for (Job j : jobs) {
            List<RunData> mine = new ArrayList<>();
            for (String label : j.labels) {
                mine.add(new RunData(label, j.main == OsrRunner.class ? List.of(OsrRunner.WORKER)
                        : List.of(HandoffRunner.PRODUCER, HandoffRunner.CONSUMER)));
            }
            StringBuilder other = new StringBuilder();
            ChildProcess.Output o = ChildProcess.run(ChildProcess.java(JVM_FLAGS, j.main, j.args), null, line -> {
                if (line.startsWith("PROGRESS ")) {
                    progress.step(String.format(Locale.ROOT, "%-28s", line.substring(9)));
                } else if (mine.stream().noneMatch(r -> r.accept(line))) {
                    other.append(line).append('\n');
                }
            });
            for (RunData r : mine) {
                r.exitCode = o.exitCode();
                if (r.own == null) {
                    throw new IOException("the run " + r.label + " failed (exit code " + o.exitCode() + "):\n" + other);
                }
                if (!other.isEmpty()) {
                    r.notes.add("other output: " + other.toString().strip().replace('\n', ' '));
                }
            }
            runs.addAll(mine);
        }
        progress.finish();
        System.out.printf("load (1-minute average, /proc/loadavg): %s before, %s after; above 0 other processes shared these"
                + " %d CPUs with the runs%n", loadBefore, LoadAverage.oneMinute(), info.machine().cores());
        boolean ok = ThroughputReport.print(info, runs, timeline, System.out);
        ThroughputFiles.write(info, runs, dir);
        ThroughputChart.write(runs, dir, System.out);
        System.out.println();
        System.out.println("results: " + dir.toAbsolutePath());
        return ok ? 0 : 1;
    }

    /** One child JVM: its main class and arguments, the runs it prints, its full seconds (for progress). */
    private record Job(Class<?> main, List<String> args, List<String> labels, long seconds) {
    }
}
