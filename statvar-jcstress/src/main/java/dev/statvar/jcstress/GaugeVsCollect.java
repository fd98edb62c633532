package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
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
 * Subject 2: {@code Gauge.report(v)} racing {@code StatRegistry.collect()}.
 *
 * <p>Shape: actor 1 reports, actor 2 closes interval 1 with {@code collect()}, the arbiter closes
 * interval 2. Every result is {@code c1, s1, c2, s2, min1, max1, min2, max2}: count and sum of
 * interval 1 and 2, then min/max of interval 1 and 2 (0, 0 when the interval has none).
 *
 * <p>The contract tested (GaugeValue and StatRegistry javadoc):
 * <ul>
 *   <li>count: each report is counted in exactly one of the two intervals;</li>
 *   <li>sum: over both intervals exactly the sum of the values; the interval that counts a report
 *       includes its value in its sum, and the sum may <em>already</em> include a report whose count
 *       lands in the next interval (never the other way round: a sum never lags its count);</li>
 *   <li>min/max: an interval's min and max cover its reports, except a report that raced the
 *       switch, whose value may sit in the neighbouring interval's min/max instead; over both
 *       intervals min and max are exact (the smallest/largest value reported), and no value
 *       that was never reported appears.</li>
 * </ul>
 * Outcomes where every field lands with its count are ACCEPTABLE; the documented races (sum
 * ahead of its count, min/max in the neighbouring interval) are ACCEPTABLE_INTERESTING; anything
 * outside the contract is FORBIDDEN.
 */
public class GaugeVsCollect {
    /** The value reported in the single-report tests. */
    static final long V = 42;

    static final String ONE_REPORT_COUNT_SUM = "(1, 42, 0, 0|0, 0, 1, 42|0, 42, 1, 0)";
    static final String ONE_REPORT_MIN_MAX = "(42, 42, 0, 0|0, 0, 42, 42|42, 42, 42, 42)";

    /** Shared shape: a fresh registry, a warm-up counter and the gauge under test. */
    static class Registry {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final Gauge gauge = registry.gauge("g");

        /** Closes an interval: interval 1 into r1 (count), r2 (sum), r5, r6 (min, max); interval 2 into r3, r4, r7, r8. */
        void collect(JJJJJJJJ_Result r, int interval) {
            GaugeValue g = registry.collect().gauge("g");
            if (interval == 1) {
                r.r1 = g.count();
                r.r2 = g.sum();
                r.r5 = g.min();
                r.r6 = g.max();
            } else {
                r.r3 = g.count();
                r.r4 = g.sum();
                r.r7 = g.min();
                r.r8 = g.max();
            }
        }
    }

