package dev.statvar.lab.spin;

import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.CpuStalls;
import dev.statvar.lab.kit.JitCode;
import dev.statvar.lab.kit.Machine;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.SweepOptions;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code statvar lab spin}: the barrier of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs" under oversubscription. */
@Command(name = "spin", mixinStandardHelpOptions = true,
        description = {"Click's barrier (Java Grande LUFact's): N threads do a share of the work, then wait for each"
                + " other, episode after episode, with nine barrier designs (the article's plain boolean[] flags with the"
                + " array in a local, LUFact's volatile array field, a VarHandle acquire spin, with onSpinWait, with"
                + " Thread.yield, spin-yield-park back-off, LockSupport park/unpark, CyclicBarrier, Phaser), each in a"
                + " fresh JVM, at 1 .. cores threads and 2, 4, 8 x cores, with the article's work between barriers and"
                + " without.",
                "Reported per design x threads x work: episodes/s, the barrier wait per episode p50/p99/max (statvar"
                + " histograms), time / the best design at that thread count, time / the same design at threads ="
                + " cores (the article's ratio), user and system CPU per episode, voluntary and involuntary context"
                + " switches per episode, and HUNG when a design made no progress (its JVM is stopped, the lab goes"
                + " on); the JIT's code of the plain spin loop; what Thread.yield costs and whether it hands the CPU"
                + " to a thread with work. Writes spin.csv, spin.json, charts and the loop's code into a results folder.",
                "--quick: 1 run per cell of 0.3 s warm-up + 0.7 s; otherwise 3 (--repeats) of 0.5 s + 1.5 s, the"
                + " one of median episodes/s reported."},
        footer = {"", "Profiles: --quick (~2 minutes on 2 cores), the default (~11 minutes). docs/LAB.md has a"
                + " run of this machine beside the article's claims."})
public final class SpinStudy implements Callable<Integer> {
    /** The article's work between barriers, in elements of A[] per episode (all threads together). */
    static final int ARTICLE_WORK = 100_000;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    /** --quick, --out, --report. */
    @CommandLine.Mixin
    StudyOptions options;
    /** --threads (default 1 .. cores, 2, 4, 8 x cores), --repeats (default 3; --quick 1), --warmups (refused: see --warm-ms). */
    @CommandLine.Mixin
    SweepOptions sweep;
    @Option(names = "--designs", split = ",", paramLabel = "D", description = "only these designs: ${COMPLETION-CANDIDATES} (default all)")
    List<BarrierDesign> designs;
    @Option(names = "--work", split = ",", paramLabel = "N", description = "elements of work per episode, all threads"
            + " together (default " + ARTICLE_WORK + ",0: the article's work, and none)")
    List<Integer> work;
    @Option(names = "--warm-ms", paramLabel = "MS", description = "unmeasured time per run before the window (default 500; --quick 300)")
    Long warmMs;
    @Option(names = "--measure-ms", paramLabel = "MS", description = "measured window per run (default 1500; --quick 700)")
    Long measureMs;
    @Option(names = "--hang-ms", paramLabel = "MS", description = "no episode completed for this long: HUNG (default 3000; --quick 2000)")
    Long hangMsOption;
    private long hangMs;
    @Option(names = "--no-asm", description = "skip the JIT's code of the plain spin loop")
    boolean noAsm;
    @Option(names = "--no-yield", description = "skip the Thread.yield probe")
    boolean noYield;

