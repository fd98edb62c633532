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
import org.openjdk.jcstress.infra.results.JJJJJJJ_Result;

import static dev.statvar.jcstress.Codes.F;
import static dev.statvar.jcstress.Codes.ONE_DOUBLED;
import static dev.statvar.jcstress.Codes.ONE_IN_1;
import static dev.statvar.jcstress.Codes.ONE_IN_2;
import static dev.statvar.jcstress.Codes.ONE_LOST;
import static dev.statvar.jcstress.Codes.ONE_NO_MINMAX;
import static dev.statvar.jcstress.Codes.ONE_NO_MINMAX_DESC;
import static dev.statvar.jcstress.Codes.ONE_RACES;
import static dev.statvar.jcstress.Codes.ONE_RACES_DESC;
import static dev.statvar.jcstress.Codes.ONE_SUM_LAGS;
import static dev.statvar.jcstress.Codes.ONE_UNRACED;
import static dev.statvar.jcstress.Codes.ONE_UNRACED_DESC;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 3: {@code Histogram.record(v)} racing {@code StatRegistry.collect()}.
 *
 * <p>The contract tested (HistogramValue and StatRegistry javadoc): over the two intervals the
 * count and every bucket count add up to exactly the records made, and the sums to exactly the
 * values; within one interval count and buckets always agree (count is the sum of the bucket
 * counts, and a record is in the bucket of its value); a record racing the switch may have its
 * value in the sum of the interval <em>before</em> the one counting its bucket (never after);
 * min and max of an interval cover every record it counts and are values recorded, an interval
 * with a count always has them, and a record racing a switch may also widen the neighbouring
 * interval's; {@code isMinMaxExact()} false only as documented. {@link Race} lines the recorder up
 * with the collector, spreads the record over the collect and gives the phase (last field).
 *
 * <p>The recording thread has its own array per histogram, created on its first record of that
 * histogram (slow path, under the engine lock) and covering whole octaves of buckets; a record
 * outside them copies the array into a larger one (slow path, under the lock). A record into an
 * existing array is lock-free: min/max slot, opaque sum, release bucket; the collector reads the
 * buckets with acquire, then the sum, then the min/max slots.
 *
 * <p>Two-record results ({@link Exact}, {@link Growth}): {@code b1, s1, m1, b2, s2, m2, phase}:
 * per interval a bucket code (10 x the count of W's bucket + the count of V's bucket + 100 x the
 * count of any other bucket), the sum, and the min/max code ({@link Codes}: 1 {@code (W, W)}, 2
 * {@code (W, V)}, 3 {@code (V, V)}, negative when inexact). W = 1 is recorded before the start
 * line, so it happens-before the collect: wholly in interval 1, and never in interval 2's min/max.
 *
 * <p>Broken variant: {@link BrokenBucketFirst}, statvar with the release ordering of the bucket
 * store removed ({@link dev.statvar.internal.Broken#BUCKET_FIRST}).
 */
public class HistogramVsCollect {
    /** W recorded before the start line; V racing. Exact and BrokenBucketFirst: V = 42 (the same octave as W). */
    static final long W = 1;
    static final long V = 42;
    static final long GROWTH_V = 1000;

    /** Shared shape of the two-record tests: a fresh registry and its histogram. */
    abstract static class TwoRecords extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Histogram histogram = registry.histogram("h");
        final int bucketW = histogram.precision().bucketIndex(W);
        final long v;
        final int bucketV;

        TwoRecords(long v) {
            this.v = v;
            this.bucketV = histogram.precision().bucketIndex(v);
        }

        /** W creates the thread's array (slow path) before the start line; then V races. */
        void record() {
            histogram.record(W);
            updaterAtStart();
            histogram.record(v);
            updaterDone();
        }

        long buckets(HistogramValue h) {
            long w = h.bucketCount(bucketW);
            long x = h.bucketCount(bucketV);
            return 100 * (h.count() - w - x) + 10 * w + x;
        }

        void collect(JJJJJJJ_Result r) {
            collectorAtStart();
            boolean doneBefore = updateDone();
            HistogramValue h = registry.collect().histogram("h");
            r.r7 = phase(doneBefore);
            r.r1 = buckets(h);
            r.r2 = h.sum();
            r.r3 = Codes.minMax(h, W, v);
        }

        void close(JJJJJJJ_Result r) {
            HistogramValue h = registry.collect().histogram("h");
            r.r4 = buckets(h);
            r.r5 = h.sum();
            r.r6 = Codes.minMax(h, W, v);
        }
    }

    /**
     * Fast path: the recorder first records W = 1 (its first record of this histogram: slow path,
     * creates its array covering the first octave), then, past the start line, V = 42 (same
     * octave: the lock-free record) racing collect().
     */
    @JCStressTest
    @Description("Histogram.record(1), record(42) (fast path) racing collect(): counts, buckets, sums and min/max as documented")
    @Outcome(id = "11, 43, 2, 0, 0, 0, [01]", expect = ACCEPTABLE, desc = "V wholly in interval 1 (with W)")
    @Outcome(id = "10, 1, 1, 1, 42, 3, [12]", expect = ACCEPTABLE, desc = "V wholly in interval 2")
    @Outcome(id = "(11, 43, -?2, 0, 0, -?[03]|10, (1, -?[12], 1, 42|43, -?[12], 1, 0), (-?3|-2)), 1", expect = ACCEPTABLE_INTERESTING,
            desc = "documented races (phase 1): V's value already in the sum of interval 1 while its bucket is counted in interval 2, "
                    + "and/or V also widening the other interval's min/max, and/or isMinMaxExact() false (then interval 2's "
                    + "min/max may also hold W, a value of the previous interval)")
    @Outcome(id = "10, " + F + ", " + F + ", 0, .*", expect = FORBIDDEN, desc = "LOST: V counted in neither interval")
    @Outcome(id = "11, " + F + ", " + F + ", 1, .*", expect = FORBIDDEN, desc = "DOUBLED: V counted in both intervals")
    @Outcome(id = "11, 1, .*", expect = FORBIDDEN, desc = "the sum lags its count: V counted in interval 1, its value only in interval 2")
    @Outcome(id = "(11, " + F + ", -?[0139], .*|10, " + F + ", -?[0239], .*|" + F + ", " + F + ", " + F + ", 1, " + F + ", -?[0129], .*)",
            expect = FORBIDDEN, desc = "an interval's min/max does not cover the records it counts, or W (which happened before "
            + "collect() began) in interval 2's min/max while isMinMaxExact() is true")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record in a wrong bucket, a wrong sum, or a record that did not overlap "
            + "collect() (phase 0/2) on the wrong side of it")
    @State
    public static class Exact extends TwoRecords {
        public Exact() {
            super(V);
        }

        @Actor
        public void recorder() {
            record();
        }

        @Actor
        public void collector(JJJJJJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJJJJJ_Result r) {
            close(r);
        }
    }

    /**
     * Growth slow path: W = 1 creates the recorder's array for the first octave; V = 1000 lies
     * four octaves up, so its record copies the array (under the lock, which excludes collect())
     * into one covering both, marks the old one empty (H_LEN = 0), publishes the new one, then
     * records lock-free. Same result fields as {@link Exact}.
     */
    @JCStressTest
    @Description("Histogram.record(1), record(1000) (array growth to a new octave) racing collect(): as Exact")
    @Outcome(id = "11, 1001, 2, 0, 0, 0, [01]", expect = ACCEPTABLE, desc = "V wholly in interval 1 (with W)")
    @Outcome(id = "10, 1, 1, 1, 1000, 3, [12]", expect = ACCEPTABLE, desc = "V wholly in interval 2")
    @Outcome(id = "(11, 1001, -?2, 0, 0, -?[03]|10, (1, -?[12], 1, 1000|1001, -?[12], 1, 0), (-?3|-2)), 1", expect = ACCEPTABLE_INTERESTING,
            desc = "documented races (phase 1): V's value already in the sum of interval 1 while its bucket is counted in interval 2, "
                    + "and/or V also widening the other interval's min/max, and/or isMinMaxExact() false (then interval 2's "
                    + "min/max may also hold W, a value of the previous interval)")
    @Outcome(id = "10, " + F + ", " + F + ", 0, .*", expect = FORBIDDEN, desc = "LOST: V counted in neither interval (e.g. by the copy)")
    @Outcome(id = "11, " + F + ", " + F + ", 1, .*", expect = FORBIDDEN,
            desc = "DOUBLED: V counted in both intervals (e.g. old and new array both read)")
    @Outcome(id = "11, 1, .*", expect = FORBIDDEN, desc = "the sum lags its count: V counted in interval 1, its value only in interval 2")
    @Outcome(id = "(11, " + F + ", -?[0139], .*|10, " + F + ", -?[0239], .*|" + F + ", " + F + ", " + F + ", 1, " + F + ", -?[0129], .*)",
            expect = FORBIDDEN, desc = "an interval's min/max does not cover the records it counts, or W (which happened before "
            + "collect() began) in interval 2's min/max while isMinMaxExact() is true")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record in a wrong bucket or in two, a wrong sum, or a record that did "
            + "not overlap collect() (phase 0/2) on the wrong side of it")
    @State
    public static class Growth extends TwoRecords {
        public Growth() {
            super(GROWTH_V);
        }

        @Actor
        public void recorder() {
            record();
        }

        @Actor
        public void collector(JJJJJJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJJJJJ_Result r) {
            close(r);
        }
    }

    /**
     * One record, V = 42, the thread's first of this histogram (slow path: its array is created
     * under the lock, racing collect() for it, then the record is made lock-free). Result
     * {@code c1, s1, c2, s2, m1, m2, phase}, as GaugeVsCollect's single-report tests (min/max
     * code 1: (42, 42)). The regression check of the Lincheck finding (a fully racing interval's
     * min/max): the interval that counts the record must have min/max 42.
     */
    @JCStressTest
    @Description("Histogram.record(42), the thread's first (slow path) racing collect(): count and sum exact, min/max 42 where counted")
    @Outcome(id = ONE_IN_1, expect = ACCEPTABLE, desc = "the record landed wholly in interval 1")
    @Outcome(id = ONE_IN_2, expect = ACCEPTABLE, desc = "the record landed wholly in interval 2")
    @Outcome(id = ONE_RACES, expect = ACCEPTABLE_INTERESTING, desc = ONE_RACES_DESC)
    @Outcome(id = ONE_LOST, expect = FORBIDDEN, desc = "LOST: the record is counted in neither interval")
    @Outcome(id = ONE_DOUBLED, expect = FORBIDDEN, desc = "DOUBLED: the record is counted in both intervals")
    @Outcome(id = ONE_SUM_LAGS, expect = FORBIDDEN, desc = "the sum lags its count: counted in interval 1, its value only in interval 2")
    @Outcome(id = ONE_NO_MINMAX, expect = FORBIDDEN, desc = ONE_NO_MINMAX_DESC)
    @Outcome(id = ONE_UNRACED, expect = FORBIDDEN, desc = ONE_UNRACED_DESC)
    @Outcome(expect = FORBIDDEN, desc = "anything else: a wrong count or sum, or a min/max that was never recorded")
    @State
    public static class MinMax extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Histogram histogram = registry.histogram("h");

        @Actor
        public void recorder() {
            updaterAtStart();
            histogram.record(V);
            updaterDone();
        }

        @Actor
        public void collector(JJJJJJJ_Result r) {
            collectorAtStart();
            boolean doneBefore = updateDone();
            HistogramValue h = registry.collect().histogram("h");
            r.r7 = phase(doneBefore);
            r.r1 = h.count();
            r.r2 = h.sum();
            r.r5 = Codes.minMax(h, V, V);
        }

        @Arbiter
        public void arbiter(JJJJJJJ_Result r) {
            HistogramValue h = registry.collect().histogram("h");
            r.r3 = h.count();
            r.r4 = h.sum();
            r.r6 = Codes.minMax(h, V, V);
        }
    }

    /**
     * BROKEN on purpose: {@link Exact} run on statvar with the release ordering of the bucket
     * store removed ({@link dev.statvar.internal.Broken#BUCKET_FIRST}): V's bucket count is
     * published before its min/max slot and its sum, as a plain bucket store would let a weakly
     * ordered CPU do (x86 keeps stores in order, so the switch moves the store). A collector that
     * reads the bucket in between counts V without its sum or min/max. Documented races are
     * ACCEPTABLE here, so that the only INTERESTING outcomes are the regression's.
     */
    @JCStressTest
    @Description("BROKEN on purpose: Exact on statvar with Broken.BUCKET_FIRST (bucket published before min/max and sum); must show it")
    @Outcome(id = "11, 43, 2, 0, 0, 0, [01]", expect = ACCEPTABLE, desc = "V wholly in interval 1 (with W)")
    @Outcome(id = "10, 1, 1, 1, 42, 3, [12]", expect = ACCEPTABLE, desc = "V wholly in interval 2")
    @Outcome(id = "(11, 43, -?2, 0, 0, -?[03]|10, (1, -?[12], 1, 42|43, -?[12], 1, 0), (-?3|-2)), 1", expect = ACCEPTABLE,
            desc = "a documented race (INTERESTING in Exact)")
    @Outcome(id = "11, 1, -?[12], 0, 42, -?[03], 1", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: interval 1 counts V in its bucket, V's value only in interval 2's sum")
    @Outcome(id = "11, 43, -?1, 0, 0, -?[03], 1", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: interval 1 counts V in its bucket, its min/max lacks V")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenBucketFirst extends TwoRecords {
        static {
            turnOn("BUCKET_FIRST");
        }

        public BrokenBucketFirst() {
            super(V);
        }

        @Actor
        public void recorder() {
            record();
        }

        @Actor
        public void collector(JJJJJJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJJJJJ_Result r) {
            close(r);
        }
    }
}
