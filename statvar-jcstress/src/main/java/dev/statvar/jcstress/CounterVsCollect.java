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
 * that registry always takes the slow path (creates its Block and its counter array,
 * {@code Block.counters}, under the engine lock); the tests warm up with a second counter where
 * they mean to exercise the lock-free fast path. The warm-up counter is registered first, yet its
 * add makes an array that covers the counter under test too: a thread's first counter array holds
 * 8 counters (Layout.MIN_LENGTH), one cell each at DATA_START + the counter's index. Counters are
 * not tiered by hotAfter (a counter's cell costs 8 bytes from the first add), so the default
 * registry gives every thread its own cells at once.
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

        /** Fast path: the warm-up (slow path: creates the thread's Block, installs it in the thread table, makes its counter array) comes before the start line. */
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
     * Fast path: the adding thread first updates {@code warm} (slow path: creates its Block, installs
     * it in the engine's thread table and makes its counter array, which covers {@code c} too), so
     * {@code counter.add()} is the lock-free update (thread-table hit, the cell at DATA_START + the
     * counter's index in the thread's counter array: plain read, opaque store) racing collect's
     * opaque read of the same cell (IntervalCloser.readCounters, after collect() released the
     * engine lock: it reads each live thread's counter array, taken with acquire, without the lock).
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
     * Slow path: the add is the thread's first update in this registry, so it creates its Block
     * (installed in the thread table, added to the list of fresh blocks the collector takes) and
     * then its counter array, each under the engine lock, racing collect() for that lock (the new
     * block may be taken just before or just after the collector walks the blocks) and its
     * lock-free read of the counter arrays (the array, published with release, made before or
     * after the collector takes it with acquire).
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
     * Local view: the adder takes {@code counter.localView()} (a LocalCounter holding the thread's
     * Block and the counter's cell index: no array of its own; the warm-up made the counter array,
     * so taking the view takes no lock) and adds through it: a plain read and an opaque store at
     * that constant index of the thread's counter array, with no thread-table lookup, racing
     * collect's opaque read of the cell (IntervalCloser.readCounters).
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
