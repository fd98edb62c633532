package dev.statvar.internal;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

import java.util.Arrays;

/**
 * The collector's side of an interval: reads writers' cumulative cells into this interval's
 * sums, keeps per stat what earlier intervals delivered and what terminated writers left, and
 * turns the difference into the interval's values. Confined to the collector (the engine's
 * collect lock); reads live arrays only while the caller holds the engine lock.
 *
 * <pre>
 * Design
 * ------
 * Never reset. Cells only accumulate; an interval's value is (live cumulative + settled) minus
 * what the previous interval delivered, exact modulo 2^64. An update is in the interval whose
 * collect first sees its store: never in two, never in none.
 *
 * Per collect: begin(n) zeroes this interval's sums; the engine then calls readLive / readHistograms
 * for every live writer's arrays and retire* for each terminated writer's final cells (added to
 * the settled totals, which later intervals keep counting), and readStripe for the stripes' cells
 * that changed (what they gained since their last read joins the settled totals: Stripes' cards);
 * close(stat) returns the value. Min/max
 * come from MinMaxSlots.read, which also says when they may not be exact. A histogram's totals
 * (all buckets delivered so far, all-time min/max) are kept here too.
 * </pre>
 */
final class IntervalCloser {
    // Per stat, by registration index: what the previous collect delivered, what is settled (what
    // terminated writers left, and what the stripes' cells gained up to their last read), and the
    // all-time min/max (a histogram's totals).
    private long[] prevTotal = new long[0];
    private long[] prevSum = new long[0];
    private long[] settledTotal = new long[0];
    private long[] settledSum = new long[0];
    /** What the slot's earlier owners left (removed stats whose cells a later stat reuses): subtracted from its totals. */
    private long[] baseTotal = new long[0];
    private long[] baseSum = new long[0];
    /** Min/max read in an interval whose close was deferred ({@link #defer}), for the next close to merge. */
    private boolean[] carryHas = new boolean[0];
    private long[] carryMin = new long[0];
    private long[] carryMax = new long[0];
    private boolean[] carryInexact = new boolean[0];
    private boolean[] allHas = new boolean[0];
    private long[] allMin = new long[0];
    private long[] allMax = new long[0];
    /** Histograms only (null for other stats): buckets of live writers (this collect), delivered so far, of terminated writers. */
    private BucketCounts[] liveBuckets = new BucketCounts[0];
    private BucketCounts[] prevBuckets = new BucketCounts[0];
    private BucketCounts[] retiredBuckets = new BucketCounts[0];

    // This interval's sums over live writers, by stat index.
    private long[] total = new long[0];
    private long[] sum = new long[0];
    private boolean[] has = new boolean[0];
    private long[] min = new long[0];
    private long[] max = new long[0];
    private boolean[] inexact = new boolean[0];
    private final MinMaxSlots.MinMax minMax = new MinMaxSlots.MinMax();

    /** Starts reading an interval: its sums zeroed, room for the first {@code n} stats of {@code stats}. */
    void begin(StatList stats, int n) {
        ensure(stats, n);
        Arrays.fill(total, 0);
        Arrays.fill(sum, 0);
        Arrays.fill(has, false);
        Arrays.fill(inexact, false);
        for (BucketCounts b : liveBuckets) {
            if (b != null) {
                b.clear();
            }
        }
    }