    /**
     * One report on the lock-free fast path (the thread's cells exist: the warm-up counter created
     * them): min/max into the slot of the epoch the writer read (opaque), opaque store of the
     * sum, release store of the count, racing collect's volatile epoch switch of the thread's
     * array and its acquire read of the count, then sum, then the min/max slots.
     */
    @JCStressTest
    @Description("Gauge.report(42) on the fast path racing collect(): count and sum exact over the two intervals, min/max as documented")
    @Outcome(id = "1, 42, 0, 0, 42, 42, 0, 0", expect = ACCEPTABLE, desc = "the report landed wholly in interval 1")
    @Outcome(id = "0, 0, 1, 42, 0, 0, 42, 42", expect = ACCEPTABLE, desc = "the report landed wholly in interval 2")
    @Outcome(id = "0, 42, 1, 0, " + ONE_REPORT_MIN_MAX, expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: the sum of interval 1 already includes the report whose count lands in interval 2")
    @Outcome(id = "(1, 42, 0, 0, 0, 0, 42, 42|0, 0, 1, 42, 42, 42, 0, 0)", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: count and sum in one interval, the value in the other interval's min/max")
    @Outcome(id = ONE_REPORT_COUNT_SUM + ", 42, 42, 42, 42", expect = ACCEPTABLE_INTERESTING,
            desc = "the value in the min/max of both intervals: within the contract (over all intervals exact), not expected of statvar")
    @Outcome(id = "0, 0, 0, 0, .*", expect = FORBIDDEN, desc = "LOST: the report is counted in neither interval")
    @Outcome(id = "1, 42, 1, 42, .*", expect = FORBIDDEN, desc = "DOUBLED: the report is counted in both intervals")
    @Outcome(id = "1, 0, 0, 42, .*", expect = FORBIDDEN, desc = "the sum lags its count: counted in interval 1, its value only in interval 2")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a wrong count or sum, a min/max missing from both intervals or never reported")
    @State
    public static class Exact extends Registry {
        @Actor
        public void reporter() {
            warm.add();
            gauge.report(V);
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
     * One report through {@code gauge.localView()}: the view's own one-stat array (created under
     * the lock by localView()), updated lock-free at constant indices, racing collect's switch
     * and read of view arrays (readView).
     */
    @JCStressTest
    @Description("localView().report(42) racing collect(): count and sum exact over the two intervals, min/max as documented")
    @Outcome(id = "1, 42, 0, 0, 42, 42, 0, 0", expect = ACCEPTABLE, desc = "the report landed wholly in interval 1")
    @Outcome(id = "0, 0, 1, 42, 0, 0, 42, 42", expect = ACCEPTABLE, desc = "the report landed wholly in interval 2")
    @Outcome(id = "0, 42, 1, 0, " + ONE_REPORT_MIN_MAX, expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: the sum of interval 1 already includes the report whose count lands in interval 2")
    @Outcome(id = "(1, 42, 0, 0, 0, 0, 42, 42|0, 0, 1, 42, 42, 42, 0, 0)", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: count and sum in one interval, the value in the other interval's min/max")
    @Outcome(id = ONE_REPORT_COUNT_SUM + ", 42, 42, 42, 42", expect = ACCEPTABLE_INTERESTING,
            desc = "the value in the min/max of both intervals: within the contract (over all intervals exact), not expected of statvar")
    @Outcome(id = "0, 0, 0, 0, .*", expect = FORBIDDEN, desc = "LOST: the report is counted in neither interval")
    @Outcome(id = "1, 42, 1, 42, .*", expect = FORBIDDEN, desc = "DOUBLED: the report is counted in both intervals")
    @Outcome(id = "1, 0, 0, 42, .*", expect = FORBIDDEN, desc = "the sum lags its count: counted in interval 1, its value only in interval 2")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a wrong count or sum, a min/max missing from both intervals or never reported")
    @State
    public static class LocalView extends Registry {
        @Actor
        public void reporter() {
            warm.add();
            gauge.localView().report(V);
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
     * Two reports, 5 then 9, on the fast path. When collect() switches the epoch between (or
     * during) them, the second report retags the min/max slots (seqlock-style move of the
     * current slot into the previous one, restart of the current one) while the collector may be
     * reading them: the slot protocol under a concurrent reader.
     */
    @JCStressTest
    @Description("Gauge.report(5), report(9) racing collect(): counts, sums, and min 5 / max 9 over the two intervals exact")
    @Outcome(id = "2, 14, 0, 0, 5, 9, 0, 0", expect = ACCEPTABLE, desc = "both reports wholly in interval 1")
    @Outcome(id = "1, 5, 1, 9, 5, 5, 9, 9", expect = ACCEPTABLE, desc = "5 wholly in interval 1, 9 wholly in interval 2")
    @Outcome(id = "0, 0, 2, 14, 0, 0, 5, 9", expect = ACCEPTABLE, desc = "both reports wholly in interval 2")
    @Outcome(id = "(2, 14, 0, 0|1, 5, 1, 9|1, 14, 1, 0|0, 0, 2, 14|0, 5, 2, 9|0, 14, 2, 0), "
            + "(0, 0, 5, 9|5, 9, 0, 0|5, 5, 9, 9|9, 9, 5, 5|5, 5, 5, 9|5, 9, 5, 5|9, 9, 5, 9|5, 9, 9, 9|5, 9, 5, 9)",
            expect = ACCEPTABLE_INTERESTING,
            desc = "documented races: a sum ahead of its count, and/or a racing value in the neighbouring interval's min/max; "
                    + "counts and sums exact, min 5 and max 9 over both intervals")
    @Outcome(id = "(0, -?[0-9]+, [01]|1, -?[0-9]+, 0), .*", expect = FORBIDDEN, desc = "LOST: fewer than 2 reports counted over both intervals")
    @Outcome(id = "(0, -?[0-9]+, [3-9]|1, -?[0-9]+, [2-9]|2, -?[0-9]+, [1-9]|[3-9]).*", expect = FORBIDDEN,
            desc = "DOUBLED: more than 2 reports counted over both intervals")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a sum lagging its count, a wrong sum, min 5 or max 9 missing from both intervals, or a value never reported")
    @State
    public static class TwoReports extends Registry {
        @Actor
        public void reporter() {
            warm.add();
            gauge.report(5);
            gauge.report(9);
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
     * BROKEN on purpose: statvar's gauge cells (opaque sum, release count, single writer) but the
     * collector RESETS them to 0 after reading instead of differencing cumulative totals. A
     * report stored between the collector's read and its reset is wiped out. Result: count and
     * sum of interval 1, then of interval 2.
     */
    @JCStressTest
    @Description("BROKEN on purpose: gauge count/sum reset by the collector instead of differenced; proves the test shape can see a lost count")
    @Outcome(id = "1, 42, 0, 0", expect = ACCEPTABLE, desc = "the report landed in interval 1")
    @Outcome(id = "0, 0, 1, 42", expect = ACCEPTABLE, desc = "the report landed in interval 2")
    @Outcome(id = "0, 42, 1, 0", expect = ACCEPTABLE, desc = "sum read ahead of the count (as statvar allows)")
    @Outcome(id = "(0, 0, 0, 0|0, 42, 0, 0|0, 0, 0, 42|0, 0, 1, 0)", expect = ACCEPTABLE_INTERESTING,
            desc = "the broken protocol loses/doubles a count: this variant exists to prove the test can see it (here: the count and/or the sum wiped by the reset)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: impossible even for the broken protocol")
    @State
    public static class BrokenResetInsteadOfDifference {
        static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
        static final int COUNT = 0;
        static final int SUM = 1;
        final long[] cells = new long[2];

        @Actor
        public void reporter() {
            // statvar's reportInto(): single writer, opaque sum, release count
            LONGS.setOpaque(cells, SUM, cells[SUM] + V);
            LONGS.setRelease(cells, COUNT, cells[COUNT] + 1);
        }

        @Actor
        public void collector(JJJJ_Result r) {
            r.r1 = (long) LONGS.getAcquire(cells, COUNT);
            r.r2 = (long) LONGS.getOpaque(cells, SUM);
            // the bug: reset instead of remembering the totals; a report in between is lost
            LONGS.setOpaque(cells, COUNT, 0L);
            LONGS.setOpaque(cells, SUM, 0L);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            r.r3 = (long) LONGS.getAcquire(cells, COUNT);
            r.r4 = (long) LONGS.getOpaque(cells, SUM);
        }
    }
}
