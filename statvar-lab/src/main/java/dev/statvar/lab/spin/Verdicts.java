package dev.statvar.lab.spin;

import dev.statvar.lab.kit.JitCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The claims of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs" about its barrier, each classified from a run's data (confirmed, refuted here, not testable here). */
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
            v.add("the JIT hoists LUFact's plain flag load and the barrier hangs: not testable here (PLAIN_LOCAL not run with 2+ threads)");
        } else {
            v.add(String.format(Locale.ROOT, "the JIT hoists a plain flag load out of the spin loop and the barrier hangs: %s"
                    + " (PLAIN_LOCAL hung in %d of %d cells with 2+ threads on %s; its compiled loop is below)",
                    plainHung == plain ? "confirmed on this JVM" : plainHung == 0 ? "refuted on this JVM" : "partly (not every cell)",
                    plainHung, plain, info.machine().vm())
                    + (compilations != null && compilations.stream().anyMatch(l -> l.contains("COMPILE SKIPPED: infinite loop"))
                    ? "; C2 saw the loop was endless: it skipped compiling the method (\"COMPILE SKIPPED: infinite loop\") and"
                    + " made its on-stack-replacement code not entrant, but a thread already in that code spins on" : ""));
        }
        if (volatileCells > 0) {
            v.add(String.format(Locale.ROOT, "LUFact's 'volatile boolean[]' (a volatile array field, plain elements) is re-read"
                    + " every iteration and so does not hang on HotSpot, though the JMM does not promise it: %s (%d of %d cells hung)",
                    volatileHung == 0 ? "confirmed" : "refuted", volatileHung, volatileCells));
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
            v.add("spinning barriers with twice as many threads as CPUs take 2-10x their time at threads = CPUs: not testable"
                    + " here (no spinning design measured at both " + cores + " and " + 2 * cores + " threads with work)");
        } else {
            v.add(String.format(Locale.ROOT, "spinning barriers with twice as many threads as CPUs take 2-10x their time at"
                    + " threads = CPUs (article: 32 threads on 16 Nehalem CPUs): %s (%d vs %d threads, work %d:%s)",
                    lo >= 2 && hi <= 10 ? "confirmed" : hi < 2 ? "refuted here" : lo >= 2 ? "confirmed, and worse than the article's 10x"
                            : "partly (some designs)", 2 * cores, cores, w, ratios));
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
            v.add("Thread.yield in the spin loop is no remedy when threads outnumber CPUs: not testable here (YIELD not run oversubscribed)");
        } else {
            ys.sort(null);
            double median = ys.get((ys.size() - 1) / 2);
            v.add(String.format(Locale.ROOT, "Thread.yield in the spin loop is no remedy when threads outnumber CPUs: %s"
                    + " (YIELD's time / the best design's, work %d:%s; median %.1fx)", median >= 1.5 ? "confirmed"
                    : "refuted here: at most counts within 1.5x of the best", w, yr, median));
        }
        if (yield != null && yield.shares().containsKey("YIELD x7") && yield.shares().containsKey("SPIN x7")) {
            v.add(String.format(Locale.ROOT, "Thread.yield hands the CPU to the thread with work (%s): beside 7 yielding threads"
                    + " the worker did %.0f %% of its work alone, beside 7 spinning ones %.0f %%, beside 7 parked ones %.0f %%;"
                    + " a yield with nothing else runnable costs %.0f ns (medians of %d rounds)",
                    yield.where(), 100 * yield.shares().get("YIELD x7")[1], 100 * yield.shares().get("SPIN x7")[1],
                    100 * yield.shares().getOrDefault("PARK x7", new double[3])[1], yield.nsPerCall(), YieldProbe.ROUNDS));
        }
        if (asm == null) {
            v.add("the JIT's loop: not printed (--no-asm, or PLAIN_LOCAL not run)");
        }
        return v;
    }
}
