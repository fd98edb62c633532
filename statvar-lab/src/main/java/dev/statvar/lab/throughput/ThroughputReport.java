package dev.statvar.lab.throughput;

import dev.statvar.lab.kit.MachineFacts;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The study's console report: every run's seconds and verdict, the self-check, the pitfalls. */
final class ThroughputReport {
    private ThroughputReport() {
    }

    /** What ran where. */
    record Info(MachineFacts machine, int seconds, int checkSeconds, long rate, List<Handoff.Impl> impls, boolean pitfalls,
                boolean selfCheck, boolean both) {
        static Info here(int seconds, int checkSeconds, long rate, List<Handoff.Impl> impls, boolean pitfalls,
                         boolean selfCheck, boolean both) {
            return new Info(MachineFacts.here(), seconds, checkSeconds, rate, List.copyOf(impls), pitfalls, selfCheck, both);
        }

        String protocolLine() {
            return String.format(Locale.ROOT, "protocol: a fresh JVM per run (%s), %d full seconds per implementation;"
                    + " an op = one value handed from the producer to the consumer, counted when consumed (the producer's"
                    + " column: values put); per second a statvar collect (exact counts), JFR compilations and GC pauses,"
                    + " each worker's CPU polled every 10 ms. First steady second: %d JIT-quiet seconds"
                    + " (compilations <= max(%d, %.0f %% of the busiest second's)) with rates within %.0f %% of their median;"
                    + " bimodal: split at the widest gap, each side >= %.0f %% of the steady seconds, medians >= %.1fx apart.",
                    String.join(" ", ThroughputStudy.JVM_FLAGS), seconds, Steadiness.PLATEAU, Steadiness.QUIET_FLOOR,
                    100 * Steadiness.QUIET_SHARE, 100 * Steadiness.BAND, 100 * Steadiness.MIN_SHARE, Steadiness.LEVEL_RATIO);
        }
    }

    /** Ops per second, readable: 12.34 M. */
    static String rate(double r) {
        if (Double.isNaN(r)) {
            return "n/a";
        }
        return r >= 1e6 ? String.format(Locale.ROOT, "%.2f M", r / 1e6) : String.format(Locale.ROOT, "%.1f k", r / 1e3);
    }

    /** Prints the report; returns whether every run added up and the self-check (if run) passed. */
    static boolean print(Info info, List<RunData> runs, boolean everyTable, PrintStream out) {
        boolean ok = true;
        out.println();
        out.println("== Each implementation alone in a fresh JVM (never summed) ==");
        for (Handoff.Impl i : info.impls()) {
            RunData r = Pitfalls.find(runs, i.label()).orElseThrow();
            table(r, out);
            ok &= r.exact();
        }
        out.println();
        out.println("Every run (median of its steady seconds; in parentheses, of the seconds after the first when none is"
                + " steady; shared: the share of those seconds its workers were seen on one CPU):");
        out.printf(Locale.ROOT, "%-28s %6s %7s %10s %10s %10s %7s  %s%n", "run", "steady", "seconds", "median/s", "min/s", "max/s",
                "shared", "levels");
        for (RunData r : runs) {
            summaryRow(r, out);
        }
        if (info.selfCheck()) {
            RunData r = Pitfalls.find(runs, "self-check").orElseThrow();
            out.println();
            out.printf(Locale.ROOT, "== Self-check: a producer held to %,d values per second through the ring ==%n", info.rate());
            table(r, out);
            SelfCheck c = SelfCheck.of(r, info.rate());
            out.printf(Locale.ROOT, "self-check: %s. %d steady seconds (from second %d), %d judged (%d not: the machine held"
                            + " the producer up across their start or end; %d hold-ups over %.0f ms in the run); the worst is %.3f %%"
                            + " off %,d/s (second %d; allowed %.0f %%, at least %d seconds judged); per-second counts add up to the"
                            + " workers' totals: %s%n", c.pass() ? "PASS" : "FAIL", c.steady(), c.firstSteady(), c.judged(),
                    c.steady() - c.judged(), r.holdUps.size(), r.holdUps.stream().mapToLong(u -> u[1] - u[0]).sum() / 1e6,
                    100 * c.worst(), info.rate(), c.worstSecond(), 100 * SelfCheck.TOLERANCE, SelfCheck.MIN_JUDGED,
                    c.exact() ? "yes" : "NO");
            ok &= c.pass();
        }
        if (info.pitfalls()) {
            PitfallsReport.print(info, runs, everyTable, out);
        }
        PitfallsReport.placement(runs, out);
        for (RunData r : runs) {
            if (!r.exact()) {
                out.printf("COUNTS DO NOT ADD UP in %s: own %s, seconds %s (exit %d)%n", r.label,
                        java.util.Arrays.toString(r.own), java.util.Arrays.toString(r.sums), r.exitCode);
                ok = false;
            }
        }
        out.println();
        out.println(ok ? "every run's seconds add up exactly to what its workers counted" : "FAILED: see above");
        return ok;
    }

