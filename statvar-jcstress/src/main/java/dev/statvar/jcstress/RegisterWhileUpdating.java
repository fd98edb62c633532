package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;
import org.openjdk.jcstress.infra.results.J_Result;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 5: registering a new stat while another thread updates an existing one, and a
 * collect().
 *
 * <p>Registration itself only appends to the registry (under the engine lock); what it grows is
 * every per-thread array, lazily: a thread whose array is too short for a stat it updates
 * copies its array into a longer one under the lock (the lock excludes collect(), the only other
 * writer of the array, which writes its EPOCH) and republishes it in the thread-id table; a
 * thread that records into a histogram beyond its histogram-slot array copies that one the
 * same way. Neither may lose or double an update of the stats already there, nor of the new
 * one.
 */
public class RegisterWhileUpdating {
    // Two actors, not three: jcstress 0.16 does not schedule a test with more actors than CPUs
    // and CI has 2. The registrar also closes interval 1 (right after registering): registration
    // and collect() both hold the engine lock, so a third thread would add no interleaving between
    // them; what races is the updater against each of them.

    /**
     * Counters registered between the updated ones and the new one: a thread's first array holds
     * 8 counters (Layout.MIN_LENGTH), so the new stat's cell lies beyond every thread's array.
     */
    static final int FILLERS = 16;

    /**
     * Counters. The updater adds to the existing counter (lock-free fast path), then registers
     * or looks up the new counter "n" and adds to it (its cell is beyond the updater's array: the
     * grow slow path, copy under the lock and table republish), then adds to the existing
     * counter again (fast path, through the grown array). The registrar registers "n" (or finds
     * it), adds to it (growing its own array the same way) and then closes interval 1. Result:
     * existing counter in interval 1 and 2, new counter in interval 1 and 2.
     */
    @JCStressTest
    @Description("Registering a counter (arrays grow) while another counter is updated and collect() runs: no add lost or doubled")
    @Outcome(id = "(2, 0|1, 1|0, 2), (2, 0|1, 1)", expect = ACCEPTABLE,
            desc = "the 2 adds of the existing counter and the 2 of the new one each counted once over the two intervals")
    @Outcome(id = "(0, [01]|1, 0), .*", expect = FORBIDDEN, desc = "LOST: an add of the existing counter is missing")
    @Outcome(id = "-?[0-9]+, -?[0-9]+, 0, 2", expect = FORBIDDEN,
            desc = "the registrar's own add to the new counter, made before its collect, is missing from that interval")
    @Outcome(id = "-?[0-9]+, -?[0-9]+, (0, [01]|1, 0)", expect = FORBIDDEN, desc = "LOST: an add of the new counter is missing")
    @Outcome(expect = FORBIDDEN, desc = "anything else: an add doubled")
    @State
    public static class Counters {
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
            warm.add();                   // slow path: creates this thread's array (8 counters long)
            existing.add();               // fast path
            registry.counter("n").add();  // registration or lookup (lock), then growth (lock)
            existing.add();               // fast path, in the grown array
        }

        @Actor
        public void registrarThenCollector(JJJJ_Result r) {
            warm.add();
            registry.counter("n").add();  // registration or lookup (lock), then growth (lock)
            Snapshot s = registry.collect();
            r.r1 = s.counter("c");
            r.r3 = s.counter("n");
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            Snapshot s = registry.collect();
            r.r2 = s.counter("c");
            r.r4 = s.counter("n");
        }
    }

    /**
     * Histograms. Four histograms exist; a thread's histogram-slot array starts 4 long. The
     * updater records into h0 (its first record: slow path, slot array and h0's array), again
     * (fast path), then registers or looks up "h4" and records into it (slot array copied to 8
     * under the lock and republished in the histogram table), then into h0 again (fast path,
     * through the new slot array). The registrar registers "h4" (or finds it), records into it
     * and closes interval 1. Result: h0's count in interval 1 and 2, h4's count in interval 1
     * and 2.
     */
    @JCStressTest
    @Description("Registering a histogram (slot arrays grow) while another histogram is recorded and collect() runs: no record lost or doubled")
    @Outcome(id = "(3, 0|2, 1|1, 2|0, 3), (2, 0|1, 1)", expect = ACCEPTABLE,
            desc = "the 3 records of h0 and the 2 of the new h4 each counted once over the two intervals")
    @Outcome(id = "(0, [0-2]|1, [01]|2, 0), .*", expect = FORBIDDEN, desc = "LOST: a record of the existing histogram is missing")
    @Outcome(id = "-?[0-9]+, -?[0-9]+, 0, 2", expect = FORBIDDEN,
            desc = "the registrar's own record into h4, made before its collect, is missing from that interval")
    @Outcome(id = "-?[0-9]+, -?[0-9]+, (0, [01]|1, 0)", expect = FORBIDDEN, desc = "LOST: a record of the new histogram is missing")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a record doubled")
    @State
    public static class Histograms {
        final StatRegistry registry = StatRegistry.create();
        final Histogram h0 = registry.histogram("h0");

        public Histograms() {
            registry.histogram("h1");
            registry.histogram("h2");
            registry.histogram("h3");
        }

        @Actor
        public void updater() {
            h0.record(1);                        // slow path: slot array (4) and h0's array
            h0.record(42);                       // fast path
            registry.histogram("h4").record(42); // registration or lookup, then slot array growth (lock)
            h0.record(42);                       // fast path, through the new slot array
        }

        @Actor
        public void registrarThenCollector(JJJJ_Result r) {
            registry.histogram("h4").record(42);
            Snapshot s = registry.collect();
            r.r1 = s.histogram("h0").count();
            r.r3 = s.histogram("h4").count();
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            Snapshot s = registry.collect();
            r.r2 = s.histogram("h0").count();
            r.r4 = s.histogram("h4").count();
        }
    }

    /**
     * BROKEN on purpose: growth done by a foreign thread. The registrar, seeing a new stat, copies
     * the updater's cell array into a longer one itself and publishes it, while the updater keeps
     * writing its cells (statvar's update: plain read, opaque store). An add stored into the old
     * array after the copy is lost. Result: the counter's value after both.
     */
    @JCStressTest
    @Description("BROKEN on purpose: a thread's array grown by another thread while it updates; proves the test shape can see a lost count")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "the add is in the grown array")
    @Outcome(id = "0", expect = ACCEPTABLE_INTERESTING,
            desc = "the broken protocol loses/doubles a count: this variant exists to prove the test can see it "
                    + "(here: the add went into the old array after the copy)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: impossible even for the broken protocol")
    @State
    public static class BrokenForeignGrow {
        static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
        /** The updater's cells, replaced by the registrar. */
        volatile long[] cells = new long[1];

        @Actor
        public void updater() {
            long[] c = cells;
            LONGS.setOpaque(c, 0, c[0] + 1);
        }

        @Actor
        public void registrar() {
            long[] old = cells;
            long[] grown = new long[2];
            grown[0] = (long) LONGS.getOpaque(old, 0); // the bug: copying cells their owner is still writing
            cells = grown;
        }

        @Arbiter
        public void arbiter(J_Result r) {
            r.r1 = (long) LONGS.getOpaque(cells, 0);
        }
    }
}
