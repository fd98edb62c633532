package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 1: one {@code Counter.add()} racing {@code StatRegistry.collect()}.
 *
 * <p>Shape of every test here: actor 1 adds once, actor 2 closes interval 1 with {@code collect()},
 * the arbiter (after both) closes interval 2; {@link Race} lines them up and spreads the add over
 * the collect. Result {@code (r1, r2, phase)}: the counter's value in interval 1 and in interval 2,
 * and where the add stood ({@link Race}: 0 done before collect() began, 1 overlapping, 2 begun
 * after it returned). The contract (StatRegistry, "Threading contract"): the add lands in exactly
 * one of the two intervals, so {@code (1, 0)} and {@code (0, 1)} are the only correct values;
 * {@code (0, 0)} is a lost count, {@code (1, 1)} a doubled one; and an add that did not overlap
 * the collect lands on its side of it.
 *
 * <p>Each sample has a fresh registry (state object), so the adding thread's first update in
 * that registry always takes the slow path (creates its cell array under the engine lock); the
 * tests warm up with a second counter where they mean to exercise the lock-free fast path.
 *
 * <p>Broken variant: {@link BrokenNoIsAlive}. A counter's exactness rests on single-writer cells
 * that are never reset (the collector differences cumulative totals); it needs no memory ordering
 * beyond the atomicity of a long, so there is no ordering of the counter path to remove. What the
 * collector must never do is drop a live thread's cells: the broken variant is statvar with the
 * {@code isAlive()} check before a fold removed ({@link dev.statvar.internal.Broken#NO_ISALIVE}).
 */
public class CounterVsCollect {

    /** Shared shape: a fresh registry, a warm-up counter and the counter under test. */
    abstract static class Shape extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final Counter counter = registry.counter("c");

        /** Fast path: the warm-up (slow path: creates and installs the thread's cells) comes before the start line. */
        void addWarm() {
            warm.add();
            updaterAtStart();
            counter.add();
            updaterDone();
        }

        void collect(JJJ_Result r) {
            collectorAtStart();
            boolean doneBefore = updateDone();
            r.r1 = registry.collect().counter("c");
            r.r3 = phase(doneBefore);
        }

        void close(JJJ_Result r) {
            r.r2 = registry.collect().counter("c");
        }
    }

    /**
     * Fast path: the adding thread first updates {@code warm} (slow path: creates and installs its
     * cell array in the thread-id table), so {@code counter.add()} is the lock-free update (table
     * hit, plain read, opaque store) racing collect's opaque read of the same cell.
     */
    @JCStressTest
    @Description("Counter.add() on the lock-free fast path racing collect(): the add lands in exactly one interval")
    @Outcome(id = "1, 0, [01]", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1, [12]", expect = ACCEPTABLE, desc = "the add landed in the next interval (closed by the arbiter)")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST: the add is in neither interval")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "DOUBLED: the add is in both intervals")
    @Outcome(id = "0, 1, 0", expect = FORBIDDEN, desc = "the add was done before collect() began, yet it is not in the interval collect() closed")
    @Outcome(id = "1, 0, 2", expect = FORBIDDEN, desc = "the add began after collect() returned, yet it is in the interval collect() closed")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a count that was never added")
    @State
    public static class Exact extends Shape {
        @Actor
        public void adder() {
            addWarm();
        }

        @Actor
        public void collector(JJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }

    /**
     * Slow path: the add is the thread's first update in this registry, so it creates its cell
     * array and installs it in the table under the engine lock, racing collect() for that lock (the
     * new array may be registered just before or just after the collector walks the blocks).
     */
    @JCStressTest
    @Description("A thread's first Counter.add() (slow path: creates and installs its cells under the lock) racing collect()")
    @Outcome(id = "1, 0, [01]", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1, [12]", expect = ACCEPTABLE, desc = "the add landed in the next interval (closed by the arbiter)")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST: the add is in neither interval")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "DOUBLED: the add is in both intervals")
    @Outcome(id = "0, 1, 0", expect = FORBIDDEN, desc = "the add was done before collect() began, yet it is not in the interval collect() closed")
    @Outcome(id = "1, 0, 2", expect = FORBIDDEN, desc = "the add began after collect() returned, yet it is in the interval collect() closed")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a count that was never added")
    @State
    public static class FirstUpdate extends Shape {
        @Actor
        public void adder() {
            updaterAtStart();
            counter.add();
            updaterDone();
        }

        @Actor
        public void collector(JJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }

    /**
     * Local view: the adder takes {@code counter.localView()} (its own one-stat array, created
     * under the lock, racing collect() for it) and adds through it: an opaque store at a constant
     * index of the view's array, racing collect's switch and opaque read of that array (readView).
     */
    @JCStressTest
    @Description("localView().add() racing collect(): the add lands in exactly one interval")
    @Outcome(id = "1, 0, [01]", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed")
    @Outcome(id = "0, 1, [12]", expect = ACCEPTABLE, desc = "the add landed in the next interval (closed by the arbiter)")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST: the add is in neither interval")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "DOUBLED: the add is in both intervals")
    @Outcome(id = "0, 1, 0", expect = FORBIDDEN, desc = "the add was done before collect() began, yet it is not in the interval collect() closed")
    @Outcome(id = "1, 0, 2", expect = FORBIDDEN, desc = "the add began after collect() returned, yet it is in the interval collect() closed")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a count that was never added")
    @State
    public static class LocalView extends Shape {
        @Actor
        public void adder() {
            warm.add();
            updaterAtStart();
            counter.localView().add();
            updaterDone();
        }

        @Actor
        public void collector(JJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }

    /**
     * BROKEN on purpose: {@link Exact} run on statvar with one step removed,
     * {@link dev.statvar.internal.Broken#NO_ISALIVE}: collect() folds every thread's block as if its
     * owner had terminated (reads its values into the retired totals and drops it) without asking
     * {@code isAlive()}. The adder's block exists before the start line, so collect() drops it
     * while the adder is alive; an add stored after that goes into a block nobody reads.
     * Proves that the counter test shape sees statvar lose a count.
     */
    @JCStressTest
    @Description("BROKEN on purpose: Exact on statvar with Broken.NO_ISALIVE (a live thread's block folded and dropped); must show a lost add")
    @Outcome(id = "1, 0, [01]", expect = ACCEPTABLE, desc = "the add landed in the interval collect() closed (it was in the block when it was folded)")
    @Outcome(id = "0, 1, [12]", expect = ACCEPTABLE, desc = "the add landed in the next interval (a new block, the dropped one having been garbage-collected)")
    @Outcome(id = "0, 0, [12]", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: LOST, the add went into the live thread's block after collect() had folded and dropped it")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenNoIsAlive extends Shape {
        static {
            turnOn("NO_ISALIVE");
        }

        @Actor
        public void adder() {
            addWarm();
        }

        @Actor
        public void collector(JJJ_Result r) {
            collect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }
}
