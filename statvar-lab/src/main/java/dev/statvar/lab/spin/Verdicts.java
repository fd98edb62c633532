package dev.statvar.lab.spin;

import dev.statvar.lab.kit.JitCode;
import dev.statvar.lab.kit.Verdict;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The claims of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs" about its barrier, each decided from a run's data in the lab's scheme ({@link Verdict}: each line begins with the verdict). */
final class Verdicts {
    private Verdicts() {
    }

    static List<String> of(SpinReport.Info info, Map<String, SpinReport.Cell> cells, SpinReport.Yield yield, JitCode.Code asm,
                           List<String> compilations) {
        List<String> v = new ArrayList<>();
        int cores = info.cores();
        int w = info.work().stream().filter(x -> x > 0).findFirst().orElse(info.work().get(0));

        // 1. the hoisted load
        int plain = 0;
        int plainHung = 0;
        int volatileHung = 0;
        int volatileCells = 0;
        for (SpinReport.Cell c : cells.values()) {
            SpinResult r = c.shown();
            if (r.threads() < 2) {
                continue;
            }
            if (r.design() == BarrierDesign.PLAIN_LOCAL) {
                plain++;
                plainHung += r.hung() ? 1 : 0;
            } else if (r.design() == BarrierDesign.VOLATILE_FIELD) {
                volatileCells++;
                volatileHung += r.hung() ? 1 : 0;
            }
        }
        if (plain == 0) {
            v.add(Verdict.NOT_TESTABLE + ": the JIT hoists LUFact's plain flag load and the barrier hangs (PLAIN_LOCAL not run with 2+ threads)");
        } else {
            // per thread count: a hang that happens in some runs and not others is not decided by this run
            Map<Integer, int[]> byThreads = new java.util.TreeMap<>();
            for (SpinReport.Cell c : cells.values()) {
                SpinResult r = c.shown();
                if (r.design() == BarrierDesign.PLAIN_LOCAL && r.threads() >= 2) {
                    int[] n = byThreads.computeIfAbsent(r.threads(), k -> new int[2]);
                    n[0] += c.hungRuns();
                    n[1] += c.runs();
                }
            }
            StringBuilder per = new StringBuilder();
            byThreads.forEach((t, n) -> per.append(String.format(Locale.ROOT, "; %d threads: %s (%d of %d runs hung)", t,
                    n[0] == n[1] ? Verdict.CONFIRMED : n[0] == 0 ? Verdict.REFUTED : Verdict.WITHIN_NOISE, n[0], n[1])));
            Verdict all = plainHung == plain ? Verdict.CONFIRMED : plainHung == 0 ? Verdict.REFUTED : Verdict.WITHIN_NOISE;
            v.add(String.format(Locale.ROOT, "%s: the JIT hoists a plain flag load out of the spin loop and the barrier hangs"
                    + " (PLAIN_LOCAL hung in %d of %d cells with 2+ threads on %s%s%s)", all, plainHung, plain, info.machine().vm(),
                    all == Verdict.WITHIN_NOISE ? ": it hangs in some cells and not in others, so the claim holds only where"
                    + " every run hung" : "", per)
                    + (compilations != null && compilations.stream().anyMatch(l -> l.contains("COMPILE SKIPPED: infinite loop"))
                    ? "; C2 saw the loop was endless: it skipped compiling the method (\"COMPILE SKIPPED: infinite loop\") and"
                    + " made its on-stack-replacement code not entrant (-XX:+PrintCompilation, below)" : ""));
        }
        if (volatileCells > 0) {
            v.add(String.format(Locale.ROOT, "%s: LUFact's 'volatile boolean[]' (a volatile array field, plain elements) is re-read"
                    + " every iteration and so does not hang on HotSpot, though the JMM does not promise it (%d of %d cells hung)",
                    volatileHung == 0 ? Verdict.CONFIRMED : Verdict.REFUTED, volatileHung, volatileCells));
        }

        // 2. oversubscribed spinning: 2-10x the time at threads = CPUs
        StringBuilder ratios = new StringBuilder();
        double lo = Double.POSITIVE_INFINITY;
        double hi = 0;
        for (BarrierDesign d : BarrierDesign.values()) {
            if (!d.spinsOnly()) {
                continue;
            }
            SpinResult base = SpinReport.atCores(cells, d, cores, w);
            SpinReport.Cell over = cells.get(d + ":" + 2 * cores + ":" + w);
            if (base == null || over == null || over.shown().hung()) {
                continue;
            }
            double x = over.shown().usPerEpisode() / base.usPerEpisode();
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
            ratios.append(String.format(Locale.ROOT, " %s %.1fx", d, x));
        }
        if (hi == 0) {
            v.add(Verdict.NOT_TESTABLE + ": spinning barriers with twice as many threads as CPUs take 2-10x their time at"
                    + " threads = CPUs (no spinning design measured at both " + cores + " and " + 2 * cores + " threads with work)");
        } else {
            v.add(String.format(Locale.ROOT, "%s: spinning barriers with twice as many threads as CPUs take 2-10x their time at"
                    + " threads = CPUs (article: 32 threads on 16 Nehalem CPUs) (%d vs %d threads, work %d:%s)%s",
                    lo >= 2 ? Verdict.CONFIRMED : hi < 2 ? Verdict.REFUTED : Verdict.WITHIN_NOISE, 2 * cores, cores, w, ratios,
                    hi > 10 ? "; above the article's 10x for some designs" : lo < 2 && hi >= 2 ? "; the designs disagree" : ""));
        }

        // 3. Thread.yield as the remedy: the median over the oversubscribed thread counts, so that one noisy cell does not decide
        StringBuilder yr = new StringBuilder();
        List<Double> ys = new ArrayList<>();
        for (int t : info.threads()) {
            if (t <= cores) {
                continue;
            }
            SpinReport.Cell c = cells.get(BarrierDesign.YIELD + ":" + t + ":" + w);
            if (c == null || c.shown().hung()) {
                continue;
            }
            double x = c.shown().usPerEpisode() / SpinReport.best(cells, t, w);
            ys.add(x);
            yr.append(String.format(Locale.ROOT, " %d threads %.1fx", t, x));
        }
        if (ys.isEmpty()) {
            v.add(Verdict.NOT_TESTABLE + ": Thread.yield in the spin loop is no remedy when threads outnumber CPUs (YIELD not run oversubscribed)");
        } else {
            ys.sort(null);
            double median = ys.get((ys.size() - 1) / 2);
            v.add(String.format(Locale.ROOT, "%s: Thread.yield in the spin loop is no remedy when threads outnumber CPUs"
                    + " (YIELD's time / the best design's, work %d:%s; median %.1fx; confirmed from 1.5x)", median >= 1.5 ? Verdict.CONFIRMED
                    : Verdict.REFUTED, w, yr, median));
        }

        // the article's second reason: "you spend all of your time in the kernel context-switching"; per work size, since
        // with work the work's own user time is part of the episode
        for (int wk : info.work()) {
            StringBuilder kr = new StringBuilder();
            List<Double> shares = new ArrayList<>();
            for (int t : info.threads()) {
                SpinReport.Cell c = cells.get(BarrierDesign.YIELD + ":" + t + ":" + wk);
                if (t <= cores || c == null || c.shown().hung() || c.shown().userNs() + c.shown().sysNs() == 0) {
                    continue;
                }
                SpinResult r = c.shown();
                double share = r.sysNs() / (double) (r.userNs() + r.sysNs());
                shares.add(share);
                kr.append(String.format(Locale.ROOT, " %d threads %.0f %% system (%.1f involuntary switches per episode)", t, 100 * share,
                        r.perEpisode(r.involuntary())));
            }
            if (!shares.isEmpty()) {
                double sysLo = shares.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
                double sysHi = shares.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
                v.add(String.format(Locale.ROOT, "%s: with Thread.yield in the spin loop \"you spend all of your time in the kernel"
                        + " context-switching\" (the article's second reason; YIELD's workers' system time / their CPU time, %s:%s;"
                        + " confirmed where system time is the larger part)", sysLo > 0.5 ? Verdict.CONFIRMED : sysHi < 0.5 ? Verdict.REFUTED
                        : Verdict.WITHIN_NOISE, wk == 0 ? "no work, the spin loop alone" : "work " + wk + ", the work's own user time included", kr));
            }
        }
        if (yield != null && yield.shares().containsKey("YIELD x7") && yield.shares().containsKey("SPIN x7")) {
            double[] y7 = yield.shares().get("YIELD x7");
            double[] s7 = yield.shares().get("SPIN x7");
            // the article's first reason: a yield lands on another spinning thread, not the one with work. Refuted when,
            // in every round, the worker beside yielders did more than beside spinners (the rounds' ranges do not overlap).
            Verdict better = y7.length > 4 && s7.length > 4 ? Verdict.greater(new double[] {y7[3], y7[4]}, new double[] {s7[3], s7[4]})
                    : Verdict.NOT_TESTABLE;
            Verdict reason1 = better == Verdict.CONFIRMED ? Verdict.REFUTED : better == Verdict.REFUTED ? Verdict.CONFIRMED : better;
            v.add(String.format(Locale.ROOT, "%s: a yielding thread hands the CPU to \"Yet Another Spinning Thread\" rather than"
                    + " to the one with work (the article's first reason; %s): beside 7 yielding threads"
                    + " the worker did %.0f %% of its work alone, beside 7 spinning ones %.0f %%, beside 7 parked ones %.0f %%;"
                    + " a yield with nothing else runnable costs %.0f ns (medians of %d rounds; decided by the rounds' ranges)",
                    reason1, yield.where(), 100 * y7[1], 100 * s7[1],
                    100 * yield.shares().getOrDefault("PARK x7", new double[3])[1], yield.nsPerCall(), YieldProbe.ROUNDS));
        }
        if (asm == null) {
            v.add(Verdict.NOT_TESTABLE + ": the JIT's loop (not printed: --no-asm, or PLAIN_LOCAL not run)");
        }
        return v;
    }
}
