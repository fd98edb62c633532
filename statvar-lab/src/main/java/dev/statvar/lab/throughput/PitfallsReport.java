package dev.statvar.lab.throughput;

import dev.statvar.lab.kit.Verdict;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The console section of the article's three pitfalls, each beside the honest way ({@link Pitfalls}). */
final class PitfallsReport {
    /** A ratio this close to 1 is called no difference: the runs of one JVM differ by this much second to second. */
    static final double NOISE = 0.10;

    private PitfallsReport() {
    }

    static void print(ThroughputReport.Info info, List<RunData> runs, boolean everyTable, PrintStream out) {
        out.println();
        out.println("== The article's pitfalls, each beside the honest way ==");
        if (everyTable) {
            for (RunData r : runs) {
                if (r.label.startsWith("together-") || r.label.endsWith("-loop")) {
                    ThroughputReport.table(r, out);
                }
            }
            out.println();
        }
        out.println("1. Two implementations in one JVM through the same call sites (article: \"classic"
                + " 1st-run-fast-2nd-run-slow syndrome\"), against each alone in a fresh JVM (medians of steady seconds):");
        List<Pitfalls.Pollution> pol = Pitfalls.pollution(runs);
        if (pol.isEmpty()) {
            out.println("   not run (it needs both implementations)");
        }
        for (Pitfalls.Pollution p : pol) {
            out.printf(Locale.ROOT, "   %-5s alone %s/s (%.0f %% on one CPU); in a shared JVM run first %s/s (%s, %.0f %%), run"
                            + " second %s/s (%s, %.0f %%): %s%n", p.impl(), ThroughputReport.rate(p.alone()), 100 * p.aloneShared(),
                    ThroughputReport.rate(p.first()), ratio(p.first() / p.alone()), 100 * p.firstShared(),
                    ThroughputReport.rate(p.second()), ratio(p.secondToAlone()), 100 * p.secondShared(), verdict(p));
        }
        Optional<Pitfalls.Sum> sum = Pitfalls.sum(runs);
        out.println("2. The article's sum: queue time + ring time for the same number of values, reported as one figure:");
        if (sum.isEmpty()) {
            out.println("   not computed (it needs both implementations)");
        } else {
            Pitfalls.Sum s = sum.get();
            out.printf(Locale.ROOT, "   separately: queue %s/s, ring %s/s (ring / queue %.2fx). Summed as the article's"
                            + " harness did: %s/s, of whose time %.0f %% is the queue's; the figure is %.2fx the queue's and"
                            + " %.2fx the ring's: it describes neither.%n", ThroughputReport.rate(s.queue()),
                    ThroughputReport.rate(s.ring()), s.ring() / s.queue(), ThroughputReport.rate(s.summed()),
                    100 * s.queueShare(), s.summed() / s.queue(), s.summed() / s.ring());
        }
        out.println("3. The work as one huge loop entered once (long induction variable: OSR code only) against the"
                + " same work in a method called again and again (normal JIT):");
        Optional<Pitfalls.Osr> osr = Pitfalls.osr(runs);
        if (osr.isEmpty()) {
            out.println("   not run");
        } else {
            Pitfalls.Osr o = osr.get();
            out.printf(Locale.ROOT, "   huge loop %s/s, method %s/s (huge / method %.2fx): %s. OSR compilations of the"
                            + " loops' own methods: huge loop %d, method %d (the whole JVM's: %d and %d).%n",
                    ThroughputReport.rate(o.osrLoop()), ThroughputReport.rate(o.methodLoop()), o.ratio(),
                    Math.abs(o.ratio() - 1) <= NOISE ? "no difference beyond noise (OSR code is not worse here)"
                            : o.ratio() < 1 ? "the OSR-only loop is slower" : "the OSR-only loop is faster",
                    o.loopOsr(), o.methodOsr(), o.osrJvm(), o.methodJvm());
            for (String label : List.of("osr-loop", "method-loop")) {
                RunData r = Pitfalls.find(runs, label).orElseThrow();
                out.printf("   %s compiled: %s%n", label, String.join("; ", r.compiled.stream()
                        .map(c -> c.replace("dev.statvar.lab.throughput.", "")).toList()));
            }
        }
    }