    /** Room for the first {@code n} stats (those registered since are all zero so far). */
    void ensure(StatList stats, int n) {
        int old = total.length;
        if (n <= old) {
            return;
        }
        prevTotal = Arrays.copyOf(prevTotal, n);
        prevSum = Arrays.copyOf(prevSum, n);
        settledTotal = Arrays.copyOf(settledTotal, n);
        settledSum = Arrays.copyOf(settledSum, n);
        baseTotal = Arrays.copyOf(baseTotal, n);
        baseSum = Arrays.copyOf(baseSum, n);
        carryHas = Arrays.copyOf(carryHas, n);
        carryMin = Arrays.copyOf(carryMin, n);
        carryMax = Arrays.copyOf(carryMax, n);
        carryInexact = Arrays.copyOf(carryInexact, n);
        allHas = Arrays.copyOf(allHas, n);
        allMin = Arrays.copyOf(allMin, n);
        allMax = Arrays.copyOf(allMax, n);
        liveBuckets = Arrays.copyOf(liveBuckets, n);
        prevBuckets = Arrays.copyOf(prevBuckets, n);
        retiredBuckets = Arrays.copyOf(retiredBuckets, n);
        total = Arrays.copyOf(total, n);
        sum = Arrays.copyOf(sum, n);
        has = Arrays.copyOf(has, n);
        min = Arrays.copyOf(min, n);
        max = Arrays.copyOf(max, n);
        inexact = Arrays.copyOf(inexact, n);
        for (int i = old; i < n; i++) {
            if (stats.get(i).kind == StatKind.HISTOGRAM) {
                liveBuckets[i] = new BucketCounts();
                prevBuckets[i] = new BucketCounts();
                retiredBuckets[i] = new BucketCounts();
            }
        }
    }

    // ------------------------------------------------------------------ live writers (engine lock held)

    /**
     * Reads a live thread's counter array: {@code counters[k]} is the registration index of the
     * counter whose cell is {@code DATA_START + k}. One opaque read per cell, in address order.
     */
    void readCounters(long[] c, int[] counters) {
        int n = Math.min(counters.length, c.length - Layout.DATA_START - Layout.PAD); // cells this array covers
        long[] t = total;
        for (int k = 0; k < n; k++) {
            t[counters[k]] += CounterCells.read(c, Layout.DATA_START + k);
        }
    }

    /** Reads a live thread's gauge array; {@code gauges}: the gauges in offset order, null for ones not to read. */
    void readCells(long[] c, Stat[] gauges, long closing) {
        for (Stat s : gauges) {
            if (s == null) {
                continue; // removed, delivered, not reclaimed by this collect: not read (Engine.liveGauges)
            }
            if (s.limit > c.length) {
                break; // gauges are in offset order; this array has not been grown to them: all zero
            }
            readLive(c, s.offset, s, closing);
        }
    }

    /** Adds the cumulative values of counter or gauge {@code s}, stored at {@code o} in a live array. */
    void readLive(long[] c, int o, Stat s, long closing) {
        int i = s.index;
        if (s.kind == StatKind.COUNTER) {
            total[i] += CounterCells.read(c, o);
            return;
        }
        long count = GaugeCells.readCount(c, o); // first: pairing GAUGE
        total[i] += count;
        sum[i] += GaugeCells.readSum(c, o);
        mergeMinMax(c, o, count, i, closing);
    }

    /**
     * Reads the cells of counter or gauge {@code s} at {@code o} in a stripe segment, whose card was
     * dirty: what they gained since the collector last read them (their collector cell,
     * {@link Layout#STRIPE_COLLECTOR_CELLS}; a gauge's count: its G_SEEN) joins the settled totals,
     * and the collector cell takes the new value. A clean card's cells are not read at all (Stripes).
     */
    void readStripe(long[] c, int o, Stat s, long closing) {
        int i = s.index;
        if (s.kind == StatKind.COUNTER) {
            int last = o + Layout.COUNTER_CELLS; // the collector's cell: plain, our own
            long v = CounterCells.read(c, o);
            settledTotal[i] += v - c[last];
            c[last] = v;
            return;
        }
        int last = o + Layout.GAUGE_CELLS;
        long count = GaugeCells.readCount(c, o); // first: pairing GAUGE
        settledTotal[i] += count - c[o + Layout.G_SEEN]; // the count at our last read (MinMaxSlots.read stored it)
        long sum = GaugeCells.readSum(c, o);
        settledSum[i] += sum - c[last];
        c[last] = sum;
        mergeMinMax(c, o, count, i, closing); // stores count as G_SEEN
    }

