package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJJJJ_Result;
import org.openjdk.jcstress.infra.results.JJJJJ_Result;

import static dev.statvar.jcstress.Codes.F;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 5: growth while updating: registering stats makes a thread's arrays too short for
 * them, and the thread grows them while another thread registers and collects.
 *
 * <p>Registration itself only appends to the registry (under the engine lock); what it grows is
 * every per-thread array, lazily: a thread whose counter array (Block.counters) or gauge array
 * (Block.cells) is too short for a stat it updates copies that array into a longer one under the
 * lock (ThreadTable.grow; the lock excludes collect(), the only other writer of a gauge array: it
 * writes EPOCH when it switches intervals and G_SEEN, the gauge reports it has attributed, when it
 * reads) and stores it in its Block, which the thread table holds; a thread that records into a
 * histogram beyond its histogram-slot array copies that one the same way. Neither may lose or
 * double an update of the stats already there, nor of the new one, nor lose what the collector
 * wrote. Counters and gauges have arrays of their own, so only gauges registered in between push
 * a later gauge beyond a thread's gauge array, and only counters a later counter. The collector
 * writes nothing into a counter array and reads it after releasing the lock (taken with acquire,
 * the copy published with release): it reads the old array or the copy, and the owner writes only
 * the copy once it exists.
 *
 * <p>The gauge and histogram tests use {@code hotAfter(1)}: every update goes to the thread's own
 * arrays at once. (With the default, a thread's first 999 updates of a gauge or histogram in an
 * interval go to the shared stripes, whose places are fixed at registration and never grow.)
 *
 * <p>Two actors, not three: jcstress 0.16 does not schedule a test with more actors than CPUs
 * and CI has 2. The registrar also closes interval 1 (right after registering): registration
 * and collect() both hold the engine lock, so a third thread would add no interleaving between
 * them; what races is the updater against each of them. {@link Race} lines the updater up with
 * the registrar and spreads its updates over the registration and the collect; the last field
 * is their phase against the collect.
 *
 * <p>Broken variant: {@link BrokenGrowUnlocked}, statvar with the engine lock around the copy
 * removed ({@link dev.statvar.internal.Broken#GROW_UNLOCKED}).
 */
public class RegisterWhileUpdating {
    /**
     * Stats registered between the updated ones and the new one, of the new one's kind: a thread's
     * first counter array holds 8 counters (Layout.MIN_LENGTH), and its first gauge array is
     * sized to the gauge it reports (DATA_START + 9 cells + padding: 43), so the new stat's cells
     * lie beyond every thread's first array (and, for a gauge, beyond twice its length).
     */
    static final int FILLERS = 16;

    /**
     * Counters. The updater adds to the existing counter (its first update before the start
     * line creates its Block, installed in the thread table, and its counter array, 8 counters
     * long), then, past it: to the existing counter (fast path, through the thread table), registers
     * or looks up the new counter "n" (counter index 18, past the fillers) and adds to it (the slow
     * path: the counter array is too short for "n" and copied into a longer one under the lock),
     * then adds to the existing counter again (fast path, into the grown array). The registrar
     * registers "n" (or finds it), adds to it (the same way) and then closes interval 1. Result:
     * existing counter in interval 1 and 2 (its first add always in 1), new counter in interval 1
     * and 2, phase.
     */
    @JCStressTest
    @Description("Registering a counter (arrays grow) while another counter is updated and collect() runs: no add lost or doubled")
    @Outcome(id = "(3, 0, 2, 0, [01]|(3, 0|2, 1|1, 2), (2, 0|1, 1), 1|1, 2, 1, 1, [12])", expect = ACCEPTABLE,
            desc = "the 3 adds of the existing counter and the 2 of the new one each counted once over the two intervals")
    @Outcome(id = "(0, " + F + "|1, [01]|2, 0), .*", expect = FORBIDDEN, desc = "LOST: an add of the existing counter is missing")
    @Outcome(id = F + ", " + F + ", 0, 2, .*", expect = FORBIDDEN,
            desc = "the registrar's own add to the new counter, made before its collect, is missing from that interval")
    @Outcome(id = F + ", " + F + ", (0, [01]|1, 0), .*", expect = FORBIDDEN, desc = "LOST: an add of the new counter is missing")
    @Outcome(expect = FORBIDDEN, desc = "anything else: an add doubled, or an update on the wrong side of a collect it did not overlap")
    @State
    public static class Counters extends Race {
        final StatRegistry registry = StatRegistry.create();
        final Counter warm = registry.counter("warm");
        final Counter existing = registry.counter("c");

        public Counters() {
            for (int i = 0; i < FILLERS; i++) {
                registry.counter("filler_" + i);
            }
        }

        @Actor
        public void updater() {
            existing.add();               // slow path: creates this thread's Block and its counter array
            updaterAtStart();
            existing.add();               // fast path
            registry.counter("n").add();  // registration or lookup (lock), then the counter array grows to cover "n" (lock)
            existing.add();               // fast path, into the grown array
            updaterDone();
        }

        @Actor
        public void registrarThenCollector(JJJJJ_Result r) {
            warm.add();                   // slow path: creates this thread's Block and its counter array
            collectorAtStart();
            registry.counter("n").add();  // registration or lookup (lock), then the counter array grows to cover "n" (lock)
            boolean doneBefore = updateDone();
            Snapshot s = registry.collect();
            r.r5 = phase(doneBefore);
            r.r1 = s.counter("c");
            r.r3 = s.counter("n");
        }

        @Arbiter
        public void arbiter(JJJJJ_Result r) {
            Snapshot s = registry.collect();
            r.r2 = s.counter("c");
            r.r4 = s.counter("n");
        }
    }

    /**
     * Histograms ({@code hotAfter(1)}). Four histograms exist; a thread's histogram-slot array
     * (Block.hists) starts 4 long. The updater records 1 into h0 before the start line (its first record: slow path,
     * its view of h0, the slot array and h0's array), then, past it, 42 into h0 (fast path: its
     * view in h0's table), registers or looks up "h4" and records 42 into it (slot array copied
     * to 8 under the lock, the copy the collector reads), then 42 into h0 again (fast path: the
     * view holds h0's array itself, which the copy kept). The registrar registers "h4" (or finds
     * it), records into it and closes interval 1. Result: h0's count in interval 1 and 2 (its first
     * record always in 1), h4's count in interval 1 and 2, phase.
     */
    @JCStressTest
    @Description("Registering a histogram (slot arrays grow) while another histogram is recorded and collect() runs: no record lost or doubled")
    @Outcome(id = "(3, 0, 2, 0, [01]|(3, 0|2, 1|1, 2), (2, 0|1, 1), 1|1, 2, 1, 1, [12])", expect = ACCEPTABLE,
            desc = "the 3 records of h0 and the 2 of the new h4 each counted once over the two intervals")
    @Outcome(id = "(0, " + F + "|1, [01]|2, 0), .*", expect = FORBIDDEN, desc = "LOST: a record of the existing histogram is missing")
    @Outcome(id = F + ", " + F + ", 0, 2, .*", expect = FORBIDDEN,
            desc = "the registrar's own record into h4, made before its collect, is missing from that interval")
    @Outcome(id = F + ", " + F + ", (0, [01]|1, 0), .*", expect = FORBIDDEN, desc = "LOST: a record of the new histogram is missing")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record doubled, or a record on the wrong side of a collect it did not overlap")
    @State
    public static class Histograms extends Race {
        final StatRegistry registry = StatRegistry.builder().hotAfter(1).build();
        final Histogram h0 = registry.histogram("h0");

        public Histograms() {
            registry.histogram("h1");
            registry.histogram("h2");
            registry.histogram("h3");
        }

        @Actor
        public void updater() {
            h0.record(1);                        // slow path: slot array (4) and h0's array
            updaterAtStart();
            h0.record(42);                       // fast path
            registry.histogram("h4").record(42); // registration or lookup, then slot array growth (lock)
            h0.record(42);                       // fast path, into the array the new slot array holds
            updaterDone();
        }

        @Actor
        public void registrarThenCollector(JJJJJ_Result r) {
            collectorAtStart();
            registry.histogram("h4").record(42);
            boolean doneBefore = updateDone();
            Snapshot s = registry.collect();
            r.r5 = phase(doneBefore);
            r.r1 = s.histogram("h0").count();
            r.r3 = s.histogram("h4").count();
        }

        @Arbiter
        public void arbiter(JJJJJ_Result r) {
            Snapshot s = registry.collect();
            r.r2 = s.histogram("h0").count();
            r.r4 = s.histogram("h4").count();
        }
    }

    /**
     * Shape of the gauge tests ({@code hotAfter(1)}): a gauge registered first, then filler
     * gauges, then the gauge "far", whose cells lie beyond the gauge array a thread gets for the
     * first gauge. The updater reports 5 to the gauge before the start line (its gauge array is
     * created, sized for the gauge: 43 cells), then, past it, reports 1 to "far" (the array grows
     * to far's limit, 196 cells: a copy of the gauge's cells, under the lock) and 9 to "far", into
     * the grown array (the fast path). (Filler counters would not do: a thread's counters are in
     * an array of their own, and counters take no place in the gauge array.) The collector closes
     * interval 1: it reads the updater's gauge array and writes the gauge's G_SEEN into it (the
     * reports it attributed to this interval). The gauge gets no report after the start line, so
     * that a G_SEEN lost to the copy shows: with the two-slot min/max protocol a later report of
     * the gauge would make the collector merge the slot holding 5 as inexact, which the contract
     * allows, whereas with none the collector takes 5, already attributed, for a report of
     * interval 2 (MinMaxSlots.read: the count differs from the lost G_SEEN).
     */
    abstract static class GaugeShape extends Race {
        final StatRegistry registry = StatRegistry.builder().hotAfter(1).build();
        final Gauge gauge = registry.gauge("g");
        final Gauge far;

        GaugeShape() {
            for (int i = 0; i < FILLERS; i++) {
                registry.gauge("filler_" + i); // GAUGE_CELLS cells each of the gauge array layout, before "far"
            }
            far = registry.gauge("far");
        }

        void update() {
            gauge.report(5); // slow path: creates this thread's gauge array, covering the gauge but not "far"
            updaterAtStart();
            far.report(1);   // growth: the gauge's cells are copied into a longer array
            far.report(9);   // fast path, into the grown array
            updaterDone();
        }

        void collect(JJJJJJJ_Result r) {
            collectorAtStart();
            boolean doneBefore = updateDone();
            Snapshot s = registry.collect();
            r.r7 = phase(doneBefore);
            GaugeValue g = s.gauge("g");
            r.r1 = g.count();
            r.r3 = Codes.minMax(g, 5, 9);
            r.r5 = s.gauge("far").count();
        }

        void close(JJJJJJJ_Result r) {
            Snapshot s = registry.collect();
            GaugeValue g = s.gauge("g");
            r.r2 = g.count();
            r.r4 = Codes.minMax(g, 5, 9);
            r.r6 = s.gauge("far").count();
        }
    }

    /**
     * Gauges: the growth copies the gauge's cells while the collector may be reading them and
     * writing their G_SEEN. Result: the gauge's count in interval 1 and 2, its min/max code in
     * interval 1 and 2 ({@link Codes}: 0 none, 1 = (5, 5)), the count of "far" (1 and 9) in
     * interval 1 and 2, phase. 5 happened before the collect began, so it is wholly in interval 1
     * (count and exact min/max), and interval 2 has no report of the gauge and no min/max; far's
     * two reports are counted once each, both in interval 1 if the updater was done before the
     * collect began, both in interval 2 if it began after the collect returned.
     */
    @JCStressTest
    @Description("Growing a thread's array (registration) while it reports a gauge and collect() reads it: counts exact, min/max as documented")
    @Outcome(id = "1, 0, 1, 0, (2, 0, [01]|1, 1, 1|0, 2, [12])", expect = ACCEPTABLE,
            desc = "5 wholly in interval 1, nothing of the gauge in interval 2; far's two reports counted once each")
    @Outcome(id = "1, 0, " + F + ", -?[1-9], .*", expect = FORBIDDEN,
            desc = "interval 2 has no report of the gauge but a min/max (5, attributed to interval 1 already): the collector's "
                    + "record of the reports it attributed (G_SEEN) was lost")
    @Outcome(id = "(0, " + F + "|1, [1-9]|[2-9], " + F + "), .*", expect = FORBIDDEN,
            desc = "LOST or DOUBLED: 5 (reported before collect() began) not counted once, in interval 1")
    @Outcome(expect = FORBIDDEN, desc = "anything else: 5's min/max not exactly (5, 5), far's reports lost or doubled, or on the "
            + "wrong side of a collect they did not overlap")
    @State
    public static class Gauges extends GaugeShape {
        @Actor
        public void updater() {
            update();
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
     * BROKEN on purpose: {@link Gauges} run on statvar with the engine lock around the growth's
     * copy removed ({@link dev.statvar.internal.Broken#GROW_UNLOCKED}): the owner copies its array
     * while the collector reads the old one. When the copy takes the gauge's G_SEEN before the
     * collector stores it, the grown array forgets that report 5 was attributed to interval 1,
     * and interval 2, which counts no report of the gauge, reports 5 as its min/max.
     */
    @JCStressTest
    @Description("BROKEN on purpose: Gauges on statvar with Broken.GROW_UNLOCKED (copy without the lock); must show the lost G_SEEN")
    @Outcome(id = "1, 0, 1, 0, (2, 0, [01]|1, 1, 1|0, 2, [12])", expect = ACCEPTABLE,
            desc = "5 wholly in interval 1, nothing of the gauge in interval 2; far's two reports counted once each")
    @Outcome(id = "1, 0, 1, -?1, (2, 0|1, 1|0, 2), [0-2]", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: interval 2 counts no report of the gauge but has 5, attributed to interval 1, as "
                    + "its min/max (G_SEEN lost to the copy)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenGrowUnlocked extends GaugeShape {
        static {
            turnOn("GROW_UNLOCKED");
        }

        @Actor
        public void updater() {
            update();
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
