package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
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
 * <p>A hot recording thread has its own array per histogram, created on its first hot record of
 * that histogram (slow path, under the engine lock) and covering whole octaves of buckets; a
 * record outside them copies the array into a larger one (slow path, under the lock). A record
 * into an existing array is lock-free: min/max slot, opaque sum, release bucket; the collector
 * reads the buckets with acquire, then the sum, then the min/max slots. A thread is hot for a
 * histogram from its {@code hotAfter}-th record of it in an interval ({@code StatRegistry.Builder.hotAfter},
 * default 1,000; a {@code localView()} is hot at once); before that its records go to the stripes
 * virtual threads use (Stripes.record: the same HistogramCells.record into a stripe's array, under
 * the stripe's ReentrantLock). {@link Exact}, {@link Growth}, {@link MinMax} and the broken variant
 * mean the thread's own array, so their registry has {@code hotAfter(1)}; {@link Promotion} races
 * the promotion from the stripes to the own array against collect().
 *
 * <p>Two-record results ({@link Exact}, {@link Growth}): {@code b1, s1, m1, b2, s2, m2, phase}:
 * per interval a bucket code (10 x the count of W's bucket + the count of V's bucket + 100 x the
 * count of any other bucket), the sum, and the min/max code ({@link Codes}: 1 {@code (W, W)}, 2
 * {@code (W, V)}, 3 {@code (V, V)}, negative when inexact). W = 1 is recorded before the start
 * line, so it happens-before the collect: wholly in interval 1, and never in interval 2's min/max.
 * {@link Promotion} has the same fields, with W racing too.
 *
 * <p>{@link Ordered}: two records racing the collect's read of the buckets, the earlier one in a
 * much lower bucket; a read that counts the later one counts the earlier one too (the collector
 * reads the buckets downwards: HistogramCells).
 *
 * <p>Broken variants: {@link BrokenBucketFirst}, statvar with the release ordering of the bucket
 * store removed ({@link dev.statvar.internal.Broken#BUCKET_FIRST}). The switch is in
 * HistogramCells.record, which the stripes call too, so it also breaks {@link Promotion}; no
 * broken variant of its own is run. {@link BrokenBucketsUpward}: {@link Ordered} with the
 * collector reading the buckets upwards ({@link dev.statvar.internal.Broken#BUCKETS_UPWARD}).
 */
public class HistogramVsCollect {
    /** W recorded before the start line (in Promotion: past it, before V); V racing. Exact, Promotion and BrokenBucketFirst: V = 42 (the same octave as W). */
    static final long W = 1;
    static final long V = 42;
    static final long GROWTH_V = 1000;

    /**
     * Shared shape of the two-record tests: a fresh registry with the given hotAfter, its
     * histogram, and a counter "block" (its add makes the thread's Block and nothing of the histogram).
     */
    abstract static class TwoRecords extends Race {
        final StatRegistry registry;
        final Histogram histogram;
        final Counter block;
        final int bucketW;
        final long v;
        final int bucketV;

        TwoRecords(int hotAfter, long v) {
            this.registry = StatRegistry.builder().hotAfter(hotAfter).build();
            this.histogram = registry.histogram("h");
            this.block = registry.counter("block");
            this.bucketW = histogram.precision().bucketIndex(W);
            this.v = v;
            this.bucketV = histogram.precision().bucketIndex(v);
        }

        /** W creates the thread's array (slow path; with hotAfter(1)) before the start line; then V races. */
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
     * Fast path ({@code hotAfter(1)}): the recorder first records W = 1 (its first record of this
     * histogram: slow path, creates its view in the histogram's table and its array covering the
     * first octave), then, past the start line, V = 42 (same octave: the lock-free record) racing
     * collect().
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
            super(1, V);
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
     * Growth slow path ({@code hotAfter(1)}): W = 1 creates the recorder's array for the first octave; V = 1000 lies
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
            super(1, GROWTH_V);
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
     * One record, V = 42, the thread's first of this histogram and of this registry
     * ({@code hotAfter(1)}; slow path: its Block, its view and its array are created under the
     * lock, racing collect() for it, then the record is made lock-free). Result
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
        final StatRegistry registry = StatRegistry.builder().hotAfter(1).build();
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
     * The promotion racing collect(): {@code hotAfter(2)}; the recorder's Block exists (the warm-up
     * add) but nothing of the histogram. Past the start line it records W = 1 and then V = 42 (the
     * same octave). W is its first record of the interval: slow path, its view is made in the
     * histogram's table (engine lock), and the record is cold: it goes to the stripes (a stripe
     * lock; the stripe's array for the histogram made under the engine lock on first use). V
     * finds the view in the table, with no array: it makes the thread hot, creates its own array
     * under the engine lock (racing collect's lock holds: made before or after the collector
     * switches and reads the threads' arrays, with the epoch current then) and records there. (If
     * collect() advanced the epoch between the two, the cold count starts again and V goes to the
     * stripes too.) Result as {@link Exact} ({@code b1, s1, m1, b2, s2, m2, phase}), but W races
     * as well: each record must be counted in exactly one interval and in its own bucket, the sums
     * must add up to 43, and each interval's min/max must cover the records it counts (min/max
     * codes: 1 = (1, 1), 2 = (1, 42), 3 = (42, 42)).
     *
     * <p>Not in the contract either way: the order of one thread's records across intervals. The
     * collector reads the threads' arrays before the stripes, so V counted in interval 1 and W
     * (recorded before it) in interval 2 is not expected, but no javadoc promises it: INTERESTING.
     */
    @JCStressTest
    @Description("hotAfter(2): Histogram.record(1) (cold: the stripes), record(42) (promotion: own array made under the lock) racing "
            + "collect(): counts, buckets and sums exact, each counting interval's min/max covers its records")
    @Outcome(id = "11, 43, 2, 0, 0, 0, [01]", expect = ACCEPTABLE, desc = "both records wholly in interval 1")
    @Outcome(id = "10, 1, 1, 1, 42, 3, 1", expect = ACCEPTABLE, desc = "W (cold, the stripes) wholly in interval 1, V (own array) wholly in interval 2")
    @Outcome(id = "0, 0, 0, 11, 43, 2, [12]", expect = ACCEPTABLE, desc = "both records wholly in interval 2")
    @Outcome(id = "(11, 43, -?2, 0, 0, -?[0-3]|10, (1, -?[12], 1, 42|43, -?[12], 1, 0), -?[23]|0, (0, -?[0-3], 11, 43|1, -?[0-3], 11, 42|"
            + "42, -?[0-3], 11, 1|43, -?[0-3], 11, 0), -?2), 1", expect = ACCEPTABLE_INTERESTING,
            desc = "documented races (phase 1): a record's value already in the sum of interval 1 while its bucket is counted in "
                    + "interval 2, and/or a racing value also widening the other interval's min/max, and/or isMinMaxExact() false")
    @Outcome(id = "1, (42, -?[23], 10, 1|43, -?[23], 10, 0), -?[12], 1", expect = ACCEPTABLE_INTERESTING,
            desc = "out of order (phase 1): interval 1 counts V (own array) and interval 2 counts W (recorded before it, in the "
                    + "stripes); each counted once, min/max covering it. Not documented, not forbidden by the contract; not expected "
                    + "(the collector reads the threads' arrays before the stripes)")
    @Outcome(id = "(0, " + F + ", " + F + ", (0|1|10)|1, " + F + ", " + F + ", (0|1)|10, " + F + ", " + F + ", (0|10)), .*", expect = FORBIDDEN,
            desc = "LOST: W or V counted in neither interval")
    @Outcome(id = "(11, " + F + ", " + F + ", (1|10|11)|10, " + F + ", " + F + ", (10|11)|1, " + F + ", " + F + ", (1|11)), .*",
            expect = FORBIDDEN, desc = "DOUBLED: W or V counted in both intervals (e.g. in the stripes and in the new array)")
    @Outcome(id = "(11, " + F + ", -?[0139], .*|10, " + F + ", -?[039], .*|1, " + F + ", -?[019], .*|" + F + ", " + F + ", " + F
            + ", 11, " + F + ", -?[0139], .*|" + F + ", " + F + ", " + F + ", 10, " + F + ", -?[039], .*|" + F + ", " + F + ", " + F
            + ", 1, " + F + ", -?[019], .*)", expect = FORBIDDEN, desc = "an interval's min/max does not cover the records it counts")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record in a wrong bucket or in two, a sum lagging its count or wrong, or a "
            + "record that did not overlap collect() (phase 0/2) on the wrong side of it")
    @State
    public static class Promotion extends TwoRecords {
        public Promotion() {
            super(2, V);
        }

        @Actor
        public void recorder() {
            block.add();
            updaterAtStart();
            histogram.record(W); // cold: the stripes
            histogram.record(V); // hotAfter-th: the thread's own array, made under the engine lock
            updaterDone();
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
            super(1, V);
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
     * Shape of {@link Ordered}: before the start line the recorder records {@link #LOW} and
     * {@link #HIGH} (its array then covers every octave between: about 2,600 buckets), then, racing
     * collect(), {@link #A} and {@link #B}, B's bucket far above A's. Results {@code i1, i2, phase}:
     * per interval 100 x the count of the other buckets (LOW's and HIGH's) + 10 x the count of A's
     * bucket + the count of B's.
     */
    abstract static class OrderedShape extends Race {
        static final long LOW = 1;
        static final long HIGH = 1L << 40;
        static final long A = 3;
        static final long B = HIGH - 12_345;
        final StatRegistry registry = StatRegistry.builder().hotAfter(1).build();
        final Histogram histogram = registry.histogram("h");
        final int bucketA = histogram.precision().bucketIndex(A);
        final int bucketB = histogram.precision().bucketIndex(B);

        OrderedShape() {
            if (bucketA == bucketB || bucketA == histogram.precision().bucketIndex(LOW)
                    || bucketB == histogram.precision().bucketIndex(HIGH)) {
                throw new IllegalStateException("A, B, LOW and HIGH must be in buckets of their own");
            }
        }

        void record() {
            histogram.record(LOW);
            histogram.record(HIGH);
            updaterAtStart();
            histogram.record(A);
            histogram.record(B);
            updaterDone();
        }

        int code(HistogramValue h) {
            long a = h.bucketCount(bucketA);
            long b = h.bucketCount(bucketB);
            return (int) (100 * (h.count() - a - b) + 10 * a + b);
        }

        void collect(III_Result r) {
            collectorAtStart();
            boolean doneBefore = updateDone();
            HistogramValue h = registry.collect().histogram("h");
            r.r3 = (int) phase(doneBefore);
            r.r1 = code(h);
        }

        void close(III_Result r) {
            r.r2 = code(registry.collect().histogram("h"));
        }
    }

    /** A and B racing the read of the buckets: never B counted without A. */
    @JCStressTest
    @Description("Histogram.record(3), record(2^40 - 12345) (fast path, buckets far apart) racing collect(): a read that "
            + "counts the later record counts the earlier one")
    @Outcome(id = "211, 0, [01]", expect = ACCEPTABLE, desc = "A and B wholly in interval 1 (with LOW and HIGH)")
    @Outcome(id = "200, 11, [12]", expect = ACCEPTABLE, desc = "A and B wholly in interval 2")
    @Outcome(id = "210, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the pair straddles the read: A in interval 1, B in interval 2")
    @Outcome(id = "201, 10, .*", expect = FORBIDDEN, desc = "ORDER: B counted in interval 1 while A, recorded before it "
            + "into a lower bucket, is only in interval 2")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record lost, doubled or in a wrong bucket, or a record that did not "
            + "overlap collect() (phase 0/2) on the wrong side of it")
    @State
    public static class Ordered extends OrderedShape {
        @Actor
        public void recorder() {
            record();
        }

        @Actor
        public void collector(III_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            close(r);
        }
    }

    /**
     * {@link Ordered} on statvar with {@link dev.statvar.internal.Broken#BUCKETS_UPWARD}: the
     * collector reads A's bucket before B's, so a read passing A's bucket just before A is stored
     * and reaching B's just after B is counts B without A. Documented races are ACCEPTABLE here,
     * so that the only INTERESTING outcome is the regression's.
     */
    @JCStressTest
    @Description("BROKEN on purpose: Ordered on statvar with Broken.BUCKETS_UPWARD (buckets read upwards); must show it")
    @Outcome(id = "211, 0, [01]", expect = ACCEPTABLE, desc = "A and B wholly in interval 1 (with LOW and HIGH)")
    @Outcome(id = "200, 11, [12]", expect = ACCEPTABLE, desc = "A and B wholly in interval 2")
    @Outcome(id = "210, 1, 1", expect = ACCEPTABLE, desc = "the pair straddles the read (INTERESTING in Ordered)")
    @Outcome(id = "201, 10, 1", expect = ACCEPTABLE_INTERESTING, desc = "the regression, observed: B counted in interval 1, "
            + "A only in interval 2")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenBucketsUpward extends OrderedShape {
        static {
            turnOn("BUCKETS_UPWARD");
        }

        @Actor
        public void recorder() {
            record();
        }

        @Actor
        public void collector(III_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(III_Result r) {
            close(r);
        }
    }
}