    /**
     * Reads a live writer's histogram arrays (by histogram index; null entries skipped, and arrays
     * of a removed histogram whose slot is free or another's: {@link HistogramCells#ownedBy}).
     */
    void readHistograms(long[][] hs, Stat[] histograms, long closing) {
        if (hs == null) {
            return;
        }
        for (int h = 0; h < hs.length; h++) {
            long[] c = hs[h]; // under the engine lock: replaced only under it
            if (c != null && HistogramCells.ownedBy(c, histograms[h])) {
                Stat s = histograms[h];
                long count = HistogramCells.readBuckets(c, liveBuckets[s.index]);
                total[s.index] += count;
                sum[s.index] += HistogramCells.readSum(c);
                mergeMinMax(c, Layout.H_STAT, count, s.index, closing);
            }
        }
    }

    // ------------------------------------------------------------------ terminated writers

    /**
     * Adds the final values of a terminated thread's array to the settled totals, and the min/max
     * of its reports not yet delivered to this interval. No lock needed: the owner terminated
     * before the collector found it dead (pairing DEATH), and nothing else writes a detached block.
     */
    void retireCells(long[] c, Stat[] gauges, long closing) {
        for (Stat s : gauges) {
            if (s.limit > c.length) {
                break;
            }
            retire(c, s.offset, s, closing);
        }
    }

    /** As {@link #readCounters} for a terminated thread's counter array: its final totals join the settled ones. */
    void retireCounters(long[] c, int[] counters) {
        int n = Math.min(counters.length, c.length - Layout.DATA_START - Layout.PAD);
        for (int k = 0; k < n; k++) {
            settledTotal[counters[k]] += c[Layout.DATA_START + k]; // the owner is dead: plain reads (pairing DEATH)
        }
    }

    /** As {@link #retireCells} for one gauge at {@code o} (a gauge local view's array). */
    void retire(long[] c, int o, Stat s, long closing) {
        int i = s.index; // a gauge: a dead platform thread's counters are in its counter array (retireCounters)
        long count = c[o + Layout.G_COUNT];
        settledTotal[i] += count;
        settledSum[i] += c[o + Layout.G_SUM];
        mergeMinMax(c, o, count, i, closing);
    }

    /** As {@link #retireCells} for a terminated thread's histogram arrays. */
    void retireHistograms(long[][] hs, Stat[] histograms, long closing) {
        if (hs == null) {
            return;
        }
        for (int h = 0; h < hs.length; h++) {
            long[] c = hs[h];
            if (c != null && HistogramCells.ownedBy(c, histograms[h])) {
                Stat s = histograms[h];
                long count = HistogramCells.readBuckets(c, retiredBuckets[s.index]);
                settledTotal[s.index] += count;
                settledSum[s.index] += HistogramCells.readSum(c);
                mergeMinMax(c, Layout.H_STAT, count, s.index, closing);
            }
        }
    }

    private void mergeMinMax(long[] c, int o, long count, int i, long closing) {
        MinMaxSlots.MinMax m = minMax;
        m.clear();
        MinMaxSlots.read(c, o, count, closing, m);
        if (m.has) {
            if (!has[i]) {
                has[i] = true;
                min[i] = m.min;
                max[i] = m.max;
            } else {
                min[i] = Math.min(min[i], m.min);
                max[i] = Math.max(max[i], m.max);
            }
        }
        inexact[i] |= m.inexact;
    }

    // ------------------------------------------------------------------ closing

    /**
     * Makes counter or gauge slot {@code i} start from zero for its next owner: what was read
     * this collect (every update its removed owner made: its handle is unreachable) becomes the
     * baseline that later intervals and totals are measured from. Called after the reads.
     */
    void rebase(int i) {
        long all = settledTotal[i] + total[i];
        long allSum = settledSum[i] + sum[i];
        prevTotal[i] = all;
        prevSum[i] = allSum;
        baseTotal[i] = all;
        baseSum[i] = allSum;
        allHas[i] = false;
        carryHas[i] = false;
        carryInexact[i] = false;
    }

    /**
     * Forgets histogram {@code i}, whose last interval was delivered: the next histogram in its
     * slot starts from nothing (its arrays are its own, {@link Layout#H_GEN}).
     */
    void forget(int i) {
        prevTotal[i] = prevSum[i] = settledTotal[i] = settledSum[i] = baseTotal[i] = baseSum[i] = 0;
        allHas[i] = false;
        carryHas[i] = false;
        carryInexact[i] = false;
        liveBuckets[i] = new BucketCounts(); // not clear(): a wide histogram's counts are not kept for a narrow one
        prevBuckets[i] = new BucketCounts();
        retiredBuckets[i] = new BucketCounts();
    }

