package dev.statvar.lab.counters;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One cell (implementation × delay factor × thread count) of a study, summarised from its runs:
 * the times from the measured runs only, the exactness from every run (warm-up and redone runs
 * included, {@link Exactness}). Times are ns per op: wall and CPU time of the implementation and
 * of the base (the same loop with no update, run in the same JVM right before each run).
 *
 * @param wall       the article's rule over the implementation's runs ({@link Summary})
 * @param base       the article's rule over the base runs
 * @param cpu        the article's rule over the implementation's thread CPU time per op
 * @param baseCpu    the article's rule over the base runs' thread CPU time per op
 * @param pairedWall each measured run minus its own base ({@link Paired}): the default figure
 * @param pairedCpu  the same for thread CPU time
 * @param opsPerSec  all threads' ops per second of wall time, averaged over the measured runs
 * @param counted    the sum of what the collector retrieved, over the measured runs (gauges: report counts)
 * @param correct    the number of updates the workers made, over the measured runs
 * @param countedSum gauges: the sum of the retrieved sums (counters: = counted)
 * @param correctSum gauges: the sum of the reported values (counters: = correct)
 * @param redone     how many runs of the cell were made again because a bracket was disturbed ({@link CellRunner})
 * @param exactness  every run judged on its own
 */
record CellStats(String implementation, int delay, int threads, Summary wall, Summary base, Summary cpu,
                 Summary baseCpu, Paired pairedWall, Paired pairedCpu, double opsPerSec, long counted, long correct,
                 long countedSum, long correctSum, int redone, Exactness exactness) {

    /** How a cell's time becomes one figure; the report names the rule beside every table. */
    enum Rule {
        /** The median of the paired differences (each run minus its own base). */
        PAIRED("paired: the median of (each measured run minus the base run made right before it in the same JVM);"
                + " [q1..q3] its quartiles, {min..max} its extremes"),
        /** The article's: discard the two slowest runs of each, average the rest, then subtract. */
        ARTICLE("the article's: of the implementation's runs and of the base runs each, the two slowest discarded and"
                + " the rest averaged, then the one subtracted from the other; [min..max] over all runs");

        final String description;

        Rule(String description) {
            this.description = description;
        }
    }

    /** The cell's wall time per op minus the base, by {@code rule}. */
    double wallFigure(Rule rule) {
        return rule == Rule.PAIRED ? pairedWall.median() : wall.mean() - base.mean();
    }

    double cpuFigure(Rule rule) {
        return rule == Rule.PAIRED ? pairedCpu.median() : cpu.mean() - baseCpu.mean();
    }

    /** The article's figure: time per op minus the base of the same cell. */
    double wallMinusBase() {
        return wallFigure(Rule.ARTICLE);
    }

    double cpuMinusBase() {
        return cpuFigure(Rule.ARTICLE);
    }

    /** Lost (negative) or extra (positive) counts over the measured runs; per run: {@link #exactness}. */
    long difference() {
        return counted - correct;
    }

    long sumDifference() {
        return countedSum - correctSum;
    }

    /** The measured runs' paired wall differences, in run order. */
    double[] pairedWallValues(List<Forker.Repeat> reps) {
        return mine(reps, delay, threads, true).stream().mapToDouble(Forker.Repeat::pairedWall).toArray();
    }

    /**
     * Every run of a cell judged on its own, so that a run that lost counts and one that counted
     * twice cannot cancel, and warm-up and redone runs are not thrown away unchecked.
     *
     * @param runs         runs judged (warm-up, measured and redone)
     * @param inexactRuns  runs whose counted differed from correct (gauges: or sum, or min/max)
     * @param worstLost    the most counts one run lost (a difference &lt;= 0)
     * @param worstExtra   the most counts one run counted twice (&gt;= 0)
     * @param worstSumLost gauges: likewise for the sum of the values
     * @param worstSumExtra gauges
     * @param badIntervals gauges: retrieved intervals with an impossible min or max, over all runs
     * @param minSeen      gauges: the least min retrieved over all runs (exact: 0)
     * @param maxSeen      gauges: the greatest max retrieved (exact: {@link CellRunner#GAUGE_MAX}); both
     *                     {@link Forker.Repeat#UNKNOWN} for counters and for results that did not record them
     */
    record Exactness(int runs, int inexactRuns, long worstLost, long worstExtra, long worstSumLost, long worstSumExtra,
                     long badIntervals, long minSeen, long maxSeen) {
        boolean exact() {
            return inexactRuns == 0;
        }

        /** Whether one run is exact; gauges also on min and max (a run of 1024 reports or more saw 0 and 1023). */
        static boolean exact(Forker.Repeat r, boolean gauges) {
            if (r.difference() != 0 || r.sumDifference() != 0) {
                return false;
            }
            return !gauges || r.badIntervals() == 0 && (r.correct() <= CellRunner.GAUGE_MAX
                    || r.maxSeen() == Forker.Repeat.UNKNOWN || r.minSeen() == 0 && r.maxSeen() == CellRunner.GAUGE_MAX);
        }

        static Exactness of(List<Forker.Repeat> runs, boolean gauges) {
            int inexact = 0;
            long lost = 0;
            long extra = 0;
            long sumLost = 0;
            long sumExtra = 0;
            long bad = 0;
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (Forker.Repeat r : runs) {
                inexact += exact(r, gauges) ? 0 : 1;
                lost = Math.min(lost, r.difference());
                extra = Math.max(extra, r.difference());
                sumLost = Math.min(sumLost, r.sumDifference());
                sumExtra = Math.max(sumExtra, r.sumDifference());
                bad += r.badIntervals();
                if (r.maxSeen() != Forker.Repeat.UNKNOWN) {
                    min = Math.min(min, r.minSeen());
                    max = Math.max(max, r.maxSeen());
                }
            }
            boolean seen = gauges && max != Long.MIN_VALUE;
            return new Exactness(runs.size(), inexact, lost, extra, sumLost, sumExtra, bad,
                    seen ? min : Forker.Repeat.UNKNOWN, seen ? max : Forker.Repeat.UNKNOWN);
        }
    }

    /** The cell {@code delay × threads} of {@code reps} (one implementation's runs). */
    static CellStats of(String implementation, List<Forker.Repeat> reps, int delay, int threads, boolean gauges) {
        List<Forker.Repeat> measured = mine(reps, delay, threads, true);
        if (measured.isEmpty()) {
            throw new IllegalArgumentException("no measured runs of " + implementation + " at delay " + delay + ", " + threads + " threads");
        }
        long counted = 0;
        long correct = 0;
        long countedSum = 0;
        long correctSum = 0;
        double ops = 0;
        int redone = 0;
        for (Forker.Repeat r : measured) {
            redone += r.redone();
            counted += r.counted();
            correct += r.correct();
            countedSum += r.countedSum();
            correctSum += r.correctSum();
            ops += r.opsPerSec();
        }
        return new CellStats(implementation, delay, threads, summary(measured, Forker.Repeat::wallNsPerOp),
                summary(measured, Forker.Repeat::baseWallNsPerOp), summary(measured, Forker.Repeat::cpuNsPerOp),
                summary(measured, Forker.Repeat::baseCpuNsPerOp),
                Paired.of(measured.stream().mapToDouble(Forker.Repeat::pairedWall).toArray()),
                Paired.of(measured.stream().mapToDouble(Forker.Repeat::pairedCpu).toArray()),
                ops / measured.size(), counted, correct, countedSum, correctSum, redone,
                Exactness.of(mine(reps, delay, threads, false), gauges));
    }

    static CellStats of(String implementation, List<Forker.Repeat> reps, int delay, int threads) {
        return of(implementation, reps, delay, threads, false);
    }

    /** The runs of one cell: the measured ones, or with {@code measuredOnly == false} all. */
    private static List<Forker.Repeat> mine(List<Forker.Repeat> reps, int delay, int threads, boolean measuredOnly) {
        List<Forker.Repeat> mine = new ArrayList<>();
        for (Forker.Repeat r : reps) {
            if (r.delay() == delay && r.threads() == threads && (!measuredOnly || r.measured())) {
                mine.add(r);
            }
        }
        return mine;
    }

    private static Summary summary(List<Forker.Repeat> reps, ToDoubleFunction<Forker.Repeat> f) {
        List<Double> v = new ArrayList<>();
        for (Forker.Repeat r : reps) {
            v.add(f.applyAsDouble(r));
        }
        return Summary.of(v);
    }
}
