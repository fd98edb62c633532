package dev.statvar.lab;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One cell (implementation × delay factor × thread count) of a study, summarised from its
 * measured repeats by the article's rule ({@link Summary}): wall and CPU time per op of the
 * implementation and of the base (the same loop with no update, run in the same JVM right before
 * each repeat), and the totals of counted and correct over all repeats.
 *
 * @param wall       wall time per op of the implementation's runs (each thread's loop time over its op count, averaged over threads)
 * @param base       wall time per op of the base runs
 * @param cpu        thread CPU time per op of the implementation's runs
 * @param baseCpu    thread CPU time per op of the base runs
 * @param opsPerSec  all threads' ops per second of wall time, averaged over all repeats
 * @param counted    the sum of what the collector retrieved, over all repeats (gauges: report counts)
 * @param correct    the number of updates the workers made, over all repeats
 * @param countedSum gauges: the sum of the retrieved sums (counters: = counted)
 * @param correctSum gauges: the sum of the reported values (counters: = correct)
 * @param redone     how many runs of the cell were made again because their base was disturbed ({@link CellRunner})
 */
record CellStats(String implementation, int delay, int threads, Summary wall, Summary base, Summary cpu,
                 Summary baseCpu, double opsPerSec, long counted, long correct, long countedSum, long correctSum, int redone) {

    /** The article's figure: time per op minus the base of the same cell. */
    double wallMinusBase() {
        return wall.mean() - base.mean();
    }

    double cpuMinusBase() {
        return cpu.mean() - baseCpu.mean();
    }

    /** Lost (negative) or extra (positive) counts. */
    long difference() {
        return counted - correct;
    }

    long sumDifference() {
        return countedSum - correctSum;
    }

    /** The cell {@code delay × threads} of {@code reps} (one implementation's repeats). */
    static CellStats of(String implementation, List<Forker.Repeat> reps, int delay, int threads) {
        List<Forker.Repeat> mine = new ArrayList<>();
        for (Forker.Repeat r : reps) {
            if (r.delay() == delay && r.threads() == threads) {
                mine.add(r);
            }
        }
        if (mine.isEmpty()) {
            throw new IllegalArgumentException("no repeats of " + implementation + " at delay " + delay + ", " + threads + " threads");
        }
        long counted = 0;
        long correct = 0;
        long countedSum = 0;
        long correctSum = 0;
        double ops = 0;
        int redone = 0;
        for (Forker.Repeat r : mine) {
            redone += r.redone();
            counted += r.counted();
            correct += r.correct();
            countedSum += r.countedSum();
            correctSum += r.correctSum();
            ops += r.opsPerSec();
        }
        return new CellStats(implementation, delay, threads, summary(mine, Forker.Repeat::wallNsPerOp),
                summary(mine, Forker.Repeat::baseWallNsPerOp), summary(mine, Forker.Repeat::cpuNsPerOp),
                summary(mine, Forker.Repeat::baseCpuNsPerOp), ops / mine.size(), counted, correct, countedSum, correctSum, redone);
    }

    private static Summary summary(List<Forker.Repeat> reps, ToDoubleFunction<Forker.Repeat> f) {
        List<Double> v = new ArrayList<>();
        for (Forker.Repeat r : reps) {
            v.add(f.applyAsDouble(r));
        }
        return Summary.of(v);
    }
}