    /**
     * Leaves stat {@code i} out of this interval: its counts and sums stay undelivered (the next
     * close includes them, cells being cumulative) and its min/max are carried to the next close.
     * For a new series whose removed predecessor of the same name and labels this interval delivers.
     */
    void defer(int i) {
        if (has[i]) {
            carryMin[i] = carryHas[i] ? Math.min(carryMin[i], min[i]) : min[i];
            carryMax[i] = carryHas[i] ? Math.max(carryMax[i], max[i]) : max[i];
            carryHas[i] = true;
        }
        carryInexact[i] |= inexact[i];
    }

    /** The interval value of stat {@code s}: what was read since {@link #begin}, minus what was delivered before. */
    StatValue close(Stat s) {
        int i = s.index;
        if (carryHas[i] || carryInexact[i]) {
            min[i] = has[i] ? Math.min(min[i], carryMin[i]) : carryMin[i];
            max[i] = has[i] ? Math.max(max[i], carryMax[i]) : carryMax[i];
            has[i] |= carryHas[i];
            inexact[i] |= carryInexact[i];
            carryHas[i] = false;
            carryInexact[i] = false;
        }
        long all = settledTotal[i] + total[i];
        long delta = all - prevTotal[i]; // exact modulo 2^64
        prevTotal[i] = all;
        if (s.kind == StatKind.COUNTER) {
            return new CounterValue(s.name, s.help, s.labels, delta, all - baseTotal[i]);
        }
        long allSum = settledSum[i] + sum[i];
        long dsum = allSum - prevSum[i];
        prevSum[i] = allSum;
        long mn = has[i] ? min[i] : 0;
        long mx = has[i] ? max[i] : 0;
        // An interval with a count always finds a min/max (MinMaxSlots); were it not so, say so.
        boolean exact = !inexact[i] && (has[i] || delta == 0);
        if (has[i]) {
            allMin[i] = allHas[i] ? Math.min(allMin[i], mn) : mn;
            allMax[i] = allHas[i] ? Math.max(allMax[i], mx) : mx;
            allHas[i] = true;
        }
        if (s.kind == StatKind.GAUGE) {
            return new GaugeValue(s.name, s.help, s.labels, delta, dsum, mn, mx, all - baseTotal[i], allSum - baseSum[i],
                    exact);
        }
        return closeHistogram(s, dsum, mn, mx, exact, allSum);
    }

    /** The interval's bucket deltas, and the totals since registration. */
    private HistogramValue closeHistogram(Stat s, long dsum, long mn, long mx, boolean exact, long totalSum) {
        int i = s.index;
        BucketCounts live = liveBuckets[i];
        BucketCounts retired = retiredBuckets[i];
        BucketCounts prev = prevBuckets[i];
        int from = Integer.MAX_VALUE;
        int to = Integer.MIN_VALUE;
        for (BucketCounts b : new BucketCounts[]{live, retired, prev}) {
            if (!b.isEmpty()) {
                from = Math.min(from, b.lo());
                to = Math.max(to, b.hi());
            }
        }
        if (from > to) {
            return (HistogramValue) s.emptyValue();
        }
        long[] delta = new long[to - from];
        for (int k = from; k < to; k++) {
            long t = live.get(k) + retired.get(k);
            long d = t - prev.get(k);
            if (d != 0) {
                prev.set(k, t);
                delta[k - from] = d;
            }
        }
        HistogramPrecision precision = new HistogramPrecision(s.bits);
        HistogramValue totals = new HistogramValue(s.name, s.help, s.labels, precision, totalSum,
                allHas[i] ? allMin[i] : 0, allHas[i] ? allMax[i] : 0, prev.lo(), prev.copy());
        return new HistogramValue(s.name, s.help, s.labels, precision, dsum, mn, mx, from, delta, exact)
                .withTotals(totals);
    }
}
