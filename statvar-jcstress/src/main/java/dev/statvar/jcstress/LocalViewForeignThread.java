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
import org.openjdk.jcstress.infra.results.JJJJJJJJ_Result;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static dev.statvar.jcstress.Codes.F;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 4: a {@code localView()} taken by one thread and used from another one, racing the
 * owner's own updates through it and a collector.
 *
 * <p>How the owner is chosen without any waiting: the view is taken in the state's constructor,
 * so its owner is the thread that built the state. jcstress 0.16 builds the first batch of
 * states on its harness thread and every later state on one of the actor threads (each actor
 * re-creates its share of the states after a batch), so the owner is, from sample to sample,
 * actor 1, actor 2 or the harness thread. The first result field says which (the owner code:
 * 10 actor 1, 1 actor 2, 0 neither, 11 both claim it):
 * <ul>
 *   <li>10: actor 1 owns the view (its update takes the local path: for a counter, the cell at
 *       a constant index of its own counter array, the view holding its Block; for a histogram,
 *       the array the view holds; no lookup) while actor 2 uses the same view as a foreign thread
 *       (the owner check fails: the ordinary path through actor 2's own cells);</li>
 *   <li>1: the same with the roles swapped;</li>
 *   <li>0: neither owns it: both take the foreign path, racing each other.</li>
 * </ul>
 * Counter.localView() javadoc: "Used from any other thread it still counts correctly, through
 * the ordinary path." So in every case the total over both intervals is exact.
 *
 * <p>Two actors, not three: jcstress 0.16 does not schedule a test with more actors than CPUs
 * ("No scheduling is possible, these tests would not run") and CI has 2. So actor 2 updates
 * and then closes interval 1 itself; its own update, made before its collect, must be in
 * interval 1. {@link Race} lines the actors up: actor 2 updates at once, actor 1 as the sample's
 * mode says (at the same moment, during actor 2's collect, or after it); the last field is the
 * phase of actor 1's update against that collect.
 *
 * <p>Broken variant: {@link BrokenViewAnyThread}, statvar with the view's owner check removed
 * ({@link dev.statvar.internal.Broken#VIEW_ANY_THREAD}).
 */
public class LocalViewForeignThread {

    /** Shared shape of the counter tests. */
    abstract static class CounterShape extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final Counter counter = registry.counter("c");
        /** Owned by the thread that builds this state (see the class comment). */
        final Counter view = counter.localView();
        final Thread owner = Thread.currentThread();
        /** Whether actor 1 / actor 2 is the owner; read by the arbiter. */
        boolean owner1;
        boolean owner2;

        /**
         * Each actor warms up before the start line: its Block and counter array, which covers "c"
         * too (a first counter array holds 8 counters), so a foreign add is then on the fast path.
         */
        void adder() {
            warm.add();
            owner1 = Thread.currentThread() == owner;
            updaterAtStart();
            view.add();
            updaterDone();
        }

        void adderThenCollector(JJJJ_Result r) {
            warm.add();
            owner2 = Thread.currentThread() == owner;
            collectorAtStart();
            view.add();
            boolean doneBefore = updateDone();
            r.r2 = registry.collect().counter("c");
            r.r4 = phase(doneBefore);
        }

        void close(JJJJ_Result r) {
            r.r1 = (owner1 ? 10 : 0) + (owner2 ? 1 : 0);
            r.r3 = registry.collect().counter("c");
        }
    }

    /**
     * Counter view: each actor adds once through the shared view; actor 2 then collects. Result:
     * owner code, the counter's value in interval 1 (actor 2's collect) and 2 (arbiter), phase.
     */
    @JCStressTest
    @Description("A counter's localView() used by its owner and by a foreign thread at once, racing collect(): total exactly 2")
    @Outcome(id = "(10|1|0), 2, 0, [01]", expect = ACCEPTABLE,
            desc = "both adds counted once, in interval 1 (owner code: 10 actor 1 owns the view, 1 actor 2, 0 neither)")
    @Outcome(id = "(10|1|0), 1, 1, [12]", expect = ACCEPTABLE,
            desc = "both adds counted once, actor 1's in interval 2 (owner code: 10 actor 1 owns the view, 1 actor 2, 0 neither)")
    @Outcome(id = F + ", 0, 2, .*", expect = FORBIDDEN,
            desc = "actor 2's own add, made before its collect, is missing from the interval that collect closed")
    @Outcome(id = F + ", (0, [01]|1, 0), .*", expect = FORBIDDEN, desc = "LOST: fewer than 2 adds counted over both intervals")
    @Outcome(id = "11, .*", expect = FORBIDDEN, desc = "both actors claim the view")
    @Outcome(expect = FORBIDDEN, desc = "anything else: an add doubled, or actor 1's add on the wrong side of a collect it did not overlap")
    @State
    public static class CounterView extends CounterShape {
        @Actor
        public void adder1() {
            adder();
        }

        @Actor
        public void adder2ThenCollector(JJJJ_Result r) {
            adderThenCollector(r);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            close(r);
        }
    }

    /**
     * Histogram view: the owner's view caches the owner's histogram array (refreshed through the
     * slow path when a record falls outside it: here its first record creates the array; a view is
     * hot at once), a foreign thread's record goes through the histogram's table to its own array
     * ({@code hotAfter(1)}: with the default a foreign thread's first records of an interval would
     * go to the shared stripes instead). Each actor records 42 once through the view; actor 2 then
     * collects. Result: owner code, count of interval 1 and 2,
     * sum of interval 1 and 2, min/max code of interval 1 and 2 ({@link Codes}: 1 is (42, 42)), phase.
     */
    @JCStressTest
    @Description("A histogram's localView() used by its owner and by a foreign thread at once, racing collect(): count 2 and sum 84 exact")
    @Outcome(id = "(10|1|0), (2, 0, 84, 0, 1, 0, [01]|1, 1, 42, 42, 1, 1, [12])", expect = ACCEPTABLE,
            desc = "both records counted once, each value in the sum and min/max of the interval counting it")
    @Outcome(id = "(10|1|0), (2, 0, 84, 0, -?1, -?[01]|1, 1, (42, 42|84, 0), -?1, -?1), 1", expect = ACCEPTABLE_INTERESTING,
            desc = "documented races: actor 1's value already in the sum of interval 1 while its bucket is counted in interval 2, "
                    + "and/or it widens interval 2's min/max, and/or isMinMaxExact() false")
    @Outcome(id = F + ", 0, 2, .*", expect = FORBIDDEN,
            desc = "actor 2's own record, made before its collect, is missing from the interval that collect closed")
    @Outcome(id = F + ", (0, [01]|1, 0), .*", expect = FORBIDDEN, desc = "LOST: fewer than 2 records counted over both intervals")
    @Outcome(id = "(10|1|0), (2, " + F + ", " + F + ", " + F + ", -?[09]|1, 1, " + F + ", " + F + ", (-?[09], " + F + "|" + F
            + ", -?[09])), .*", expect = FORBIDDEN, desc = "an interval that counts a record has no min/max 42")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record doubled, a sum wrong or lagging its count, both actors claiming the "
            + "view, or actor 1's record on the wrong side of a collect it did not overlap")
    @State
    public static class HistogramView extends Race {
        final StatRegistry registry = StatRegistry.builder().hotAfter(1).build();
        final Histogram histogram = registry.histogram("h");
        /** Owned by the thread that builds this state (see the class comment). */
        final Histogram view = histogram.localView();
        final Thread owner = Thread.currentThread();
        boolean owner1;
        boolean owner2;

        @Actor
        public void recorder1() {
            owner1 = Thread.currentThread() == owner;
            updaterAtStart();
            view.record(42);
            updaterDone();
        }

        @Actor
        public void recorder2ThenCollector(JJJJJJJJ_Result r) {
            owner2 = Thread.currentThread() == owner;
            collectorAtStart();
            view.record(42);
            boolean doneBefore = updateDone();
            HistogramValue h = registry.collect().histogram("h");
            r.r8 = phase(doneBefore);
            r.r2 = h.count();
            r.r4 = h.sum();
            r.r6 = Codes.minMax(h, 42, 42);
        }

        @Arbiter
        public void arbiter(JJJJJJJJ_Result r) {
            HistogramValue h = registry.collect().histogram("h");
            r.r1 = (owner1 ? 10 : 0) + (owner2 ? 1 : 0);
            r.r3 = h.count();
            r.r5 = h.sum();
            r.r7 = Codes.minMax(h, 42, 42);
        }
    }

    /**
     * BROKEN on purpose: {@link CounterView} run on statvar with the view's owner check removed
     * ({@link dev.statvar.internal.Broken#VIEW_ANY_THREAD}, in LocalCounter.add): every thread that
     * holds the view writes its owner's single-writer cell in the owner's counter array (plain
     * read, opaque store). Two adds at the same moment
     * lose one. Proves that the view test shape sees statvar lose a count.
     */
    @JCStressTest
    @Description("BROKEN on purpose: CounterView on statvar with Broken.VIEW_ANY_THREAD (no owner check); must show a lost add")
    @Outcome(id = "(10|1|0), 2, 0, [01]", expect = ACCEPTABLE, desc = "both adds counted once, in interval 1")
    @Outcome(id = "(10|1|0), 1, 1, [12]", expect = ACCEPTABLE, desc = "both adds counted once, actor 1's in interval 2")
    @Outcome(id = "(10|1|0), 1, 0, [0-2]", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: LOST, two threads wrote the owner's single-writer cell at once and one add was overwritten")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenViewAnyThread extends CounterShape {
        static {
            turnOn("VIEW_ANY_THREAD");
        }

        @Actor
        public void adder1() {
            adder();
        }

        @Actor
        public void adder2ThenCollector(JJJJ_Result r) {
            adderThenCollector(r);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            close(r);
        }
    }
}
