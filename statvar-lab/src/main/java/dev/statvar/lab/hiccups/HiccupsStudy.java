package dev.statvar.lab.hiccups;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.CpuStalls;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.LoadAverage;
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
import java.util.concurrent.Callable;

/** {@code statvar lab hiccups}: what statvar-probes' HiccupMeter sees of the JVM's and the machine's pauses. */
@Command(name = "hiccups", mixinStandardHelpOptions = true,
        description = {"statvar-probes' HiccupMeter (jHiccup's idea: a thread sleeping the resolution in a loop, recording"
                + " how much longer than asked each sleep took, corrected for coordinated omission) through four disturbances,"
                + " one JVM each: IDLE (the floor), CPU (2 x cores busy threads: the scheduler), GC (System.gc() every 500 ms"
                + " over a 300 MB live set: stop-the-world pauses), SAFEPOINTS (thread dumps of 300 parked threads every"
                + " 100 ms). Beside the meter's histogram, JFR's account of the JVM's own pauses (every jdk.GCPhasePause and"
                + " every jdk.ExecuteVMOperation at a safepoint, those that ended by the disturbance's stop; the histogram is"
                + " collected 100 ms later), and the check that the meter saw the longest of them (exit 1"
                + " otherwise). Writes hiccups.csv and hiccups.json into a results folder.",
                "--quick: 3 s per disturbance."},
        footer = {"", "Profiles: --quick (about 20 s), the default (10 s per disturbance: about 50 s)."
                + " docs/LAB.md has a run of this machine."})
public final class HiccupsStudy implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    /** --quick (3 s per disturbance), --out, --report. */
    @CommandLine.Mixin
    StudyOptions options;
    @Option(names = "--disturbances", split = ",", paramLabel = "D", description = "only these: ${COMPLETION-CANDIDATES} (default all)")
    List<Disturbance> disturbances;
    @Option(names = "--seconds", paramLabel = "S", description = "seconds per disturbance (default 10; --quick 3)")
    Double seconds;
    @Option(names = "--resolution-ms", paramLabel = "MS", description = "the meter's resolution (default 1)")
    Long resolutionMs;

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            return HiccupsReport.again(options.report(), System.out) ? 0 : 1;
        }
        List<Disturbance> ds = disturbances != null ? disturbances : List.of(Disturbance.values());
        if (new HashSet<>(ds).size() != ds.size()) {
            throw Usage.error(spec, "a disturbance is given twice");
        }
        double s = seconds != null ? seconds : options.quick ? 3 : 10;
        if (!(s >= 1 && s <= 3600)) {
            throw Usage.error(spec, "--seconds must be 1 .. 3600, was " + s);
        }
        long res = resolutionMs != null ? resolutionMs : 1;
        if (res < 1 || res > 1000) {
            throw Usage.error(spec, "--resolution-ms must be 1 .. 1000, was " + res);
        }
        Path dir = options.resultsFolder();
        String loadBefore = LoadAverage.now();
        HiccupsReport.Info info = new HiccupsReport.Info(MachineFacts.here(), ds.stream().map(Enum::name).toList(), s, res, loadBefore);
        info.print(System.out);
        Progress progress = new Progress(System.err, ds.size());
        List<JsonNode> results = new ArrayList<>();
        for (Disturbance d : ds) {
            List<String> cmd = ChildProcess.java(List.of("-Xms1g", "-Xmx1g"), HiccupsRunner.class,
                    List.of(d.name(), Double.toString(s), Long.toString(res)));
            CpuStalls.Watch stalls = CpuStalls.watch(); // in this JVM, around the child: steal, CPU pressure, throttling
            ChildProcess.JsonResult r = ChildProcess.runForJson(cmd, Duration.ofSeconds((long) s + 60));
            CpuStalls.Window w = stalls.stop();
            progress.step(d.name());
            if (r.json() == null) {
                throw new java.io.IOException("the " + d + " run gave no result: " + r.why());
            }
            ((com.fasterxml.jackson.databind.node.ObjectNode) r.json()).setAll((com.fasterxml.jackson.databind.node.ObjectNode) Json.tree(w));
            results.add(r.json());
        }
        progress.finish();
        info = new HiccupsReport.Info(info.facts(), info.disturbances(), s, res, LoadAverage.beforeAndNow(loadBefore,
                "; CPU keeps 2 x cores threads busy by design"));
        System.out.println("load average: " + info.loadAverage());
        return HiccupsReport.write(info, results, dir, System.out) ? 0 : 1;
    }
}
