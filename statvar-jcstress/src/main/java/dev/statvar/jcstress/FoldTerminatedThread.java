package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
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
 * Subject 6: a thread that updates and terminates, its storage folded by collect().
 *
 * <p>collect() checks {@code Thread.isAlive()} of each Block's owner BEFORE reading its arrays; if
 * the owner has terminated (which happens-after all its writes, JLS 17.4.4) it reads the final
 * values (its counter array, gauge array, gauge views' arrays and histogram arrays), adds them to
 * the stats' retired totals, frees its slots in the thread table and the histograms' tables, and
 * drops the Block. The fold must keep every count exactly once: in the interval that read it, and
 * never again afterwards.
 *
 * <p>The registry has {@code hotAfter(1)}: the worker's gauge reports and histogram records go to
 * arrays of its own, which the fold reads. (With the default, 1,000, a short-lived thread's few
 * updates of a gauge or histogram go to the shared stripes, which no fold touches.)
 *
 * <p>How the fold races the collect: jcstress actors are pooled threads that never end, so each
 * sample has its own real, short-lived worker thread (created, not started, with the state).
 * The starter actor starts it and joins it. The worker makes its first updates (its Block and
 * arrays now exist), meets the collector actor at {@link Race}'s start line (a bounded wait: thread
 * start is about 100 times slower than an update), is delayed as the sample's mode says, makes
 * the update under test and terminates: so its last update and its termination land anywhere
 * from before collect 1 to after it, sweeping the window in which isAlive() turns false. The
 * arbiter then runs collect 2 (the worker is certainly dead: it folds the Block if collect 1 did
 * not) and collect 3 (must deliver nothing of the worker). The collector samples the worker's
 * state just before and just after collect 1, so each sample says where collect 1 stood (last
 * result field, the "fold case"):
 * <ul>
 *   <li>0: terminated before collect 1 began: collect 1 folds it and must count everything;</li>
 *   <li>1: still alive after collect 1: collect 1 read its cells live (may or may not see the
 *       update), collect 2 folds it;</li>
 *   <li>2: terminated during collect 1: the fold raced the termination (collect 1 saw it alive or
 *       dead);</li>
 *   <li>3: not even started when collect 1 returned (only if the bounded wait ran out).</li>
 * </ul>
 *
 * <p>Broken variant: {@link BrokenNoIsAlive}, statvar with the isAlive() check before the fold
 * removed ({@link dev.statvar.internal.Broken#NO_ISALIVE}).
 */
public class FoldTerminatedThread {

    /** A state with a short-lived worker thread that meets the collector before its update under test. */
    abstract static class WithWorker extends Race {
        final StatRegistry registry = StatRegistry.builder().hotAfter(1).build();
        final Thread worker = new Thread(this::work, "statvar-jcstress-worker");

        /** The worker's body: ends by {@link #updaterAtStart()}, the update under test and {@link #updaterDone()}. */
        abstract void work();

        void starter() {
            worker.start();
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while joining the worker", e);
            }
        }

        /** Collector side: collect 1, returning the fold case. */
        long collectFirst() {
            collectorAtStart();
            Thread.State before = worker.getState();
            collected(registry.collect());
            Thread.State after = worker.getState();
            if (before == Thread.State.TERMINATED) {
                return 0;
            }
            if (after == Thread.State.TERMINATED) {
                return 2;
            }
            return after == Thread.State.NEW ? 3 : 1;
        }

        abstract void collected(Snapshot first);
    }

    /**
     * Shape of the counter fold: the worker warms up (creates its Block and its counter array,
     * which covers "c" too: a first counter array holds 8 counters), then adds once on the fast path.
     */
    abstract static class CounterShape extends WithWorker {
        final Counter warm = registry.counter("warm");
        final Counter counter = registry.counter("c");
        long first;

        @Override
        void work() {
            warm.add();    // slow path: creates the worker's Block and counter array
            updaterAtStart();
            counter.add(); // fast path
            updaterDone();
        }

        @Override
        void collected(Snapshot s) {
            first = s.counter("c");
        }

        void collector(JJJJ_Result r) {
            r.r4 = collectFirst();
            r.r1 = first;
        }

        void close(JJJJ_Result r) {
            r.r2 = registry.collect().counter("c");
            r.r3 = registry.collect().counter("c");
        }
    }

    /**
     * Counter: the worker warms up (creates its counter array), meets the collector, adds once on the
     * fast path, then terminates. Result: the counter in interval 1 (collector), 2 and 3
     * (arbiter), fold case.
     */
    @JCStressTest
    @Description("A short-lived thread adds once and terminates while collect() runs: its add counted exactly once, in interval 1 or 2")
    @Outcome(id = "1, 0, 0, [0-2]", expect = ACCEPTABLE,
            desc = "collect 1 saw the add (folded, or read live while the thread was alive or terminating); nothing more later")
    @Outcome(id = "0, 1, 0, [123]", expect = ACCEPTABLE, desc = "collect 1 did not see the add; collect 2 folded the dead thread with it")
    @Outcome(id = "0, 1, 0, 0", expect = FORBIDDEN,
            desc = "terminated before collect 1 began, yet collect 1 missed its add (isAlive()==false happens-after its writes)")
    @Outcome(id = "1, 0, 0, 3", expect = FORBIDDEN, desc = "collect 1 counted the add of a thread not yet started")
    @Outcome(id = "0, 0, 0, .*", expect = FORBIDDEN, desc = "LOST: the add is in no interval")
    @Outcome(id = F + ", " + F + ", -?[1-9][0-9]*, .*", expect = FORBIDDEN, desc = "DOUBLED: the folded add delivered again in interval 3")
    @Outcome(expect = FORBIDDEN, desc = "anything else: the add doubled or a count never made")
    @State
    public static class CounterFold extends CounterShape {
        @Actor
        public void starter() {
            super.starter();
        }

        @Actor
        public void collector(JJJJ_Result r) {
            super.collector(r);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            close(r);
        }
    }

    /**
     * Every kind of storage a thread leaves: its counter array (Block.counters), its gauge array
     * (Block.cells), a gauge local view's array (Block.views), and a histogram array (Block.hists,
     * with its view in the histogram's table). Before the start line the worker adds to the
     * counter (its Block and counter array) and reports to the gauge "warm", registered after "g"
     * (its gauge array, covering "g" too). Past the start line it adds to the counter through a
     * local view (a LocalCounter: the same counter array, at a constant index), reports 42 to the
     * gauge (fast path, its gauge array) and 42 through the gauge's local view (its view array,
     * made under the lock), records 42 in the histogram (its first record: view and array made
     * under the lock), then terminates. Result: the counter's total over the three intervals (2),
     * the gauge's count and sum totals (2, 84), the histogram's count and sum totals (1, 42),
     * everything delivered in interval 3 (0: counts, sums, min and max added up), the min/max
     * placement (gauge x 10 + histogram, each: 1 = 42 in the min/max of every interval counting
     * it and in no other one, 2 = also in an interval not counting it, +4 when a min/max is
     * marked inexact, 0 = missing from an interval counting it, 9 = another value, or the
     * intervals do not count it the right number of times), and the fold case, 4 instead of 0
     * when the worker had terminated before collect 1 but collect 1 missed any of it or interval
     * 2 holds any of it.
     */
    @JCStressTest
    @Description("A short-lived thread updates a counter and a gauge (each also via a view) and a histogram and terminates while collect() runs: all kept once")
    @Outcome(id = "2, 2, 84, 1, 42, 0, 11, [0-3]", expect = ACCEPTABLE,
            desc = "every update of the terminated thread counted exactly once over the intervals, nothing re-delivered after the "
                    + "fold, 42 in the min/max of the interval counting it")
    @Outcome(id = "2, 2, 84, 1, 42, 0, [1256][1256], [1-3]", expect = ACCEPTABLE_INTERESTING,
            desc = "as above, with a documented race: 42 also in the other interval's min/max, and/or isMinMaxExact() false")
    @Outcome(id = "2, 2, 84, 1, 42, 0, " + F + ", 4", expect = FORBIDDEN,
            desc = "terminated before collect 1 began, yet collect 1 missed some of its updates, or interval 2 holds some")
    @Outcome(id = F + ", " + F + ", " + F + ", " + F + ", " + F + ", -?[1-9][0-9]*, .*", expect = FORBIDDEN,
            desc = "DOUBLED: the fold delivered values again in interval 3")
    @Outcome(id = "2, 2, 84, 1, 42, 0, ([0-9]0|0[0-9]), .*", expect = FORBIDDEN,
            desc = "an interval that counts a gauge report or the histogram record has no min/max 42")
    @Outcome(expect = FORBIDDEN, desc = "anything else: an update lost or doubled, or another value in a min/max")
    @State
    public static class AllKinds extends WithWorker {
        final Counter counter = registry.counter("c");
        final Gauge gauge = registry.gauge("g");
        final Gauge warm = registry.gauge("warm");
        final Histogram histogram = registry.histogram("h");
        Snapshot first;

        @Override
        void work() {
            counter.add();                 // slow path: the worker's Block and counter array
            warm.report(0);                // slow path: the worker's gauge array, covering "warm" and so "g"
            updaterAtStart();
            counter.localView().add();     // LocalCounter: the worker's counter array, at the counter's cell
            gauge.report(42);              // fast path: the worker's gauge array
            gauge.localView().report(42);  // the worker's view array for the gauge (created under the lock)
            histogram.record(42);          // the worker's histogram view and array (slow path, first record)
            updaterDone();
        }

        @Override
        void collected(Snapshot s) {
            first = s;
        }

        @Actor
        public void starter() {
            super.starter();
        }

        @Actor
        public void collector(JJJJJJJJ_Result r) {
            r.r8 = collectFirst();
        }

        @Arbiter
        public void arbiter(JJJJJJJJ_Result r) {
            Snapshot second = registry.collect();
            Snapshot third = registry.collect();
            GaugeValue g1 = first.gauge("g");
            GaugeValue g2 = second.gauge("g");
            GaugeValue g3 = third.gauge("g");
            HistogramValue h1 = first.histogram("h");
            HistogramValue h2 = second.histogram("h");
            HistogramValue h3 = third.histogram("h");
            r.r1 = first.counter("c") + second.counter("c") + third.counter("c");
            r.r2 = g1.count() + g2.count() + g3.count();
            r.r3 = g1.sum() + g2.sum() + g3.sum();
            r.r4 = h1.count() + h2.count() + h3.count();
            r.r5 = h1.sum() + h2.sum() + h3.sum();
            r.r6 = third.counter("c") + g3.count() + g3.sum() + g3.min() + g3.max()
                    + h3.count() + h3.sum() + h3.min() + h3.max();
            r.r7 = 10 * placement(2, g1.count(), Codes.minMax(g1, 42, 42), g2.count(), Codes.minMax(g2, 42, 42))
                    + placement(1, h1.count(), Codes.minMax(h1, 42, 42), h2.count(), Codes.minMax(h2, 42, 42));
            if (r.r8 == 0) {
                boolean allInFirst = first.counter("c") == 2 && g1.count() == 2 && g1.sum() == 84 && h1.count() == 1
                        && h1.sum() == 42 && Codes.minMax(g1, 42, 42) == 1 && Codes.minMax(h1, 42, 42) == 1
                        && g2.isEmpty() && h2.isEmpty();
                r.r8 = allInFirst ? 0 : 4;
            }
        }

        /**
         * Where 42 sits in the min/max of intervals 1 and 2 (codes of {@link Codes}), given which
         * intervals count the {@code n} updates (all of value 42): see the test's comment.
         */
        static long placement(long n, long count1, long mm1, long count2, long mm2) {
            if (count1 + count2 != n || Math.abs(mm1) > 1 || Math.abs(mm2) > 1) {
                return 9;
            }
            if ((count1 > 0 && mm1 == 0) || (count2 > 0 && mm2 == 0)) {
                return 0;
            }
            boolean widened = (count1 == 0 && mm1 != 0) || (count2 == 0 && mm2 != 0);
            return (widened ? 2 : 1) + (mm1 < 0 || mm2 < 0 ? 4 : 0);
        }
    }

    /**
     * BROKEN on purpose: {@link CounterFold} run on statvar with the isAlive() check before a fold
     * removed ({@link dev.statvar.internal.Broken#NO_ISALIVE}): collect() folds the worker's
     * Block (reads its counter array, drops it) while the worker may still be running; an add
     * stored after that goes into an array nobody reads. Proves that the fold test shape sees statvar
     * lose a count.
     */
    @JCStressTest
    @Description("BROKEN on purpose: CounterFold on statvar with Broken.NO_ISALIVE (a live thread's array folded); must show a lost add")
    @Outcome(id = "1, 0, 0, [0-2]", expect = ACCEPTABLE, desc = "collect 1 saw the add; nothing more later")
    @Outcome(id = "0, 1, 0, [123]", expect = ACCEPTABLE, desc = "collect 1 did not see the add; collect 2 folded it (or a later array)")
    @Outcome(id = "0, 0, 0, [12]", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: LOST, the add went into the worker's array after collect 1 had folded and dropped it "
                    + "while the worker was alive")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenNoIsAlive extends CounterShape {
        static {
            turnOn("NO_ISALIVE");
        }

        @Actor
        public void starter() {
            super.starter();
        }

        @Actor
        public void collector(JJJJ_Result r) {
            super.collector(r);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            close(r);
        }
    }
}
