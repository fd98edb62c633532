package dev.statvar.lab.counters;

import dev.statvar.lab.kit.MachineFacts;

import java.util.List;

/**
 * What a study ran on and how: printed before the run and written into its JSON.
 *
 * @param machine        the machine ({@link MachineFacts}); the JSON's {@code machine} object adds the GC and the flags
 * @param jvmFlags       the forked JVMs' flags
 * @param runMillis      length of one run
 * @param intervalMillis collection interval
 * @param warmups        unreported runs per cell before the measured ones
 * @param repeats        measured runs per cell
 */
record RunInfo(MachineFacts machine, List<String> jvmFlags, long runMillis, long intervalMillis, int warmups, int repeats,
               List<Integer> delays, List<Integer> threads) {

    /** The article's regime ("Statistical variables in Java: not quite legal but very fast" (2017), "The tests" and "cool-down"): 10 s runs, retrieval every 1 s, cool-down 0.5 s. */
    static final long ARTICLE_RUN_MS = 10_000;
    static final long ARTICLE_INTERVAL_MS = 1_000;

    static RunInfo of(long runMillis, long intervalMillis, int warmups, int repeats, List<Integer> delays,
                      List<Integer> threads) {
        return new RunInfo(MachineFacts.here(), Forker.JVM_FLAGS, runMillis, intervalMillis, warmups, repeats, delays, threads);
    }

    int cores() {
        return machine.cores();
    }

    /**
     * The timing regime against the article's: run length, interval and cool-down (half the
     * interval, for the lazy implementations), their ratio, and how much shorter in time.
     */
    String regimeLine() {
        boolean articleRatio = runMillis * ARTICLE_INTERVAL_MS == intervalMillis * ARTICLE_RUN_MS;
        String cool = intervalMillis % 2 == 0 ? Long.toString(intervalMillis / 2) : (intervalMillis / 2) + ".5";
        return String.format(java.util.Locale.ROOT, "regime: runs of %d ms, the collector retrieving every %d ms, cool-down"
                        + " %s ms (lazy implementations); the article's: 10 s, 1 s, 0.5 s. %s; in time %.0fx shorter than"
                        + " the article's, so a loss that needs a thread to stall for a whole cool-down is that much likelier here",
                runMillis, intervalMillis, cool, articleRatio ? "The article's ratio (10 : 1 : 0.5)"
                        : String.format(java.util.Locale.ROOT, "Not the article's ratio: %.1f retrievals per run against its 10",
                        (double) runMillis / intervalMillis), (double) ARTICLE_RUN_MS / runMillis);
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

    /** The machine's header lines ({@link MachineFacts#header}), the GC and the forked JVMs' flags on the first. */
    String machineLine() {
        return machine.header(String.format("; GC %s; forked JVM flags %s", gc(), String.join(" ", jvmFlags)));
    }

    String protocolLine() {
        return String.format("protocol: one fresh JVM per implementation; per cell (delay factor x threads) %d warm-up"
                        + " run(s), then %d measured runs of %d ms, the collector retrieving every %d ms (indirect"
                        + " implementations: lazy retrieval, fetched on one half-interval, used on the next); before"
                        + " every run, a run of the base loop (no update) in the same JVM, and (cells whose threads fit the"
                        + " cores, delay > 0) a short probe of it after; every run's counts are judged, warm-up and"
                        + " redone runs too; the workers' loop reads the volatile running flag every iteration, as the"
                        + " article's, so at delay 0 the base is a real loop (a flag read and n++ per iteration, a cycle"
                        + " or so) and a delay-0 figure is what the update adds to that loop, the CPU overlapping the two%n%s",
                warmups, repeats, runMillis, intervalMillis, regimeLine());
    }
}
