package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import dev.statvar.CounterValue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJ_Result;

import java.util.function.ToLongFunction;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 8: removal of a series ({@code StatFamily.remove}) racing an update through its handle
 * and {@code collect()}, and a handle kept after the removal racing the series that registers
 * later ({@code StatFamily} "Removal": the removed series' cells are reused only once no handle of
 * it is reachable).
 *
 * <p>{@link RemoveVsAdd}: actor 1 adds once to series "a"; actor 2 removes "a" and collects (its
 * last interval); the arbiter collects once more, in which "a" must not appear.
 * {@link StaleVsNewOwner}: the state removes "a" while holding its handle and collects it out; a
 * series "b" registered afterwards; actor 1 adds once through the stale handle of "a", actor 2
 * once to "b" and then collects; the arbiter collects again: "b" must count exactly its own add.
 *
 * {@link StaleHistogramVsNewOwner}: the same for a histogram, whose slot is reused at the next
 * collect although the removed handle is held (its arrays are not: each generation of a slot
 * records into arrays of its own); the stale handle records through its thread's own view.
 *
 * <p>Broken variants: {@link BrokenReuseHeld}, {@link StaleVsNewOwner} on statvar whose collect
 * reclaims a removed counter's cells without waiting for its handle to become unreachable
 * ({@link dev.statvar.internal.Broken#REUSE_HELD}): "b" takes the cells of "a" and the stale
 * add counts into it. {@link BrokenHistogramReuseHeld}: {@link StaleHistogramVsNewOwner} with the
 * same switch, under which a reclaimed histogram's records go to its slot's current arrays.
 */
public class SlotReuse {
    private static final Labels A = Labels.of("k", "a");
    private static final Labels B = Labels.of("k", "b");

    /** The value of counter series {@code l} in {@code s}, plus 10 for every further value of it; 0 if absent. */
    static long value(Snapshot s, Labels l) {
        return of(s, l, x -> ((CounterValue) x).value());
    }

    /** The count of histogram series {@code l} in {@code s}, plus 10 for every further value of it; 0 if absent. */
    static long count(Snapshot s, Labels l) {
        return of(s, l, x -> ((HistogramValue) x).count());
    }

    private static long of(Snapshot s, Labels l, ToLongFunction<StatValue> read) {
        long v = 0;
        boolean seen = false;
        for (StatValue x : s) {
            if (x.labels().equals(l)) {
                v += (seen ? 10 : 0) + read.applyAsLong(x);
                seen = true;
            }
        }
        return v;
    }

    /**
     * Result: value of "a" in the interval actor 2's collect closed (its last), its value in the
     * arbiter's interval (0: gone), phase of actor 1's add against actor 2's remove-and-collect
     * ({@link Race}: 0 done before the remove began).
     */
    @JCStressTest
    @Description("StatFamily.remove() racing an add through the series' handle and collect(): the add counted at most once, "
            + "exactly once if it happened-before the removal, and never after the last interval")
    @Outcome(id = "1, 0, [01]", expect = ACCEPTABLE, desc = "the add is in the series' last interval")
    @Outcome(id = "0, 0, [12]", expect = ACCEPTABLE,
            desc = "the add raced or followed the removal and is counted nowhere (allowed: a stale handle's update)")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "LOST: the add happened-before remove() yet is not in the last interval")
    @Outcome(id = "1, 0, 2", expect = FORBIDDEN, desc = "the add began after the last collect returned, yet is in its interval")
    @Outcome(expect = FORBIDDEN, desc = "anything else: the add counted twice, or the removed series shown after its last interval")
    @State
    public static class RemoveVsAdd extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final StatFamily<Counter> family = registry.counterFamily("c", "", "k");
        final Counter a = family.labels("a");

        @Actor
        public void adder() {
            warm.add(); // the thread's Block and counter array (which covers "a") before the start line
            updaterAtStart();
            a.add();
            updaterDone();
        }

        @Actor
        public void remover(JJJ_Result r) {
            warm.add();
            collectorAtStart();
            boolean doneBefore = updateDone();
            family.remove("a");
            r.r1 = value(registry.collect(), A);
            r.r3 = phase(doneBefore);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            r.r2 = value(registry.collect(), A) + (family.existing("a") == null ? 0 : 100);
        }
    }

    /** Shared shape: "a" removed and collected out with its handle held, then "b" registered. */
    abstract static class StaleShape extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final StatFamily<Counter> family = registry.counterFamily("c", "", "k");
        final Counter stale = family.labels("a");
        final Counter b;

        StaleShape() {
            family.remove("a");
            registry.collect(); // the last interval of "a"
            registry.collect(); // would reclaim its cells if its handle were unreachable
            b = family.labels("b");
        }

        void staleAdd() {
            warm.add(); // the thread's counter array, covering the cells of "a" and "b"
            updaterAtStart();
            stale.add();
            updaterDone();
        }

        void addAndCollect(JJJ_Result r) {
            warm.add();
            collectorAtStart();
            b.add();
            boolean doneBefore = updateDone();
            r.r1 = value(registry.collect(), B);
            r.r3 = phase(doneBefore);
        }

        void close(JJJ_Result r) {
            r.r2 = value(registry.collect(), B);
        }
    }

    /** Result: the value of "b" in actor 2's interval and in the arbiter's, phase of the stale add. */
    @JCStressTest
    @Description("An add through a removed series' handle racing a later series' add and collect(): never counted into the later series")
    @Outcome(id = "1, 0, [0-2]", expect = ACCEPTABLE, desc = "b counts exactly its own add; the stale add is counted nowhere")
    @Outcome(expect = FORBIDDEN, desc = "the stale add counted into b (its cells reused while the handle was held), or b's add lost or doubled")
    @State
    public static class StaleVsNewOwner extends StaleShape {
        @Actor
        public void staleAdder() {
            staleAdd();
        }

        @Actor
        public void adderThenCollector(JJJ_Result r) {
            addAndCollect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }

    /**
     * BROKEN on purpose: {@link StaleVsNewOwner} on statvar whose collect reclaims a removed
     * counter's cells while its handle is held ({@link dev.statvar.internal.Broken#REUSE_HELD}).
     */
    @JCStressTest
    @Description("BROKEN on purpose: StaleVsNewOwner with Broken.REUSE_HELD; must show the stale add counted into b")
    @Outcome(id = "1, 0, [0-2]", expect = ACCEPTABLE, desc = "b counts exactly its own add")
    @Outcome(id = "(2, 0|1, 1), [0-2]", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: b took the cells of a held removed handle and counts its add")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenReuseHeld extends StaleShape {
        static {
            turnOn("REUSE_HELD");
        }

        @Actor
        public void staleAdder() {
            staleAdd();
        }

        @Actor
        public void adderThenCollector(JJJ_Result r) {
            addAndCollect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }

    /** Shared shape: histogram "a" removed and collected out with its handle held; "b" then takes its slot. */
    abstract static class StaleHistogramShape extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Histogram warm = registry.histogram("warm");
        final StatFamily<Histogram> family = registry.histogramFamily("h", "", HistogramPrecision.DEFAULT, "k");
        final Histogram stale = family.labels("a");
        final Histogram b;

        StaleHistogramShape() {
            family.remove("a");
            registry.collect(); // the last interval of "a": its slot is free from here
            b = family.labels("b");
        }

        void staleRecord() {
            warm.localView().record(1); // the thread's Block and histogram arrays before the start line
            Histogram view = stale.localView(); // its own array from the first record (not the stripes)
            updaterAtStart();
            view.record(1);
            updaterDone();
        }

        void recordAndCollect(JJJ_Result r) {
            warm.record(1);
            collectorAtStart();
            b.record(1);
            boolean doneBefore = updateDone();
            r.r1 = count(registry.collect(), B);
            r.r3 = phase(doneBefore);
        }

        void close(JJJ_Result r) {
            r.r2 = count(registry.collect(), B);
        }
    }

    /** Result: the count of "b" in actor 2's interval and in the arbiter's, phase of the stale record. */
    @JCStressTest
    @Description("A record through a removed histogram's held handle racing the histogram that took its slot, and collect(): "
            + "never counted into the later histogram")
    @Outcome(id = "1, 0, [0-2]", expect = ACCEPTABLE, desc = "b counts exactly its own record; the stale record is counted nowhere")
    @Outcome(expect = FORBIDDEN, desc = "the stale record counted into b (the slot's arrays shared across generations), or b's record lost or doubled")
    @State
    public static class StaleHistogramVsNewOwner extends StaleHistogramShape {
        @Actor
        public void staleRecorder() {
            staleRecord();
        }

        @Actor
        public void recorderThenCollector(JJJ_Result r) {
            recordAndCollect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }

    /**
     * BROKEN on purpose: {@link StaleHistogramVsNewOwner} on statvar whose reclaimed histogram
     * records into its slot's current arrays ({@link dev.statvar.internal.Broken#REUSE_HELD}).
     */
    @JCStressTest
    @Description("BROKEN on purpose: StaleHistogramVsNewOwner with Broken.REUSE_HELD; must show the stale record counted into b")
    @Outcome(id = "1, 0, [0-2]", expect = ACCEPTABLE, desc = "b counts exactly its own record")
    @Outcome(id = "(2, 0|1, 1), [0-2]", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: the held removed handle's record counted into b")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenHistogramReuseHeld extends StaleHistogramShape {
        static {
            turnOn("REUSE_HELD");
        }

        @Actor
        public void staleRecorder() {
            staleRecord();
        }

        @Actor
        public void recorderThenCollector(JJJ_Result r) {
            recordAndCollect(r);
        }

        @Arbiter
        public void arbiter(JJJ_Result r) {
            close(r);
        }
    }
}