    /** 1 .. cores, then 2, 4 and 8 x cores. */
    static List<Integer> defaultThreads(int cores) {
        List<Integer> th = new ArrayList<>();
        for (int i = 1; i <= cores; i++) {
            th.add(i);
        }
        for (int f : new int[] {2, 4, 8}) {
            th.add(f * cores);
        }
        return th;
    }

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            SpinReport.again(options.report(), System.out);
            return 0;
        }
        boolean quick = options.quick;
        if (sweep.warmups != null) {
            throw Usage.error(spec, "--warmups does not apply to the spin study: each run has its warm-up time (--warm-ms)");
        }
        List<Integer> th = sweep.threads(256, defaultThreads(Machine.cores()));
        int rep = sweep.repeats(quick, 1, 3);
        List<BarrierDesign> ds = designs != null ? designs : List.of(BarrierDesign.values());
        List<Integer> wk = work != null ? work : List.of(ARTICLE_WORK, 0);
        long warm = warmMs != null ? warmMs : quick ? 300 : 500;
        long measure = measureMs != null ? measureMs : quick ? 700 : 1500;
        hangMs = hangMsOption != null ? hangMsOption : quick ? 2000 : 3000;
        for (int w : wk) {
            if (w < 0 || w > 100_000_000) {
                throw Usage.error(spec, "--work must be 0 .. 100000000 elements, was " + w);
            }
        }
        if (new HashSet<>(wk).size() != wk.size() || new HashSet<>(ds).size() != ds.size()) {
            throw Usage.error(spec, "a design or work size is given twice");
        }
        if (warm < 0 || measure < 100 || hangMs < 500) {
            throw Usage.error(spec, "--warm-ms must be >= 0, --measure-ms >= 100, --hang-ms >= 500");
        }
        Path dir = options.resultsFolder();
        SpinReport.Info info = new SpinReport.Info(MachineFacts.here(), th, wk, rep, warm, measure, hangMs,
                System.getProperty("os.version"));
        System.out.println(info.machineLine());
        System.out.println(info.protocolLine());

        List<String> cells = new ArrayList<>();
        for (int w : wk) {
            for (int t : th) {
                for (int r = 1; r <= rep; r++) {
                    cells.add(t + ":" + w + ":" + warm + ":" + measure + ":" + r);
                }
            }
        }
        Progress progress = new Progress(System.err, (long) ds.size() * cells.size());
        List<SpinResult> results = new ArrayList<>();
        for (BarrierDesign d : ds) {
            results.addAll(runDesign(d, cells, progress));
        }
        progress.finish();

        SpinReport.Yield yield = noYield ? null : yieldProbe(quick ? 500 : 1000);
        JitCode.Code asm = null;
        if (!noAsm && ds.contains(BarrierDesign.PLAIN_LOCAL)) {
            System.err.println("printing the JIT's code of the plain spin loop ...");
            asm = JitCode.print(FlagBarrier.PlainLocal.class.getName() + "::waitFor", List.of(), SpinRunner.class,
                    List.of(BarrierDesign.PLAIN_LOCAL.name(), Long.toString(hangMs), "2:0:" + warm + ":" + measure + ":1"),
                    Duration.ofMillis(warm + measure + 2 * hangMs + 10_000), dir);
        }
        List<String> compilations = null;
        if (!noAsm && ds.contains(BarrierDesign.PLAIN_LOCAL)) {
            compilations = plainCompilations(warm, measure);
        }
        SpinReport.write(info, results, yield, asm, compilations, jvms, dir, System.out);
        return 0;
    }

    /**
     * Runs {@code cells} of design {@code d} in a fresh JVM; after a HUNG cell (the JVM halts) or a
     * JVM killed at its time limit, goes on with the cells left in another.
     */
    /** Each child JVM's design, cells, end, CPU stalls and JIT events, in the order they ran. */
    private final List<SpinReport.Jvm> jvms = new ArrayList<>();

    private List<SpinResult> runDesign(BarrierDesign d, List<String> cells, Progress progress) throws Exception {
        List<SpinResult> out = new ArrayList<>();
        List<String> left = new ArrayList<>(cells);
        while (!left.isEmpty()) {
            List<String> cmd = new ArrayList<>(ChildProcess.java(List.of("-Xms256m", "-Xmx256m"), SpinRunner.class, List.of()));
            cmd.add(d.name());
            cmd.add(Long.toString(hangMs));
            cmd.addAll(left);
            long limit = 0;
            for (String c : left) {
                String[] p = c.split(":");
                limit += Long.parseLong(p[2]) + Long.parseLong(p[3]) + 2 * hangMs;
            }
            StringBuilder other = new StringBuilder();
            List<SpinResult> got = new ArrayList<>();
            List<String> jit = new ArrayList<>();
            CpuStalls.Watch stalls = CpuStalls.watch(); // in this JVM, around the child: steal, CPU pressure, throttling
            ChildProcess.Output o = ChildProcess.run(cmd, null, line -> {
                if (line.startsWith("RESULT ")) {
                    got.add(SpinResult.parse(line));
                } else if (line.startsWith("JIT ")) {
                    jit.add(line.substring(4));
                } else if (line.startsWith("REDO ")) {
                    progress.note(line);
                } else if (line.startsWith("PROGRESS ")) {
                    progress.step(String.format(Locale.ROOT, "%-42s", line.substring(9)));
                } else {
                    other.append(line).append('\n');
                }
            }, Duration.ofMillis(limit + 10_000));
            jvms.add(new SpinReport.Jvm(d.name(), got.size(), o.timedOut() ? "killed at its time limit"
                    : !got.isEmpty() && got.get(got.size() - 1).hung() ? "halted after a HUNG cell" : "exited", stalls.stop(), jit));
            out.addAll(got);
            left.subList(0, got.size()).clear();
            if (o.timedOut() && !left.isEmpty()) { // the cell under way made no RESULT: the JVM was killed
                String[] p = left.remove(0).split(":");
                out.add(SpinResult.hung(d, Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[4]),
                        "the JVM was killed at its time limit"));
            } else if (o.exitCode() != 0 || (got.isEmpty() && !left.isEmpty())) {
                throw new java.io.IOException("the JVM running " + d + " failed (exit code " + o.exitCode() + "):\n" + other);
            }
        }
        return out;
    }

    /**
     * What the JIT decided about the plain spin loop: {@code -XX:+PrintCompilation}'s lines for
     * {@code PlainLocal::waitFor} in a run of 2 threads without work (a C2 compilation that finds
     * the loop endless is skipped, "COMPILE SKIPPED: infinite loop", and its OSR code made not
     * entrant; a thread already in that code spins on).
     */
    private List<String> plainCompilations(long warm, long measure) throws Exception {
        System.err.println("printing the JIT's compilations of the plain spin loop ...");
        List<String> cmd = ChildProcess.java(List.of("-XX:+PrintCompilation"), SpinRunner.class,
                List.of(BarrierDesign.PLAIN_LOCAL.name(), Long.toString(hangMs), "2:0:" + warm + ":" + measure + ":1"));
        ChildProcess.Output o = ChildProcess.run(cmd, null, l -> { }, Duration.ofMillis(warm + measure + 2 * hangMs + 10_000));
        List<String> lines = new ArrayList<>();
        for (String l : o.lines()) {
            if (l.contains("PlainLocal::waitFor")) {
                lines.add(l.strip().replaceAll("\\s+", " "));
            }
        }
        return lines;
    }

    /** The Thread.yield probe in a JVM on one CPU ({@code taskset -c 0}), or on all when there is no taskset. */
    private SpinReport.Yield yieldProbe(long ms) throws Exception {
        System.err.println("probing Thread.yield ...");
        boolean taskset = ChildProcess.onPath("taskset");
        List<String> cmd = new ArrayList<>();
        if (taskset) {
            cmd.addAll(List.of("taskset", "-c", "0"));
        }
        cmd.addAll(ChildProcess.java(List.of("-Xmx128m"), YieldProbe.class, List.of(Long.toString(ms))));
        ChildProcess.Output o = ChildProcess.run(cmd, null, l -> { }, Duration.ofMillis(20 * ms + 20_000));
        if (o.exitCode() != 0) {
            throw new java.io.IOException("the Thread.yield probe failed (exit code " + o.exitCode() + "):\n" + o.text());
        }
        return SpinReport.Yield.parse(o.lines(), taskset ? "one CPU (taskset -c 0)" : "all CPUs (no taskset on the PATH)");
    }
}
