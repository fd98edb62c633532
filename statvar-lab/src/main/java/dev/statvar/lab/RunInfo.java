package dev.statvar.lab;

import java.util.List;

/**
 * What a study ran on and how: printed before the run and written into its JSON.
 *
 * @param runMillis      length of one run
 * @param intervalMillis collection interval
 * @param warmups        unreported runs per cell before the measured ones
 * @param repeats        measured runs per cell
 */
record RunInfo(String cpu, int cores, String jdk, String vm, List<String> jvmFlags, long runMillis,
               long intervalMillis, int warmups, int repeats, List<Integer> delays, List<Integer> threads) {

    static RunInfo of(long runMillis, long intervalMillis, int warmups, int repeats, List<Integer> delays,
                      List<Integer> threads) {
        return new RunInfo(LabMain.cpuModel(), Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"), Forker.JVM_FLAGS,
                runMillis, intervalMillis, warmups, repeats, delays, threads);
    }

    /** The GC of the forked runs, from their flags. */
    String gc() {
        for (String f : jvmFlags) {
            if (f.startsWith("-XX:+Use") && f.endsWith("GC")) {
                return f.substring("-XX:+Use".length());
            }
        }
        return "the JVM's default";
    }

    String machineLine() {
        return String.format("machine: %s, %d cores; JDK %s (%s); GC %s; forked JVM flags %s", cpu, cores, jdk, vm,
                gc(), String.join(" ", jvmFlags));
    }

    String protocolLine() {
        return String.format("protocol: one fresh JVM per implementation; per cell (delay factor x threads) %d warm-up"
                        + " run(s), then %d measured runs of %d ms, the collector retrieving every %d ms (indirect"
                        + " implementations: lazy retrieval, fetched on one half-interval, used on the next); before"
                        + " every run, a run of the base loop (no update) in the same JVM; of the runs the two slowest"
                        + " are discarded and the rest averaged (the article's rule)",
                warmups, repeats, runMillis, intervalMillis);
    }
}