    /** A run's seconds, then its verdict and its count check. */
    static void table(RunData r, PrintStream out) {
        boolean two = r.workers.size() == 2;
        out.println();
        out.printf("%s (%s)%n", r.label, two ? "total = values consumed; producer = values put" : "total = the worker's ops");
        out.printf(Locale.ROOT, "%6s %8s %10s %10s %10s %6s %4s %7s %6s %5s %6s%n", "second", "ms", "total/s",
                two ? "producer/s" : "", two ? "consumer/s" : "", "comp", "osr", "gc ms", "migr", "cpus", "shared");
        for (TimelineSecond s : r.seconds) {
            out.printf(Locale.ROOT, "%5d%s %8.1f %10s %10s %10s %6d %4d %7.2f %6s %5s %5.0f%%%n", s.second(),
                    s.partial() ? "p" : " ", s.millis(), rate(s.rate()), two ? rate(s.rate(0)) : "", two ? rate(s.rate(1)) : "",
                    s.compilations(), s.osr(), s.gcPauseMillis(), join(s.migrations()), join(s.cpus()), 100 * s.sharedCpu());
        }
        Steadiness.Verdict v = r.verdict();
        if (v.firstSteady() < 0) {
            out.printf("no steady second; the seconds after the first: median %s/s%n", rate(r.typicalRate()));
        } else {
            out.printf(Locale.ROOT, "first steady second %d; %d steady seconds: median %s/s, min %s/s, max %s/s; %s%n",
                    v.firstSteady(), v.steady(), rate(v.median()), rate(v.min()), rate(v.max()), levels(v));
        }
        StringBuilder check = new StringBuilder();
        for (int w = 0; w < r.workers.size(); w++) {
            check.append(w == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s %,d = %,d", r.workers.get(w), r.sums[w], r.own[w]));
        }
        out.printf("seconds summed = the workers' own counts: %s: %s%n", check, r.exact() ? "exact" : "MISMATCH");
        for (String n : r.notes) {
            out.println("note: " + n);
        }
    }

    private static void summaryRow(RunData r, PrintStream out) {
        Steadiness.Verdict v = r.verdict();
        out.printf(Locale.ROOT, "%-28s %6s %7d %10s %10s %10s %6.0f%%  %s%n", r.label,
                v.firstSteady() < 0 ? "none" : "" + v.firstSteady(), v.steady(),
                v.firstSteady() < 0 ? "(" + rate(r.typicalRate()) + ")" : rate(v.median()), rate(v.min()), rate(v.max()),
                100 * r.sharedCpu(), v.firstSteady() < 0 ? "" : levels(v));
    }

    static String levels(Steadiness.Verdict v) {
        Optional<Steadiness.Levels> l = Optional.ofNullable(v.levels());
        return l.map(x -> String.format(Locale.ROOT, "BIMODAL: %d s at %s/s, %d s at %s/s (%.2fx)", x.low(), rate(x.lowMedian()),
                x.high(), rate(x.highMedian()), x.ratio())).orElse("one level");
    }

    static String join(int[] a) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            b.append(i == 0 ? "" : ";").append(a[i]);
        }
        return b.toString();
    }
}
