package dev.statvar.lab.counters;

import dev.statvar.lab.kit.ChildProcess;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link CellRunner} in a fresh JVM ({@link ChildProcess#java}) per call: no JIT
 * profile, no megamorphic call site and no heap state carried from one implementation to the
 * next (Cliff Click's "A Pair of (somebody else's) Concurrency Bugs": "first run fast,
 * second run slow").
 */
final class Forker {
    /** JVM flags of every forked run; printed with the results. */
    static final List<String> JVM_FLAGS = List.of("-Xms512m", "-Xmx512m", "-XX:+UseG1GC", "-XX:CompileCommand=quiet",
            "-XX:CompileCommand=dontinline," + CellRunner.Worker.class.getName() + "::delayWork", dev.statvar.lab.counters.baseline.Jdk8Reset.ADD_OPENS);

    private Forker() {
    }

    /**
     * One run, parsed from a RESULT line: the implementation's run and the base run (the loop
     * without the update) that preceded it in the same JVM; {@code redone}: how often the pair was
     * run again because a bracket was disturbed ({@link CellRunner}); {@code phase}: "measured",
     * "warmup" or "redone" (a disturbed run, made again: only its counts are used);
     * {@code afterBaseWallNsPerOp}: the probe of the base loop right after the run (NaN where a
     * cell cannot be checked); gauges: {@code badIntervals}, {@code minSeen}, {@code maxSeen}
     * ({@link CellRunner.Result}). Results written before these existed read as measured, with
     * no probe, nothing bad and min and max {@link #UNKNOWN}.
     */
    record Repeat(int delay, int threads, int repeat, double wallNsPerOp, double cpuNsPerOp, double opsPerSec, long counted, long correct,
                  long countedSum, long correctSum, double baseWallNsPerOp, double baseCpuNsPerOp, int redone,
                  String phase, double afterBaseWallNsPerOp, long badIntervals, long minSeen, long maxSeen) {

        static final String MEASURED = "measured";
        /** min_seen / max_seen of a run that did not record them. */
        static final long UNKNOWN = -1;

        /** A measured run with no probe and no gauge judgment (as results from before the probe). */
        Repeat(int delay, int threads, int repeat, double wallNsPerOp, double cpuNsPerOp, double opsPerSec, long counted, long correct,
               long countedSum, long correctSum, double baseWallNsPerOp, double baseCpuNsPerOp, int redone) {
            this(delay, threads, repeat, wallNsPerOp, cpuNsPerOp, opsPerSec, counted, correct, countedSum, correctSum,
                    baseWallNsPerOp, baseCpuNsPerOp, redone, MEASURED, Double.NaN, 0, UNKNOWN, UNKNOWN);
        }

        boolean measured() {
            return MEASURED.equals(phase);
        }

        /** This run's wall time per op minus its own base's: one paired difference. */
        double pairedWall() {
            return wallNsPerOp - baseWallNsPerOp;
        }

        double pairedCpu() {
            return cpuNsPerOp - baseCpuNsPerOp;
        }

        /** Counted minus correct in this run. */
        long difference() {
            return counted - correct;
        }

        long sumDifference() {
            return countedSum - correctSum;
        }
    }

    /** Told of each finished run (a warm-up or measured run, with its base run). */
    interface Progress {
        void runDone(int delay, int threads);
    }

    /**
     * Runs every cell ({@code {delay, threads}}) of one implementation in one fresh JVM;
     * {@code progress} is called after each run.
     */
    static List<Repeat> run(Catalog.Kind kind, String impl, List<int[]> cells, long runMillis,
                            long intervalMillis, int warmups, int repeats,
                            Progress progress) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of(kind.name(), impl, Long.toString(runMillis), Long.toString(intervalMillis),
                Integer.toString(warmups), Integer.toString(repeats)));
        for (int[] c : cells) {
            args.add(c[0] + ":" + c[1]);
        }
        List<Repeat> out = new ArrayList<>();
        StringBuilder other = new StringBuilder();
        ChildProcess.Output o = ChildProcess.run(ChildProcess.java(JVM_FLAGS, CellRunner.class, args), null, line -> {
            if (line.startsWith("RESULT ")) {
                out.add(parse(line));
            } else if (line.startsWith("PROGRESS ")) {
                Map<String, String> kv = fields(line);
                progress.runDone(Integer.parseInt(kv.get("delay")), Integer.parseInt(kv.get("threads")));
            } else {
                other.append(line).append('\n');
            }
        });
        int rc = o.exitCode();
        if (rc != 0 || out.stream().filter(Repeat::measured).count() != (long) repeats * cells.size()) {
            throw new IOException("the forked run of " + impl + " failed with exit code " + rc + ":\n" + other);
        }
        return out;
    }

    /** The {@code key=value} fields of a line after its first word. */
    private static Map<String, String> fields(String line) {
        Map<String, String> kv = new HashMap<>();
        for (String tok : line.substring(line.indexOf(' ') + 1).trim().split("\\s+")) {
            int eq = tok.indexOf('=');
            kv.put(tok.substring(0, eq), tok.substring(eq + 1));
        }
        return kv;
    }

    static Repeat parse(String line) {
        Map<String, String> kv = fields(line);
        return new Repeat(Integer.parseInt(kv.get("delay")), Integer.parseInt(kv.get("threads")),
                Integer.parseInt(kv.get("repeat")), Double.parseDouble(kv.get("wall_ns_per_op")),
                Double.parseDouble(kv.get("cpu_ns_per_op")), Double.parseDouble(kv.get("ops_per_sec")),
                Long.parseLong(kv.get("counted")), Long.parseLong(kv.get("correct")),
                Long.parseLong(kv.get("counted_sum")), Long.parseLong(kv.get("correct_sum")),
                Double.parseDouble(kv.get("base_wall_ns_per_op")), Double.parseDouble(kv.get("base_cpu_ns_per_op")),
                Integer.parseInt(kv.get("redone")), kv.getOrDefault("phase", Repeat.MEASURED),
                Double.parseDouble(kv.getOrDefault("after_base_wall_ns_per_op", "NaN")),
                Long.parseLong(kv.getOrDefault("bad_intervals", "0")), Long.parseLong(kv.getOrDefault("min_seen", "-1")),
                Long.parseLong(kv.getOrDefault("max_seen", "-1")));
    }
}
