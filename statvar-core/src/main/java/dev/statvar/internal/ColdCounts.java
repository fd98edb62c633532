package dev.statvar.internal;

import java.util.Arrays;

/**
 * The hot/cold rule for one platform thread's gauges or histograms: how many updates of each it
 * made in the current interval through the shared stripes, until it is hot for that stat and gets
 * storage of its own. Owner-only (a field of the thread's {@link Block}, used on its slow paths).
 *
 * <pre>
 * Design
 * ------
 * A thread's own copy of a gauge costs Layout.GAUGE_CELLS cells (and its array covers every gauge
 * registered before it), of a histogram a bucket array over the octaves it recorded (kilobytes).
 * A server with hundreds of threads that each update a stat now and then would pay that per
 * thread; so a thread's first hotAfter - 1 updates of a stat in an interval go to the stripes
 * that virtual threads use (a stripe lock: a CAS), and its hotAfter-th makes it hot: from then on
 * it updates its own copy with no locked instruction, for good. Counters are not tiered: a
 * counter's own cell is one 8-byte long; a tier would replace it by a 2-byte count (a char) and
 * make every cold add take a stripe's lock, to save 6 bytes per (counter, thread).
 *
 * The interval is read from Epoch.recent() without the lock: a count carried a little past a
 * collect only promotes a thread a little early. A count stops below hotAfter (at most 65,535), so a char holds it.
 * </pre>
 */
final class ColdCounts {
    private long epoch;
    private char[] counts = new char[0];

    /**
     * Counts one update of stat {@code k} (an index within its kind) in interval {@code epoch}.
     *
     * @param hotAfter the engine's threshold, 1..65,535 (StatRegistry.Builder.hotAfter)
     * @return true if the caller is now hot for it: it should update its own copy, not the stripes
     */
    boolean hot(int k, long epoch, int hotAfter) {
        if (epoch != this.epoch) {
            this.epoch = epoch;
            Arrays.fill(counts, (char) 0);
        }
        if (k >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(k + 1, 2 * counts.length));
        }
        if (counts[k] + 1 >= hotAfter) {
            return true;
        }
        counts[k]++;
        return false;
    }
}
