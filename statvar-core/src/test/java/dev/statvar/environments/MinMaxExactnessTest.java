package dev.statvar.environments;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Min/max of a gauge and a histogram against a collector running back to back.
 *
 * <p>One writer reports 1, 2, 3, ... to a gauge and records the same values into a histogram;
 * another thread calls {@code collect()} back to back for {@link #DURATION}; a last collect
 * follows after the writer stopped. Since the writer is one thread writing consecutive values,
 * the values counted in interval k are the run {@code a_k .. b_k}, where
 * {@code a_k = 1 + (counts of the earlier intervals)} and {@code b_k = a_k + count_k - 1}
 * (for the histogram, count = the sum of its buckets). Checked:
 * <ol type="a">
 *   <li>counts and sums over all intervals are exact: N reports, sum N(N+1)/2 (and the totals of
 *       the last value say the same);</li>
 *   <li>every interval with a count has {@code min <= a_k} and {@code max >= b_k};</li>
 *   <li>min and max are values somebody reported, 1..N: never 0 (a gauge interval with a count and
 *       min = max = 0 is a failure), never a histogram bucket's middle standing in for a value (a
 *       middle is recognised, in an exact interval, when it lies outside the runs of the interval and its neighbours,
 *       where the writer did not report around that interval);</li>
 *   <li>an interval flagged {@code isMinMaxExact()} has min and max within its neighbours' runs:
 *       {@code min >= a_(k-1)}, {@code max <= b_(k+1)}, where the neighbours are the nearest
 *       intervals with a count (an interval in which the preempted writer counted nothing is
 *       skipped: a value racing the switch lands in the next interval that counts), and max may
 *       exceed that by one: the single report a writer preempted mid-report has in flight, whose
 *       max this interval read and whose count lands only after the next interval with a count;</li>
 *   <li>intervals flagged inexact are at most 1 % of the intervals with a count;</li>
 * </ol>
 * and, for the histogram, that its buckets in interval k are exactly those of the run
 * {@code a_k .. b_k} (the premise of (b) and (d): a monotone writer's counted values form runs
 * only if a collect does not miss a record in one bucket while it counts a later record in a
 * higher one, which the collector's downward read of the buckets guarantees: HistogramCells; an
 * upward read failed this check twice in 100,000 intervals).
 *
 * <p>The snapshots are not kept as objects: each histogram value carries its {@code totals()}, a
 * copy of the cumulative buckets (about 15 KiB at 1..10^9), and a run has hundreds of thousands
 * of intervals, far beyond the 512 MiB test heap. Every field the checks read (count, sum, min,
 * max, the exact flag, the interval's non-empty buckets) is kept for every interval.
 */
@Tag("stress")
@Tag("thorough")
@Tag(Env.TAG)
class MinMaxExactnessTest {
    /** How long the collector runs back to back beside the writer (required: 10 s). */
    static final Duration DURATION = Duration.ofSeconds(10);
    /** At most this share of the intervals with a count may be flagged inexact. */
    static final double MAX_INEXACT_SHARE = 0.01;
    /** Examples printed per kind of violation. */
    static final int EXAMPLES = 5;

    /**
     * With {@code counters} = 0 the collect's grace between the switch and the reads is a park
     * (at least {@code Engine.GRACE_NANOS}; Linux's timer slack makes it about 60 us); with
     * 10,000 counters, which the writer adds to once before it starts, the collector spends the
     * grace reading the writer's 10,000 counter cells instead (about 9 us on the Xeon 6/207, no
     * park; 5,000 took about the grace's 5 us and often still parked). The inexact shares of both
     * are in docs/PERFORMANCE.md.
     */
    @ParameterizedTest(name = "{0} counters")
    @ValueSource(ints = {0, 10_000})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void everyIntervalsMinMaxCoverExactlyTheValuesItCounts(int counters) throws Exception {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Histogram h = r.histogram("h");
        Counter[] cs = new Counter[counters];
        for (int i = 0; i < counters; i++) {
            cs[i] = r.counter("c" + i);
        }
        HistogramPrecision precision = h.precision();
        Series gs = new Series(false);
        Series hs = new Series(true);
        AtomicBoolean stop = new AtomicBoolean();
        long[] written = new long[1];
        Thread writer = new Thread(() -> {
            for (Counter c : cs) {
                c.add(1); // the collector reads these cells in its grace
            }
            long v = 0;
            while (!stop.get()) {
                v++;
                g.report(v);
                h.record(v);
            }
            written[0] = v; // read after join()
        }, "minmax-writer");
        Thread collector = new Thread(() -> {
            while (!stop.get()) {
                keep(r.collect(), gs, hs);
            }
        }, "minmax-collector");
        long t0 = System.nanoTime();
        writer.start();
        collector.start();
        Thread.sleep(DURATION.toMillis());
        stop.set(true);
        Env.join(writer, 10_000);
        Env.join(collector, 10_000);
        Snapshot last = r.collect(); // the final collect, after the writer stopped
        keep(last, gs, hs);
        long elapsed = System.nanoTime() - t0;
        long n = written[0];
        System.out.printf("MinMaxExactnessTest (%,d counters): %,d values written and %,d intervals collected in %.1f s (JDK %s)%n",
                counters, n, gs.size(), elapsed / 1e9, Runtime.version());

        List<String> failures = new ArrayList<>();
        GaugeValue lg = last.gauge("g");
        if (lg.totalCount() != n || lg.totalSum() != Env.triangle(n)) {
            failures.add("gauge totals of the last value: count " + lg.totalCount() + " sum " + lg.totalSum()
                    + ", expected " + n + " and " + Env.triangle(n));
        }
        HistogramValue lt = last.histogram("h").totals();
        if (lt.count() != n || lt.sum() != Env.triangle(n)) {
            failures.add("histogram totals() of the last value: count " + lt.count() + " sum " + lt.sum()
                    + ", expected " + n + " and " + Env.triangle(n));
        }
        for (int i = 0; i < counters; i++) {
            long total = last.counterValue("c" + i, Labels.EMPTY).total();
            if (total != 1) {
                failures.add("counter c" + i + ": total " + total + ", expected 1");
                break;
            }
        }
        failures.addAll(check("gauge", gs, n, null));
        failures.addAll(check("histogram", hs, n, precision));
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    private static void keep(Snapshot s, Series gs, Series hs) {
        GaugeValue gv = s.gauge("g");
        gs.add(gv.count(), gv.sum(), gv.min(), gv.max(), gv.isMinMaxExact());
        HistogramValue hv = s.histogram("h");
        hs.add(hv.count(), hv.sum(), hv.min(), hv.max(), hv.isMinMaxExact());
        for (HistogramValue.Bucket b : hv.buckets()) {
            hs.bucket(b.lowerBound(), b.upperBound(), b.count());
        }
        hs.endBuckets();
    }

    /** Checks (a)..(e) and the histogram's runs for one stat; prints the figures; returns the failures. */
    static List<String> check(String what, Series s, long n, HistogramPrecision precision) {
        int k = s.size();
        long[] a = new long[k + 1];
        a[0] = 1;
        long totalCount = 0;
        long totalSum = 0;
        for (int i = 0; i < k; i++) {
            a[i + 1] = a[i] + s.count.get(i);
            totalCount += s.count.get(i);
            totalSum += s.sum.get(i);
        }
        Kind notCovering = new Kind("(b) min > a_k or max < b_k: min/max do not cover the values counted");
        Kind zero = new Kind("(c) count > 0 and min = max = 0");
        Kind outside = new Kind("(c) min or max not a reported value: outside 1..N, or min > max");
        Kind middle = new Kind("(c) min or max a bucket middle outside the runs of the interval and its neighbours");
        Kind exactOutside = new Kind("(d) flagged exact but min < a_(k-1) or max > b_(k+1) (nearest intervals with a count)");
        Kind notRun = new Kind("(r) the interval's buckets are not those of the run a_k..b_k");
        long withCount = 0;
        long inexact = 0;
        for (int i = 0; i < k; i++) {
            long count = s.count.get(i);
            long min = s.min.get(i);
            long max = s.max.get(i);
            boolean exact = s.exact.get(i) != 0;
            long ak = a[i];
            long bk = a[i + 1] - 1;
            // The neighbours: the nearest intervals that counted something (a writer preempted
            // across a whole interval leaves it empty, and its racing value lands further on).
            int p = i - 1;
            while (p >= 0 && s.count.get(p) == 0) {
                p--;
            }
            int q = i + 1;
            while (q < k && s.count.get(q) == 0) {
                q++;
            }
            long lowWin = p < 0 ? 1 : a[p];
            long highWin = q >= k ? n : a[q + 1] - 1;
            boolean hasMinMax = count > 0 || min != 0 || max != 0;
            if (count > 0) {
                withCount++;
            }
            if (!exact) {
                inexact++;
            }
            String where = "interval " + i + ": count " + count + " run " + ak + ".." + bk + ", min " + min
                    + " max " + max + ", exact " + exact + "; previous run " + lowWin + ".." + (ak - 1)
                    + ", next run " + (bk + 1) + ".." + highWin;
            if (count > 0 && (min > ak || max < bk)) {
                notCovering.add(where);
            }
            if (count > 0 && min == 0 && max == 0) {
                zero.add(where);
            } else if (hasMinMax && (min < 1 || max > n || min > max)) {
                outside.add(where);
            }
            // A middle is told from a value reported only where no earlier value may appear: in an
            // exact interval. An inexact one may hold any value the writer reported earlier (its
            // folded minimum, say 1): (c) checks that those are reported values, 1..N, above.
            if (precision != null && exact && hasMinMax
                    && (isFarMiddle(precision, min, lowWin, highWin) || isFarMiddle(precision, max, lowWin, highWin))) {
                middle.add(where);
            }
            // + 1: the one report a preempted writer can have in flight (its min/max stored during
            // this interval's read, its count only after the next interval with a count was closed).
            if (exact && hasMinMax && (min < lowWin || max > highWin + 1)) {
                exactOutside.add(where);
            }
            if (precision != null) {
                String diff = runDiff(s, i, ak, bk);
                if (diff != null) {
                    notRun.add(where + ": " + diff);
                }
            }
        }
        List<Kind> kinds = new ArrayList<>(List.of(notCovering, zero, outside, middle, exactOutside));
        if (precision != null) {
            kinds.add(notRun);
        }
        System.out.printf("  %s: %,d intervals, %,d with a count, %,d flagged inexact (%.3f %% of those with a count)%n",
                what, k, withCount, inexact, withCount == 0 ? 0.0 : 100.0 * inexact / withCount);
        System.out.printf("    (a) count %,d of %,d, sum %d (expected %d)%n", totalCount, n, totalSum, Env.triangle(n));
        for (Kind kind : kinds) {
            System.out.printf("    %,d: %s%n", kind.count, kind.name);
            for (String e : kind.examples) {
                System.out.println("        e.g. " + e);
            }
        }
        List<String> failures = new ArrayList<>();
        if (totalCount != n || totalSum != Env.triangle(n)) {
            failures.add(what + " (a): intervals add up to count " + totalCount + " sum " + totalSum + ", expected "
                    + n + " and " + Env.triangle(n));
        }
        for (Kind kind : kinds) {
            if (kind.count > 0) {
                failures.add(what + ": " + kind.count + " intervals with " + kind.name
                        + (kind.examples.isEmpty() ? "" : ", e.g. " + kind.examples.get(0)));
            }
        }
        if (inexact > MAX_INEXACT_SHARE * withCount) {
            failures.add(String.format("%s (e): %d intervals flagged inexact, more than %.0f %% of the %d with a count",
                    what, inexact, 100 * MAX_INEXACT_SHARE, withCount));
        }
        return failures;
    }

    /** Whether {@code v} is the middle of its bucket and outside {@code lo .. hi}, the values reported around the interval. */
    private static boolean isFarMiddle(HistogramPrecision p, long v, long lo, long hi) {
        return v >= 0 && (v < lo || v > hi) && v == p.middle(p.bucketIndex(v));
    }

    /** Null if interval {@code i}'s buckets hold exactly the values {@code a .. b}, else what differs. */
    private static String runDiff(Series s, int i, long a, long b) {
        long covered = 0;
        for (int t = s.bucketStart(i); t < s.bucketEnd(i); t += 3) {
            long lo = s.buckets.get(t);
            long hi = s.buckets.get(t + 1);
            long c = s.buckets.get(t + 2);
            long expected = Math.max(0, Math.min(hi, b) - Math.max(lo, a) + 1);
            if (c != expected) {
                return "bucket " + lo + ".." + hi + " counts " + c + ", the run has " + expected + " values in it";
            }
            covered += c;
        }
        long runLength = b - a + 1;
        return covered == runLength ? null : "buckets hold " + covered + " values, the run " + runLength;
    }

    /** One kind of violation: how many, and the first few. */
    private static final class Kind {
        final String name;
        long count;
        final List<String> examples = new ArrayList<>();

        Kind(String name) {
            this.name = name;
        }

        void add(String example) {
            count++;
            if (examples.size() < EXAMPLES) {
                examples.add(example);
            }
        }
    }

    /** A growable long array. */
    static final class Longs {
        private long[] a = new long[1 << 16];
        private int n;

        void add(long v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, 2 * n);
            }
            a[n++] = v;
        }

        long get(int i) {
            return a[i];
        }

        int size() {
            return n;
        }
    }

    /** The values of one stat in every interval, kept compactly. */
    static final class Series {
        final Longs count = new Longs();
        final Longs sum = new Longs();
        final Longs min = new Longs();
        final Longs max = new Longs();
        final Longs exact = new Longs();
        /** Histogram only: (lower bound, upper bound, count) of each non-empty bucket, interval after interval. */
        final Longs buckets;
        /** Histogram only: the end of interval i's triples in {@link #buckets}. */
        final Longs bucketEnds;

        Series(boolean histogram) {
            buckets = histogram ? new Longs() : null;
            bucketEnds = histogram ? new Longs() : null;
        }

        void add(long c, long s, long mn, long mx, boolean ex) {
            count.add(c);
            sum.add(s);
            min.add(mn);
            max.add(mx);
            exact.add(ex ? 1 : 0);
        }

        void bucket(long lo, long hi, long c) {
            buckets.add(lo);
            buckets.add(hi);
            buckets.add(c);
        }

        void endBuckets() {
            bucketEnds.add(buckets.size());
        }

        int bucketStart(int i) {
            return i == 0 ? 0 : (int) bucketEnds.get(i - 1);
        }

        int bucketEnd(int i) {
            return (int) bucketEnds.get(i);
        }

        int size() {
            return count.size();
        }
    }
}
