package dev.statvar.jcstress;

import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJJJJJ_Result;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 3: {@code Histogram.record(v)} racing {@code StatRegistry.collect()}.
 *
 * <p>The contract tested (HistogramValue and StatRegistry javadoc): over the two intervals the
 * count and every bucket count add up to exactly the records made, and the sums to exactly
 * the values; within one interval count and buckets always agree (count is the sum of the
 * bucket counts, and a record is in the bucket of its value); a record racing the switch may
 * have its value in the sum of the interval <em>before</em> the one counting its bucket (never
 * after), and its min/max in the neighbouring interval; min and max over all intervals are exact.
 *
 * <p>The recording thread has its own array per histogram, created on its first record of
 * that histogram (slow path, under the engine lock) and covering whole octaves of buckets; a
 * record outside them copies the array into a larger one (slow path, under the lock).
 * A record into an existing array is lock-free: min/max slot, opaque sum, release bucket; the
 * collector reads the buckets with acquire, then the sum.
 */
public class HistogramVsCollect {
    /** Any long field of a result. */
    static final String F = "-?[0-9]+";
    /** Two records: fewer than 2 counted in total (fields c1, bW1, bV1, s1, c2, ...). */
    static final String TWO_LOST = "(0, " + F + ", " + F + ", " + F + ", [01]|1, " + F + ", " + F + ", " + F + ", 0), "
            + F + ", " + F + ", " + F;
    /** Two records: more than 2 counted in total. */
    static final String TWO_DOUBLED = "(0, " + F + ", " + F + ", " + F + ", [3-9]|1, " + F + ", " + F + ", " + F
            + ", [2-9]|2, " + F + ", " + F + ", " + F + ", [1-9]|[3-9]|[0-9]{2,}).*";

    static HistogramValue collect(StatRegistry registry) {
        return registry.collect().histogram("h");
    }

    /** Shared shape of the two-record tests: a warm-up record W = 1, then the record under test. */
    static class TwoRecords {
        final StatRegistry registry = StatRegistry.create();
        final Histogram histogram = registry.histogram("h");
        final int bucketW = histogram.precision().bucketIndex(1);
        final int bucketV;

        TwoRecords(long v) {
            bucketV = histogram.precision().bucketIndex(v);
        }

        /** Interval 1 into r1..r4, interval 2 into r5..r8: count, bucket of W, bucket of V, sum. */
        void collect(JJJJJJJJ_Result r, int interval) {
            HistogramValue h = HistogramVsCollect.collect(registry);
            if (interval == 1) {
                r.r1 = h.count();
                r.r2 = h.bucketCount(bucketW);
                r.r3 = h.bucketCount(bucketV);
                r.r4 = h.sum();
            } else {
                r.r5 = h.count();
                r.r6 = h.bucketCount(bucketW);
                r.r7 = h.bucketCount(bucketV);
                r.r8 = h.sum();
            }
        }
    }

