package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 1: one {@code Counter.add()} racing {@code StatRegistry.collect()}.
 *
 * <p>Shape of every test here: actor 1 adds once, actor 2 closes interval 1 with {@code collect()},
 * the arbiter (after both) closes interval 2. Result {@code (r1, r2)} = the counter's value in
 * interval 1 and in interval 2. The contract (StatRegistry, "Threading contract"): the add lands in
 * exactly one of the two intervals, so {@code (1, 0)} and {@code (0, 1)} are the only correct
 * outcomes; {@code (0, 0)} is a lost count, {@code (1, 1)} a doubled one.
 *
 * <p>Each sample has a fresh registry (state object), so the updating thread's first update in
 * that registry always takes the slow path (creates its cell array under the engine lock); the
 * tests warm up with a second counter where they mean to exercise the lock-free fast path.
 */
public class CounterVsCollect {

    /** Shared shape: a fresh registry, a warm-up counter and the counter under test. */
    static class Registry {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final Counter counter = registry.counter("c");

        long collect() {
            return registry.collect().counter("c");
        }
    }

    /**
     * Fast path: the adding thread first updates {@code warm} (slow path: creates and installs its
     * cell array in the thread-id table), so {@code counter.add()} is the lock-free update (table
     * hit, plain read, opaque store) racing collect's opaque read of the same cell.
     */
    @JCStressTest
    @Description("Counter.add() on the lock-free fast path racing collect(): the add lands in exactly one interval")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the add landed in the next interval (closed by the arbiter)")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST: the add is in neither interval")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "DOUBLED: the add is in both intervals")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a count that was never added")
    @State
    public static class Exact extends Registry {
        @Actor
        public void adder() {
            warm.add();
            counter.add();
        }

        @Actor
        public void collector(JJ_Result r) {
            r.r1 = collect();
        }

        @Arbiter
        public void arbiter(JJ_Result r) {
            r.r2 = collect();
        }
    }

    /**
     * Slow path: the add is the thread's first update in this registry, so it creates its cell
     * array and installs it in the table under the engine lock, racing collect() for that lock (the
     * new array may be registered just before or just after the collector walks the blocks).
     */
    @JCStressTest
    @Description("A thread's first Counter.add() (slow path: creates and installs its cells under the lock) racing collect()")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the add landed in the next interval (closed by the arbiter)")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST: the add is in neither interval")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "DOUBLED: the add is in both intervals")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a count that was never added")
    @State
    public static class FirstUpdate extends Registry {
        @Actor
        public void adder() {
            counter.add();
        }

        @Actor
        public void collector(JJ_Result r) {
            r.r1 = collect();
        }

        @Arbiter
        public void arbiter(JJ_Result r) {
            r.r2 = collect();
        }
    }

    /**
     * Local view: the adder takes {@code counter.localView()} (its own one-stat array, created
     * under the lock) and adds through it: an opaque store at a constant index of the view's
     * array, racing collect's switch and opaque read of that array (readView).
     */
    @JCStressTest
    @Description("localView().add() racing collect(): the add lands in exactly one interval")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the add landed in the next interval (closed by the arbiter)")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST: the add is in neither interval")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "DOUBLED: the add is in both intervals")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a count that was never added")
    @State
    public static class LocalView extends Registry {
        @Actor
        public void adder() {
            warm.add();
            counter.localView().add();
        }

        @Actor
        public void collector(JJ_Result r) {
            r.r1 = collect();
        }

        @Arbiter
        public void arbiter(JJ_Result r) {
            r.r2 = collect();
        }
    }

    /**
     * BROKEN on purpose: the seed's read-then-reset. The writer does a plain read-modify-write of
     * the cell, the collector reads the cell and then sets it to 0. A write between the
     * collector's read and its reset is wiped out: {@code (0, 0)}. This test shares the shape of
     * the ones above (one add, a collect, the arbiter's collect) and exists to show that the shape
     * can see a lost count.
     */
    @JCStressTest
    @Description("BROKEN on purpose: read-then-reset of a plain cell; proves the test shape can see a lost count")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the add landed in the next interval")
    @Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "the broken protocol loses/doubles a count: this variant exists to prove the test can see it (here: lost, reset between the collector's read and its store of 0)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: impossible even for the broken protocol")
    @State
    public static class BrokenReadThenReset {
        long cell;

        @Actor
        public void adder() {
            cell = cell + 1; // plain read-modify-write, as the seed's counters
        }

        @Actor
        public void collector(JJ_Result r) {
            r.r1 = cell; // read ...
            cell = 0;    // ... then reset: an add in between is lost
        }

        @Arbiter
        public void arbiter(JJ_Result r) {
            r.r2 = cell;
        }
    }
}