    /** The third point of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs": where the two workers ran, against what they did. */
    static void placement(List<RunData> runs, PrintStream out) {
        out.println();
        out.printf(Locale.ROOT, "CPU placement (article: \"performance varies by a factor of 3 ... in quantum jumps\"): every"
                + " second after the first of every run of an implementation, by where its two workers were (on one CPU in"
                + " >= %.0f %% of the second's polls, or in <= %.0f %%):%n", 100 * Pitfalls.TOGETHER, 100 * Pitfalls.APART);
        for (Pitfalls.Placement p : Pitfalls.placement(runs)) {
            out.printf(Locale.ROOT, "   %-5s on one CPU %s (%d s), on two CPUs %s (%d s): %s%n", p.impl(),
                    perSecond(p.together()), p.togetherSeconds(), perSecond(p.apart()), p.apartSeconds(),
                    p.togetherSeconds() == 0 || p.apartSeconds() == 0 ? "not both seen"
                            : String.format(Locale.ROOT, "apart / together %.2fx", p.apartToTogether()));
        }
    }

    private static String perSecond(double r) {
        return Double.isNaN(r) ? "-" : ThroughputReport.rate(r) + "/s";
    }

    private static String ratio(double r) {
        return String.format(Locale.ROOT, "%.2fx alone", r);
    }

    /** Runs whose workers shared one CPU in shares this far apart are not compared: placement, not the JIT, decides. */
    static final double PLACEMENT_GAP = 0.25;

    /**
     * {@code lab throughput --report DIR}: the profile-pollution verdicts of a finished run judged again
     * from the rates and CPU shares its {@code throughput.json} holds (by {@link #verdict}, in the lab's
     * scheme), printed and written back into the file; nothing else of it changes.
     */
    static void judgeAgain(java.nio.file.Path json, java.io.PrintStream out) throws java.io.IOException {
        com.fasterxml.jackson.databind.JsonNode root = dev.statvar.lab.kit.Json.read(json);
        for (com.fasterxml.jackson.databind.JsonNode c : root.path("cells")) {
            if (!c.path("pitfall").asText().equals("profile_pollution")) {
                continue;
            }
            Pitfalls.Pollution p = new Pitfalls.Pollution(c.path("impl").asText(), c.path("alone_mops").asDouble(Double.NaN),
                    c.path("first_mops").asDouble(Double.NaN), c.path("second_mops").asDouble(Double.NaN),
                    c.path("alone_shared_cpu_percent").asDouble(Double.NaN) / 100, c.path("first_shared_cpu_percent").asDouble(Double.NaN) / 100,
                    c.path("second_shared_cpu_percent").asDouble(Double.NaN) / 100);
            String v = verdict(p);
            out.printf(Locale.ROOT, "profile pollution, %s second: %.2fx alone: %s%n", p.impl(), p.secondToAlone(), v);
            ((com.fasterxml.jackson.databind.node.ObjectNode) c).put("verdict", v);
        }
        dev.statvar.lab.kit.Json.write(json, root);
        out.println("written: " + json);
    }

    /**
     * Whether the article's syndrome shows: the second run slower than alone beyond noise, the first
     * not; said only of runs whose workers were placed alike.
     */
    static String verdict(Pitfalls.Pollution p) {
        double gap = Math.max(Math.abs(p.secondShared() - p.aloneShared()), Math.abs(p.firstShared() - p.aloneShared()));
        if (!(gap <= PLACEMENT_GAP)) {
            return String.format(Locale.ROOT, "%s: the workers were placed differently (on one CPU %.0f %% alone,"
                    + " %.0f %% and %.0f %% in the shared JVM), which decides more than the JIT (see CPU placement below)",
                    Verdict.NOT_TESTABLE, 100 * p.aloneShared(), 100 * p.firstShared(), 100 * p.secondShared());
        }
        boolean secondSlower = p.secondToAlone() < 1 - NOISE;
        boolean firstSlower = p.first() / p.alone() < 1 - NOISE;
        if (secondSlower && !firstSlower) {
            return Verdict.CONFIRMED + " (second slower)";
        }
        if (secondSlower) {
            return Verdict.NOT_TESTABLE + " (slower in a shared JVM both first and second: this measure cannot tell the second"
                    + " loop's syndrome from sharing the JVM)";
        }
        return p.secondToAlone() > 1 + NOISE ? Verdict.REFUTED + " (second faster)" : Verdict.WITHIN_NOISE + " (within "
                + Math.round(100 * NOISE) + " %)";
    }
}