    /**
     * Fast path: the recorder first records W = 1 (its first record of this histogram: slow path,
     * creates its array covering the first octave), then V = 42 (same octave: the lock-free
     * record) racing collect(). Result: {@code c1, bW1, bV1, s1, c2, bW2, bV2, s2}: count, the
     * count of W's bucket, of V's bucket, and the sum, per interval.
     */
    @JCStressTest
    @Description("Histogram.record(1), record(42) (fast path) racing collect(): counts, buckets and sums exact over the two intervals")
    @Outcome(id = "2, 1, 1, 43, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "both records wholly in interval 1")
    @Outcome(id = "1, 1, 0, 1, 1, 0, 1, 42", expect = ACCEPTABLE, desc = "W wholly in interval 1, V wholly in interval 2")
    @Outcome(id = "0, 0, 0, 0, 2, 1, 1, 43", expect = ACCEPTABLE, desc = "both records wholly in interval 2")
    @Outcome(id = "1, 1, 0, 43, 1, 0, 1, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: V's value already in the sum of interval 1, its bucket counted in interval 2")
    @Outcome(id = "(0, 0, 0, 1, 2, 1, 1, 42|0, 0, 0, 43, 2, 1, 1, 0)", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: both counted in interval 2, the sum of interval 1 already holding W's (or both) values")
    @Outcome(id = "1, 0, 1, 43, 1, 1, 0, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "the later record V counted in interval 1, W in interval 2 (buckets are read in index order, not record order); "
                    + "each once, W's value in the sum ahead of its count")
    @Outcome(id = TWO_LOST, expect = FORBIDDEN, desc = "LOST: fewer than 2 records counted over both intervals")
    @Outcome(id = TWO_DOUBLED, expect = FORBIDDEN, desc = "DOUBLED: more than 2 records counted over both intervals")
    @Outcome(expect = FORBIDDEN,
            desc = "anything else: count and buckets disagreeing, a record in a wrong bucket or in two, a sum wrong or lagging its count")
    @State
    public static class Exact extends TwoRecords {
        public Exact() {
            super(42);
        }

        @Actor
        public void recorder() {
            histogram.record(1);
            histogram.record(42);
        }

        @Actor
        public void collector(JJJJJJJJ_Result r) {
            collect(r, 1);
        }

        @Arbiter
        public void arbiter(JJJJJJJJ_Result r) {
            collect(r, 2);
        }
    }

    /**
     * Growth slow path: W = 1 creates the recorder's array for the first octave; V = 1000 lies
     * four octaves up, so its record copies the array (under the lock, which excludes collect())
     * into one covering both, marks the old one empty (H_LEN = 0), publishes the new one, then
     * records lock-free. Same result fields as {@link Exact}.
     */
    @JCStressTest
    @Description("Histogram.record(1), record(1000) (array growth to a new octave) racing collect(): counts, buckets and sums exact")
    @Outcome(id = "2, 1, 1, 1001, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "both records wholly in interval 1")
    @Outcome(id = "1, 1, 0, 1, 1, 0, 1, 1000", expect = ACCEPTABLE, desc = "W wholly in interval 1, V wholly in interval 2")
    @Outcome(id = "0, 0, 0, 0, 2, 1, 1, 1001", expect = ACCEPTABLE, desc = "both records wholly in interval 2")
    @Outcome(id = "1, 1, 0, 1001, 1, 0, 1, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: V's value already in the sum of interval 1, its bucket counted in interval 2")
    @Outcome(id = "(0, 0, 0, 1, 2, 1, 1, 1000|0, 0, 0, 1001, 2, 1, 1, 0)", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: both counted in interval 2, the sum of interval 1 already holding W's (or both) values")
    @Outcome(id = "1, 0, 1, 1001, 1, 1, 0, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "the later record V counted in interval 1, W in interval 2: allowed by the contract, not expected after a copy under the lock")
    @Outcome(id = TWO_LOST, expect = FORBIDDEN, desc = "LOST: fewer than 2 records counted over both intervals (e.g. by the copy)")
    @Outcome(id = TWO_DOUBLED, expect = FORBIDDEN, desc = "DOUBLED: more than 2 records counted (e.g. old and new array both read)")
    @Outcome(expect = FORBIDDEN,
            desc = "anything else: count and buckets disagreeing, a record in a wrong bucket or in two, a sum wrong or lagging its count")
    @State
    public static class Growth extends TwoRecords {
        public Growth() {
            super(1000);
        }

        @Actor
        public void recorder() {
            histogram.record(1);
            histogram.record(1000);
        }

        @Actor
        public void collector(JJJJJJJJ_Result r) {
            collect(r, 1);
        }

        @Arbiter
        public void arbiter(JJJJJJJJ_Result r) {
            collect(r, 2);
        }
    }

    /**
     * One record, V = 42, the thread's first of this histogram (slow path: its array is created
     * under the lock, then the record is made lock-free). Result {@code c1, s1, c2, s2, min1,
     * max1, min2, max2}. An interval whose buckets count the record but whose min/max slots did
     * not get it reports the bucket's middle as an estimate ({@code isMinMaxExact()} false; 42
     * here, since the low buckets hold one value each).
     */
    @JCStressTest
    @Description("Histogram.record(42) racing collect(): count and sum exact, min/max over the two intervals exactly 42")
    @Outcome(id = "1, 42, 0, 0, 42, 42, 0, 0", expect = ACCEPTABLE, desc = "the record landed wholly in interval 1")
    @Outcome(id = "0, 0, 1, 42, 0, 0, 42, 42", expect = ACCEPTABLE, desc = "the record landed wholly in interval 2")
    @Outcome(id = "(1, 42, 0, 0|0, 0, 1, 42), 42, 42, 42, 42", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: the min/max slot in the interval that does not count the record (count 0 with min/max 42); "
                    + "the counting interval reports the bucket middle 42 as an estimate")
    @Outcome(id = "0, 42, 1, 0, (0, 0, 42, 42|42, 42, 42, 42)", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: the value already in the sum (and maybe min/max) of interval 1, its bucket counted in interval 2")
    @Outcome(id = "(1, 42, 0, 0|0, 0, 1, 42|0, 42, 1, 0), (42, 42, 0, 0|0, 0, 42, 42)", expect = ACCEPTABLE_INTERESTING,
            desc = "min/max only in the interval that does not count the record: within the contract, not expected of statvar (bucket middle)")
    @Outcome(id = "0, 0, 0, 0, .*", expect = FORBIDDEN, desc = "LOST: the record is counted in neither interval")
    @Outcome(id = "1, 42, 1, 42, .*", expect = FORBIDDEN, desc = "DOUBLED: the record is counted in both intervals")
    @Outcome(id = "1, 0, 0, 42, .*", expect = FORBIDDEN, desc = "the sum lags its count: counted in interval 1, its value only in interval 2")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a wrong count or sum, min/max 42 missing from both intervals, or a value never recorded")
    @State
    public static class MinMax {
        final StatRegistry registry = StatRegistry.create();
        final Histogram histogram = registry.histogram("h");

        @Actor
        public void recorder() {
            histogram.record(42);
        }

        @Actor
        public void collector(JJJJJJJJ_Result r) {
            HistogramValue h = collect(registry);
            r.r1 = h.count();
            r.r2 = h.sum();
            r.r5 = h.min();
            r.r6 = h.max();
        }

        @Arbiter
        public void arbiter(JJJJJJJJ_Result r) {
            HistogramValue h = collect(registry);
            r.r3 = h.count();
            r.r4 = h.sum();
            r.r7 = h.min();
            r.r8 = h.max();
        }
    }

    /**
     * BROKEN on purpose: the histogram's count kept in a cell of its own (as the seed's and many
     * libraries' histograms do) and read by the collector before the buckets, instead of being
     * derived from the bucket counts. Cumulative totals are differenced, so nothing is lost over
     * the two intervals, but a record stored between the two reads is in interval 1's bucket and
     * missing from interval 1's count. Result: {@code count1, bucket1, count2, bucket2}.
     */
    @JCStressTest
    @Description("BROKEN on purpose: a separate count cell read before the buckets; proves the test shape can see count and buckets disagree")
    @Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "the record landed in interval 1")
    @Outcome(id = "0, 0, 1, 1", expect = ACCEPTABLE, desc = "the record landed in interval 2")
    @Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "the broken protocol loses/doubles a count: this variant exists to prove the test can see it "
                    + "(here: interval 1 counts the record in its bucket but not in its count, interval 2 the other way round)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: impossible even for the broken protocol")
    @State
    public static class BrokenSeparateCount {
        static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
        static final int COUNT = 0;
        static final int BUCKET = 1;
        final long[] cells = new long[2];

        @Actor
        public void recorder() {
            // single writer, release stores: bucket first, then the count
            LONGS.setRelease(cells, BUCKET, cells[BUCKET] + 1);
            LONGS.setRelease(cells, COUNT, cells[COUNT] + 1);
        }

        @Actor
        public void collector(JJJJ_Result r) {
            r.r1 = (long) LONGS.getAcquire(cells, COUNT); // the bug: the count is read on its own, first
            r.r2 = (long) LONGS.getAcquire(cells, BUCKET);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            r.r3 = (long) LONGS.getAcquire(cells, COUNT) - r.r1; // differenced: nothing lost over both intervals
            r.r4 = (long) LONGS.getAcquire(cells, BUCKET) - r.r2;
        }
    }
}
