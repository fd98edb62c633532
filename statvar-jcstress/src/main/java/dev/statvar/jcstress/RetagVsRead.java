package dev.statvar.jcstress;

import dev.statvar.internal.MinMaxSlotsAccess;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 9: the min/max protocol's hand-off between a writer's retag and the collector's read
 * of its slots (MinMaxSlots, pairing SEEN), on statvar's own classes through
 * {@link MinMaxSlotsAccess}.
 *
 * <p>A retag drops the writer's previous min/max slot only when the collector has read all of
 * it: it compares the slot's last report with G_SEEN, which the collector stores after its read
 * of the slots (release) and the writer reads with acquire. The cells are built so that the
 * previous slot holds a report the collector has not read yet and that the read under test
 * counts (50: in flight across the read before; {@link MinMaxSlotsAccess#inFlightThenSwitched}).
 * Actor 1 reports 55 (the first report of the new epoch: a retag); actor 2 reads the interval
 * that counts 50 and 60. Both take nanoseconds, so jcstress's own scheduling makes them overlap;
 * no {@link Race} start line (the state extends it only for its switch check).
 *
 * <p>Result: the interval's min, max, exact (1) or not (0), and whether the retag dropped the
 * previous slot (1) or merged it (0). Whatever the timing, the interval's min/max cover 50 and
 * 60: the slot holding 50 also holds 1 and 100 (delivered before), so the interval is (1, 100)
 * and marked inexact, the contract for a report in flight across a whole switch.
 *
 * <p>Broken variant: {@link BrokenSeenFirst}, the same race with the collector storing G_SEEN
 * before its read of the slots ({@link dev.statvar.internal.Broken#SEEN_FIRST}): a retag that
 * sees it drops the slot holding 50 before the read, and the interval misses 50 (while saying exact,
 * or, once in 11.7 million samples of one CI run, inexact: the read found the slots moving and fell
 * back to reading them without the seqlock, after the drop).
 */
public class RetagVsRead {

    /** The cells as {@link MinMaxSlotsAccess#inFlightThenSwitched} builds them, fresh per sample. */
    abstract static class Shape extends Race {
        final long[] cells = MinMaxSlotsAccess.inFlightThenSwitched();

        void retag() {
            MinMaxSlotsAccess.report(cells, 55);
        }

        void read(JJJJ_Result r) {
            long[] m = MinMaxSlotsAccess.read(cells);
            r.r1 = m[0];
            r.r2 = m[1];
            r.r3 = m[2];
        }

        void after(JJJJ_Result r) {
            r.r4 = MinMaxSlotsAccess.droppedPrevious(cells);
        }
    }

    @JCStressTest
    @Description("A writer's retag racing the collector's read of its min/max slots: the slot holding a counted report is never dropped before the read")
    @Outcome(id = "1, 100, 0, 0", expect = ACCEPTABLE,
            desc = "the read saw the slots before the retag, or after a retag that merged the previous slot (it had not seen the "
                    + "collector's G_SEEN): 50 and 60 covered, with 1 and 100 of the same slot, inexact")
    @Outcome(id = "1, 100, 0, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "the retag saw the collector's G_SEEN and dropped the previous slot, after the read had read it (pairing SEEN)")
    @Outcome(id = "60, 60, [01], 1", expect = FORBIDDEN,
            desc = "the retag dropped the slot holding 50 before the read: 50, counted in this interval, missing from its min/max "
                    + "(said exact, or inexact when the read fell back, having found the slots moving)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a counted report not covered, a value never reported, or no min/max")
    @State
    public static class Handoff extends Shape {
        @Actor
        public void writer() {
            retag();
        }

        @Actor
        public void collector(JJJJ_Result r) {
            read(r);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            after(r);
        }
    }

    @JCStressTest
    @Description("BROKEN on purpose: the Handoff race on statvar with Broken.SEEN_FIRST (G_SEEN stored before the read); must show the dropped slot")
    @Outcome(id = "60, 60, [01], 1", expect = ACCEPTABLE_INTERESTING,
            desc = "the regression, observed: the retag saw G_SEEN before the read and dropped the slot holding 50; the interval misses it "
                    + "(said exact, or inexact when the read fell back)")
    @Outcome(id = "1, 100, 0, [01]", expect = ACCEPTABLE, desc = "the read came before the retag, or the retag before the G_SEEN store")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a value never reported, or no min/max")
    @State
    public static class BrokenSeenFirst extends Shape {
        static {
            turnOn("SEEN_FIRST");
        }

        @Actor
        public void writer() {
            retag();
        }

        @Actor
        public void collector(JJJJ_Result r) {
            read(r);
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            after(r);
        }
    }
}
