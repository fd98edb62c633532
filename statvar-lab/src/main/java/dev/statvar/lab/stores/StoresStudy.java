package dev.statvar.lab.stores;

import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.LoadAverage;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Progress;
import dev.statvar.lab.kit.StudyOptions;
import dev.statvar.lab.kit.SweepOptions;
import dev.statvar.lab.kit.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code statvar lab stores}: Jean-Philippe Bempel's kinds of store ("Volatile and memory barriers", 2015), their cost and the JIT's code of each. */
@Command(name = "stores", mixinStandardHelpOptions = true,
        description = {"Bempel's \"Volatile and memory barriers\" and \"PrintAssembly output explained!\": six kinds of store"
                + " (plain, setOpaque, setRelease/lazySet, setVolatile, getAndSet, plain + VarHandle.fullFence()) in a"
                + " store-only loop and a store-then-load loop, at 1 thread and with another thread reading the field, each kind"
                + " in a fresh JVM; statvar's Counter.add, Gauge.report and Histogram.record beside them (1 thread).",
                "Reported: ns per store (the median run, lowest .. highest); the barrier instructions (lock-prefixed, mfence,"
                + " memory xchg) in the JIT's code of each loop, checked: volatile, getAndSet and fence must have one, plain,"
                + " opaque, release and statvar's update paths none (exit code 1 otherwise); the article's reordering example"
                + " (six static fields, two volatile); Bempel's claims; the annotated listings. Writes stores.csv, stores.json"
                + " and stores-listings.txt.",
                "--quick: 1 warm-up + 3 runs of 100 ms per cell; otherwise 2 + 9 (--warmups, --repeats) of 300 ms (--run-ms)."},
        footer = {"", "Profiles: --quick (16 s on 2 cores: Intel Xeon, JDK 17), the default (1 min 41 s there). docs/LAB.md has"
                + " a run of this machine beside the article's claims."})
public final class StoresStudy implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;
    /** --quick, --out, --report. */
    @CommandLine.Mixin
    StudyOptions options;
    /** --repeats, --warmups; --threads is refused (the study runs 1 and 2). */
    @CommandLine.Mixin
    SweepOptions sweep;
    @Option(names = "--kinds", split = ",", paramLabel = "K", description = "only these kinds: ${COMPLETION-CANDIDATES} (default all)")
    List<StoreKind> kinds;
    @Option(names = "--run-ms", paramLabel = "MS", description = "length of one run (default 300; --quick 100)")
    Long runMs;
    @Option(names = "--no-asm", description = "skip the JIT's code (no listing, no barrier check)")
    boolean noAsm;

    @Override
    public Integer call() throws Exception {
        if (options.report() != null) {
            return StoresReport.again(options.report(), System.out);
        }
        if (sweep.threads != null) {
            throw Usage.error(spec, "--threads does not apply to the store study: it runs every kind at 1 thread and with one reader");
        }
        List<StoreKind> ks = kinds != null ? kinds : List.of(StoreKind.values());
        if (new HashSet<>(ks).size() != ks.size()) {
            throw Usage.error(spec, "a kind is given twice");
        }
        int warmups = sweep.warmups != null ? sweep.warmups() : options.quick ? 1 : 2;
        int repeats = sweep.repeats(options.quick, 3, 9);
        long ms = runMs != null ? runMs : options.quick ? 100 : 300;
        if (ms < 10 || ms > 60_000) {
            throw Usage.error(spec, "--run-ms must be 10 .. 60000, was " + ms);
        }
        Path dir = options.resultsFolder();
        StoresData.Protocol protocol = new StoresData.Protocol(ks, warmups, repeats, ms, options.quick);
        MachineFacts machine = MachineFacts.here();

        long total = 0;
        for (StoreKind k : ks) {
            total += (long) k.loops().size() * k.threads().size();
        }
        String loadBefore = LoadAverage.now();
        Progress progress = new Progress(System.err, total + (noAsm ? 0 : 1));
        List<StoreRun> runs = new ArrayList<>();
        for (StoreKind k : ks) {
            runs.addAll(runKind(k, warmups, repeats, ms, progress));
        }
        Listings.Result listings = null;
        if (!noAsm) {
            listings = Listings.print(dir);
            StoresReport.writeListings(listings, dir);
            progress.step("the JIT's code of every loop");
        }
        progress.finish();
        var tree = StoresData.tree(machine, protocol, runs, listings);
        tree.put("load_average", LoadAverage.beforeAndNow(loadBefore, "; the study itself keeps 1 to 3 runnable"));
        return StoresReport.write(tree, dir, System.out);
    }

    /** Every cell of {@code k} in one fresh JVM. */
    private static List<StoreRun> runKind(StoreKind k, int warmups, int repeats, long ms, Progress progress)
            throws IOException, InterruptedException {
        List<String> cmd = ChildProcess.java(List.of("-Xms256m", "-Xmx256m"), StoreRunner.class,
                List.of(k.name(), Integer.toString(warmups), Integer.toString(repeats), Long.toString(ms)));
        List<StoreRun> got = new ArrayList<>();
        StringBuilder other = new StringBuilder();
        String[] cell = {null};
        long cells = (long) k.loops().size() * k.threads().size();
        ChildProcess.Output o = ChildProcess.run(cmd, null, line -> {
            if (line.startsWith("RESULT ")) {
                got.add(StoreRun.parse(line));
            } else if (line.startsWith("PROGRESS ")) {
                if (cell[0] != null) {
                    progress.step(String.format(Locale.ROOT, "%-40s", cell[0]));
                }
                cell[0] = line.substring(9);
            } else if (!line.startsWith("BLACKHOLE ")) {
                other.append(line).append('\n');
            }
        }, Duration.ofMillis(cells * (warmups + repeats) * (ms + 1_000) + 30_000));
        if (cell[0] != null) {
            progress.step(String.format(Locale.ROOT, "%-40s", cell[0]));
        }
        if (o.exitCode() != 0 || got.size() != cells * repeats) {
            throw new IOException("the JVM running " + k + " failed (exit code " + o.exitCode() + (o.timedOut() ? ", killed at its time limit" : "")
                    + ", " + got.size() + " of " + cells * repeats + " runs):\n" + other);
        }
        return got;
    }
}
