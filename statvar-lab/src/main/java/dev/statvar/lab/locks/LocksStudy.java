package dev.statvar.lab.locks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.LoadAverage;
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
import java.util.concurrent.Callable;

/** {@code statvar lab locks}: Jean-Philippe Bempel's lock contention profiler ("Measuring contention on locks", 2015), made of statvar-probes' locks. */
@Command(name = "locks", mixinStandardHelpOptions = true,
        description = {"Bempel's lock contention profiler as statvar-probes' ContendedLock and ContendedReadWriteLock: a"
                + " workload of threads over locks with designed contention levels (QUIET: a lock per thread; LIGHT: held"
                + " 0.5 us, 20 us outside; HEAVY: held 20 us, 1 us outside; READ_MOSTLY: a read-write lock, 1 write in 20;"
                + " LONG_HOLD: held 30 ms every 250 ms by a batch thread, taken every 5 ms by a prober), each lock made at its"
                + " own line (its creation site). One JVM per thread count.",
                "Reported per site and mode: acquisitions, contended %, wait p50/p99/max and total, and the waits at or over"
                + " JFR's threshold; beside them what JFR's jdk.ThreadPark events at that threshold (JFR's default: 20 ms)"
                + " report of the same section (what JFR misses); the checks (statvar's acquisitions equal the workload's own"
                + " counts exactly, the per-thread locks never contend; exit 1 otherwise); and the article's profiler output"
                + " format. Writes locks.csv, locks.json and locks-article-format.txt into a results folder.",
                "--quick: 2 x cores worker threads, 3 s."},
        footer = {"", "Profiles: --quick (about 5 s), the default (cores and 2 x cores threads, 10 s each: about 25 s)."
                + " docs/LAB.md has a run of this machine."})
public final class LocksStudy implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    /** --quick (2 x cores worker threads, 3 s), --out, --report. */
    @CommandLine.Mixin
    StudyOptions options;
    /** --threads (worker thread counts, a JVM each; default cores, 2 x cores); --repeats and --warmups are refused (one run each). */
    @CommandLine.Mixin
    SweepOptions sweep;
    @Option(names = "--seconds", paramLabel = "S", description = "seconds per run (default 10; --quick 3)")
    Double seconds;
    @Option(names = "--jfr-threshold-ms", paramLabel = "MS", description = "JFR's jdk.ThreadPark threshold (default 20, JFR's own;"
            + " -1: no JFR stream)")
    Long jfrThresholdMs;

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            return LocksReport.again(options.report(), System.out) ? 0 : 1;
        }
        sweep.refuseRepeats("one run per thread count; use --seconds");
        int cores = Machine.cores();
        List<Integer> th = sweep.threads(256, options.quick ? List.of(2 * cores) : List.of(cores, 2 * cores));
        double s = seconds != null ? seconds : options.quick ? 3 : 10;
        if (!(s >= 0.5 && s <= 3600)) {
            throw Usage.error(spec, "--seconds must be 0.5 .. 3600, was " + s);
        }
        long jfr = jfrThresholdMs != null ? jfrThresholdMs : 20;
        if (jfr < -1 || jfr > 60_000) {
            throw Usage.error(spec, "--jfr-threshold-ms must be -1 (off) or 0 .. 60000, was " + jfr);
        }
        Path dir = options.resultsFolder();
        String loadBefore = LoadAverage.now();
        LocksReport.Info info = new LocksReport.Info(MachineFacts.here(), th, s, jfr, loadBefore);
        info.print(System.out);
        Progress progress = new Progress(System.err, th.size());
        List<JsonNode> results = new ArrayList<>();
        for (int t : th) {
            results.add(runOne(t, s, jfr, progress));
        }
        progress.finish();
        info = new LocksReport.Info(info.facts(), th, s, jfr, LoadAverage.beforeAndNow(loadBefore,
                "; the study keeps up to threads + 2 runnable"));
        System.out.println("load average: " + info.loadAverage());
        return LocksReport.write(info, results, dir, System.out) ? 0 : 1;
    }

    private static JsonNode runOne(int threads, double seconds, long jfr, Progress progress) throws Exception {
        List<String> cmd = ChildProcess.java(List.of("-Xms256m", "-Xmx256m"), LocksRunner.class,
                List.of(Integer.toString(threads), Double.toString(seconds), Long.toString(jfr)));
        ChildProcess.JsonResult r = ChildProcess.runForJson(cmd, Duration.ofMillis((long) (seconds * 1000) + 60_000));
        progress.step("threads=" + threads);
        if (r.json() == null) {
            throw new java.io.IOException("the run with " + threads + " threads gave no result: " + r.why());
        }
        return r.json();
    }
}
