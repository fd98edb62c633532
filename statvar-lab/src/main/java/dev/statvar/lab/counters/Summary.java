package dev.statvar.lab.counters;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The article's rule for repeats: discard the two slowest ("possibly performed on a VM that had
 * not yet warmed up") and average the rest. The spread, {@code min .. max}, is over all the
 * runs, the discarded ones included (with three runs only one is kept). With fewer than three
 * runs, only as many are discarded as leave one.
 */
record Summary(double mean, double min, double max, int kept, int discarded) {

    static Summary of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no repeats");
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Comparator.naturalOrder());
        int discard = Math.min(2, sorted.size() - 1);
        List<Double> kept = sorted.subList(0, sorted.size() - discard);
        double sum = 0;
        for (double v : kept) {
            sum += v;
        }
        return new Summary(sum / kept.size(), sorted.get(0), sorted.get(sorted.size() - 1), kept.size(), discard);
    }
}
