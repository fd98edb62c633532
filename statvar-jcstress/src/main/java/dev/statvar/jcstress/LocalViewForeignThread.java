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
import org.openjdk.jcstress.infra.results.JJJJJJ_Result;
import org.openjdk.jcstress.infra.results.JJJJ_Result;
import org.openjdk.jcstress.infra.results.J_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

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
 * actor 1, actor 2 or the harness thread. Each actor reports whether it is the owner, and the
 * outcome says which case the sample was:
 * <ul>
 *   <li>{@code 1, 0, ...}: actor 1 owns the view (its update takes the local path: its own view
 *       array, constant index, no lookup) while actor 2 uses the same view as a foreign thread
 *       (the owner check fails: the ordinary path through actor 2's own cells);</li>
 *   <li>{@code 0, 1, ...}: the same with the roles swapped;</li>
 *   <li>{@code 0, 0, ...}: neither owns it: both take the foreign path, racing each other.</li>
 * </ul>
 * Counter.localView() javadoc: "Used from any other thread it still counts correctly, through
 * the ordinary path." So in every case the total over both intervals is exact.
 *
 * <p>Two actors, not three: jcstress 0.16 does not schedule a test with more actors than CPUs
 * ("No scheduling is possible, these tests would not run") and CI has 2. So actor 2 updates
 * and then closes interval 1 itself, racing actor 1's update; its own update, made before its
 * collect, must be in interval 1, which the outcomes check too.
 */
public class LocalViewForeignThread {

    /**
     * Counter view: each actor warms up (so that a foreign actor's add is on the lock-free fast
     * path of its own cells), then adds once through the shared view; actor 2 then collects.
     * Result: owner flags of actor 1 and 2, then the counter's value in interval 1 (actor 2's
     * collect) and 2 (arbiter).
     */
    @JCStressTest
    @Description("A counter's localView() used by its owner and by a foreign thread at once, racing collect(): total exactly 2")
    @Outcome(id = "1, 0, (2, 0|1, 1)", expect = ACCEPTABLE,
            desc = "actor 1 owns the view (local path), actor 2 is foreign (ordinary path): both adds counted once")
    @Outcome(id = "0, 1, (2, 0|1, 1)", expect = ACCEPTABLE,
            desc = "actor 2 owns the view (local path), actor 1 is foreign (ordinary path): both adds counted once")
    @Outcome(id = "0, 0, (2, 0|1, 1)", expect = ACCEPTABLE,
            desc = "neither actor owns the view (built by the harness thread): both foreign, both counted once")
    @Outcome(id = "[01], [01], 0, 2", expect = FORBIDDEN,
            desc = "actor 2's own add, made before its collect, is missing from the interval that collect closed")
    @Outcome(id = "[01], [01], (0, [01]|1, 0)", expect = FORBIDDEN, desc = "LOST: fewer than 2 adds counted over both intervals")
    @Outcome(expect = FORBIDDEN, desc = "anything else: an add doubled, or both actors claiming the view")
    @State
    public static class CounterView {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final Counter counter = registry.counter("c");
        /** Owned by the thread that builds this state (see the class comment). */
        final Counter view = counter.localView();
        final Thread owner = Thread.currentThread();

        long add() {
            warm.add();
            view.add();
            return Thread.currentThread() == owner ? 1 : 0;
        }

        @Actor
        public void adder(JJJJ_Result r) {
            r.r1 = add();
        }

        @Actor
        public void adderThenCollector(JJJJ_Result r) {
            r.r2 = add();
            r.r3 = registry.collect().counter("c");
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            r.r4 = registry.collect().counter("c");
        }
    }

    /**
     * Histogram view: the owner's view caches the owner's histogram array (refreshed through the
     * slow path when a record falls outside it: here its first record creates the array), a
     * foreign thread's record goes through the table to its own array. Each actor records 42
     * once through the view; actor 2 then collects. Result: owner flags, then count of interval
     * 1 and 2, then sum of interval 1 and 2.
     */
    @JCStressTest
    @Description("A histogram's localView() used by its owner and by a foreign thread at once, racing collect(): count 2 and sum 84 exact")
    @Outcome(id = "(1, 0|0, 1|0, 0), (2, 0, 84, 0|1, 1, 42, 42)", expect = ACCEPTABLE,
            desc = "both records counted once, each value in the sum of the interval counting it (owner flags as in CounterView)")
    @Outcome(id = "(1, 0|0, 1|0, 0), 1, 1, 84, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "documented race: actor 1's value already in the sum of interval 1 while its bucket is counted in interval 2")
    @Outcome(id = "[01], [01], 0, 2, .*", expect = FORBIDDEN,
            desc = "actor 2's own record, made before its collect, is missing from the interval that collect closed")
    @Outcome(id = "[01], [01], (0, [01]|1, 0), .*", expect = FORBIDDEN, desc = "LOST: fewer than 2 records counted over both intervals")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record doubled, a sum wrong or lagging its count, or both actors claiming the view")
    @State
    public static class HistogramView {
        final StatRegistry registry = StatRegistry.create();
        final Histogram histogram = registry.histogram("h");
        /** Owned by the thread that builds this state (see the class comment). */
        final Histogram view = histogram.localView();
        final Thread owner = Thread.currentThread();

        long record() {
            view.record(42);
            return Thread.currentThread() == owner ? 1 : 0;
        }

        @Actor
        public void recorder(JJJJJJ_Result r) {
            r.r1 = record();
        }

        @Actor
        public void recorderThenCollector(JJJJJJ_Result r) {
            r.r2 = record();
            HistogramValue h = registry.collect().histogram("h");
            r.r3 = h.count();
            r.r5 = h.sum();
        }

        @Arbiter
        public void arbiter(JJJJJJ_Result r) {
            HistogramValue h = registry.collect().histogram("h");
            r.r4 = h.count();
            r.r6 = h.sum();
        }
    }

    /**
     * BROKEN on purpose: a "local view" without the owner check, i.e. any thread that holds it
     * writes the owner's cell with statvar's single-writer update (plain read, opaque store).
     * Two threads doing that at once lose an add. Result: the total after both adds (no
     * collector needed: the two writers alone break it).
     */
    @JCStressTest
    @Description("BROKEN on purpose: a view that writes its owner's cell from any thread; proves the test shape can see a lost count")
    @Outcome(id = "2", expect = ACCEPTABLE, desc = "both adds counted")
    @Outcome(id = "1", expect = ACCEPTABLE_INTERESTING,
            desc = "the broken protocol loses/doubles a count: this variant exists to prove the test can see it "
                    + "(here: two writers on a single-writer cell, one add lost)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: impossible even for the broken protocol")
    @State
    public static class BrokenNoOwnerCheck {
        static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
        /** The owner's one-stat view array. */
        final long[] cells = new long[1];

        void add() {
            LONGS.setOpaque(cells, 0, cells[0] + 1); // statvar's addInto(), from whichever thread calls
        }

        @Actor
        public void owner() {
            add();
        }

        @Actor
        public void foreign() {
            add();
        }

        @Arbiter
        public void arbiter(J_Result r) {
            r.r1 = (long) LONGS.getOpaque(cells, 0);
        }
    }
}
