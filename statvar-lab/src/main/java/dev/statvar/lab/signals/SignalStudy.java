package dev.statvar.lab.signals;

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

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code statvar lab signals}: Jean-Philippe Bempel's "Notify... oh, wait! I have a signal." (2015) */
@Command(name = "signals", mixinStandardHelpOptions = true,
        description = {"Bempel's signalling study: N pairs of threads; in each pair a critical thread signals its"
                + " flushing partner, one signal at a time, each time the partner waits (1,000 measured signals per pair,"
                + " after 200 unmeasured). Mechanisms: wait/notify (the article's), Lock/Condition signal, LockSupport"
                + " park/unpark, and a spin hand-off (onSpinWait for at most 100 us, then park) for contrast. Pairs 1,"
                + " cores, 16 and 256 (the article's 16 and 256); each mechanism x pair count in a fresh JVM.",
                "Reported per cell, for the signal's cost to the critical thread and for the wake-up latency (just"
                + " before the signal until the partner runs), both statvar histograms: p50, p90, p95, p99, p99.9, max,"
                + " mean; missed signals (never seen, or seen only when a 2 s wait ran out; a signal not sent within"
                + " those 2 s is counted apart, as abandoned), spurious wake-ups; the"
                + " clock's granularity and cost; the article's figures beside ours; and statvar's percentiles checked"
                + " against HdrHistogram fed the same samples (a cell outside statvar's stated precision fails the"
                + " run). Writes signals.csv, signals.json and percentile-spectrum charts into a results folder.",
                "--quick: pairs 1, cores and 16, 500 measured signals per pair after 100 unmeasured."},
        footer = {"", "Profiles: --quick (7 s on 2 cores, Intel Xeon, JDK 17), the default (43 s there; the 256 pairs' spin"
                + " hand-off takes most of it)."
                + " docs/LAB.md has a run of this machine beside the article's figures."})
public final class SignalStudy implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    /** --quick (pairs 1, cores and 16, 500 measured signals per pair after 100), --out, --report; not the sweep's
     * options: --pairs, --signals and --warmup-signals do their work. */
    @CommandLine.Mixin
    StudyOptions options;
    @Option(names = "--pairs", split = ",", paramLabel = "N", description = "pair counts (default 1, cores, 16, 256; --quick 1, cores, 16)")
    List<Integer> pairs;
    @Option(names = "--mechanisms", split = ",", paramLabel = "M", description = "only these: ${COMPLETION-CANDIDATES} (default all)")
    List<Mechanism> mechanisms;
    @Option(names = "--signals", paramLabel = "N", description = "measured signals per pair (default 1000; --quick 500)")
    Integer signals;
    @Option(names = "--warmup-signals", paramLabel = "N", description = "unmeasured signals per pair before them (default 200; --quick 100)")
    Integer warmupSignals;

    /** 1, cores, 16, 256 (quick: without 256), each once, in increasing order. */
    static List<Integer> defaultPairs(int cores, boolean quick) {
        List<Integer> p = new ArrayList<>(new java.util.TreeSet<>(quick ? List.of(1, cores, 16) : List.of(1, cores, 16, 256)));
        return p;
    }

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            return SignalReport.again(options.report(), System.out) ? 0 : 1;
        }
        boolean quick = options.quick;
        List<Integer> ps = pairs != null ? pairs : defaultPairs(Machine.cores(), quick);
        List<Mechanism> ms = mechanisms != null ? mechanisms : List.of(Mechanism.values());
        int n = signals != null ? signals : quick ? 500 : 1000;
        int w = warmupSignals != null ? warmupSignals : quick ? 100 : 200;
        for (int p : ps) {
            if (p < 1 || p > 1024) {
                throw Usage.error(spec, "--pairs must be 1 .. 1024, was " + p);
            }
        }
        if (new HashSet<>(ps).size() != ps.size() || new HashSet<>(ms).size() != ms.size()) {
            throw Usage.error(spec, "a pair count or mechanism is given twice");
        }
        if (n < 1 || n > 100_000 || w < 0 || w > 100_000) {
            throw Usage.error(spec, "--signals must be 1 .. 100000 and --warmup-signals 0 .. 100000");
        }
        if ((long) n * ps.stream().mapToInt(Integer::intValue).max().orElse(1) > 2_000_000) {
            throw Usage.error(spec, "--signals x the largest pair count must stay <= 2,000,000 (the raw samples are kept for the check)");
        }
        Path dir = options.resultsFolder();
        String loadBefore = LoadAverage.now();
        SignalReport.Info info = new SignalReport.Info(MachineFacts.here(), System.getProperty("os.version"), ps,
                ms.stream().map(Mechanism::name).toList(), n, w, loadBefore);
        info.facts().print(System.out, ", kernel " + info.kernel());
        System.out.println(info.protocolLine());
        Progress progress = new Progress(System.err, (long) ps.size() * ms.size());
        List<JsonNode> results = new ArrayList<>();
        for (int p : ps) {
            for (Mechanism m : ms) {
                results.add(runCell(m, p, n, w, progress));
            }
        }
        progress.finish();
        info = new SignalReport.Info(info.facts(), info.kernel(), info.pairs(), info.mechanisms(), n, w,
                LoadAverage.beforeAndNow(loadBefore, "; the study keeps 2 threads per pair runnable at most"));
        System.out.println("load average: " + info.loadAverage());
        return SignalReport.write(info, results, dir, System.out) ? 0 : 1;
    }

    /** One mechanism at one pair count in a fresh JVM, killed at its time limit (a TIMEOUT result then). */
    private JsonNode runCell(Mechanism m, int p, int n, int w, Progress progress) throws Exception {
        List<String> cmd = ChildProcess.java(List.of("-Xms256m", "-Xmx256m", "-Xss512k"), SignalRunner.class,
                List.of(m.name(), Integer.toString(p), Integer.toString(n), Integer.toString(w)));
        long limitMs = 60_000 + (long) p * (n + w) / 4; // 250 us per signal and pair on top of a minute
        ChildProcess.JsonResult r = ChildProcess.runForJson(cmd, Duration.ofMillis(limitMs));
        progress.step(String.format(Locale.ROOT, "%-11s pairs=%-4d", m, p));
        if (r.json() == null) {
            progress.note(m + " pairs=" + p + " produced no result: " + r.why());
            return SignalReport.failedCell(m.name(), p, r.timedOut() ? "TIMEOUT" : "FAILED", r.why());
        }
        return r.json();
    }
}
