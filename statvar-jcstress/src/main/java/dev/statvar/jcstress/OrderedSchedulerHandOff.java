package dev.statvar.jcstress;

import dev.statvar.probes.ordered.OrderedScheduler;
import dev.statvar.probes.internal.Broken;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.JJJJ_Result;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * Subject 7: the hand-off race of {@code dev.statvar.probes.ordered.OrderedScheduler} (statvar-probes),
 * the real class: the thread of ticket 1 leaves its task in the ring at the moment the thread of
 * ticket 0 finishes and looks for it.
 *
 * <p>Shape: a fresh scheduler (capacity 4) with tickets 0 and 1 issued; actor 1 runs (or trashes)
 * ticket 0, actor 2 runs ticket 1 at the same time. Task 0 writes PLAIN fields, task 1 reads them:
 * only the scheduler orders them. Every result is {@code runs, seen, after, where}: how many times
 * task 1 ran; 1 if it saw task 0's plain write {@code x = 1}; 1 if it ran after task 0 (its
 * sequence number 2, task 0's 1); where it ran: 1 on actor 2 (its own thread: ticket 0 done
 * before, or its task claimed back after publishing), 2 on actor 1 (left behind, drained by
 * ticket 0's thread), 0 nowhere.
 *
 * <p>The contract tested (OrderedScheduler's javadoc): a task in the ring when its predecessor
 * finishes runs exactly once, after the predecessor, and sees everything it wrote. And, since
 * issue 32, misuse raced: of two calls for one ticket exactly one runs its task and the other
 * throws IllegalStateException, and the owner of the previous ticket never throws
 * ({@link DuplicateInPlace}, {@link DuplicateLeftBehind}).
 *
 * <p>Broken variant: {@link BrokenNoRecheck}, {@link Adjacent} with the publisher's re-check of
 * {@code next} removed ({@link Broken#HANDOFF_NO_RECHECK}).
 */
public class OrderedSchedulerHandOff {
    /** The probes switches the running test asked for ("" for an ok test); set by {@link #turnOn}. */
    private static volatile String requested = "";

    /** Turns statvar-probes' test switch {@code name} on for this JVM: call from a broken variant's static initialiser. */
    static void turnOn(String name) {
        System.setProperty(Broken.PROPERTY, name); // a constant: reading it does not initialise Broken
        requested = name;
    }

    /** Shared shape: the scheduler, two tickets, the plain fields the tasks share. */
    abstract static class Shape {
        final OrderedScheduler scheduler = new OrderedScheduler(4);
        final long t0 = scheduler.ticket();
        final long t1 = scheduler.ticket();
        /** Plain: written by task 0 (or before trash(0)), read by task 1. */
        int x;
        int seq;
        int seq0;
        int seq1;
        int runs1;
        int seen;
        Thread ranOn;
        Thread actor1;
        Thread actor2;

        Shape() {
            if (!Broken.ORDERING.equals(requested)) {
                throw new IllegalStateException("statvar-probes' test switches in force are " + Broken.ON + ", but this test asked for '"
                        + requested + "': the switch class initialised before the test set its property, or a switch leaked into an ok test");
            }
        }

        final Runnable task0 = () -> {
            x = 1;
            seq0 = ++seq;
        };

        final Runnable task1 = () -> {
            seen = x;
            seq1 = ++seq;
            runs1++;
            ranOn = Thread.currentThread();
        };

        void runTicket0() {
            actor1 = Thread.currentThread();
            scheduler.run(t0, task0);
        }

        void runTicket1() {
            actor2 = Thread.currentThread();
            scheduler.run(t1, task1);
        }

        void result(JJJJ_Result r) {
            r.r1 = runs1;
            r.r2 = runs1 == 0 ? 0 : seen;
            r.r3 = runs1 == 0 ? 0 : (seq0 == 1 && seq1 == 2 ? 1 : 0);
            r.r4 = ranOn == null ? 0 : ranOn == actor2 ? 1 : ranOn == actor1 ? 2 : 3;
        }
    }

    /**
     * Ticket 0 run in place by actor 1 (runs task 0, CASes next 0 -> 1, reads slot 1) racing
     * actor 2's run of ticket 1 (reads next; not its turn: CASes its task into slot 1, re-reads
     * next, claims the task back if next is 1).
     */
    @JCStressTest
    @Description("OrderedScheduler: run(1) leaving its task while run(0) finishes: task 1 runs exactly once, after task 0, seeing its writes")
    @Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "task 1 ran once after task 0, saw its write, on its own thread (next was 1 already, or claimed back)")
    @Outcome(id = "1, 1, 1, 2", expect = ACCEPTABLE, desc = "task 1 ran once after task 0, saw its write, on ticket 0's thread (left behind, drained)")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "LOST: task 1 never ran (left in the ring after ticket 0 finished)")
    @Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "DOUBLED: task 1 ran more than once")
    @Outcome(id = "1, .*, 0, .*", expect = FORBIDDEN, desc = "ORDER: task 1 ran before task 0 (or task 0 never ran)")
    @Outcome(id = "1, 0, 1, .*", expect = FORBIDDEN, desc = "HAPPENS-BEFORE: task 1 ran after task 0 but did not see its plain write")
    @Outcome(expect = FORBIDDEN, desc = "anything else: task 1 ran on a thread that is neither actor")
    @State
    public static class Adjacent extends Shape {
        @Actor
        public void ticket0() {
            runTicket0();
        }

        @Actor
        public void ticket1() {
            runTicket1();
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            result(r);
        }
    }

    /**
     * Ticket 0 trashed by actor 1 after a plain write (the trash path: no task, CAS of next, read
     * of slot 1) racing actor 2's run of ticket 1; the code before trash(0) happens-before task 1.
     */
    @JCStressTest
    @Description("OrderedScheduler: run(1) leaving its task while trash(0) advances: task 1 runs exactly once, after the code before trash(0)")
    @Outcome(id = "1, 1, 1, 1", expect = ACCEPTABLE, desc = "task 1 ran once after trash(0), saw the write before it, on its own thread")
    @Outcome(id = "1, 1, 1, 2", expect = ACCEPTABLE, desc = "task 1 ran once after trash(0), saw the write before it, on the trashing thread (drained)")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "LOST: task 1 never ran (left in the ring after ticket 0 was trashed)")
    @Outcome(id = "[2-9], .*", expect = FORBIDDEN, desc = "DOUBLED: task 1 ran more than once")
    @Outcome(id = "1, .*, 0, .*", expect = FORBIDDEN, desc = "ORDER: task 1 ran before the code before trash(0)")
    @Outcome(id = "1, 0, 1, .*", expect = FORBIDDEN, desc = "HAPPENS-BEFORE: task 1 did not see the plain write made before trash(0)")
    @Outcome(expect = FORBIDDEN, desc = "anything else: task 1 ran on a thread that is neither actor")
    @State
    public static class TrashThenRun extends Shape {
        @Actor
        public void ticket0() {
            actor1 = Thread.currentThread();
            task0.run(); // the work before the trash, not a scheduled task
            scheduler.trash(t0);
        }

        @Actor
        public void ticket1() {
            runTicket1();
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            result(r);
        }
    }

    /** A call of {@code scheduler.run}: 1 if it threw IllegalStateException (a refused duplicate), else 0. */
    static int refused(Runnable call) {
        try {
            call.run();
            return 0;
        } catch (IllegalStateException duplicate) {
            return 1;
        }
    }

    /**
     * Misuse raced, in place: both actors call run(0) at once (the sequence word's claim: each
     * reads next == 0 unclaimed, looks at slot 0, CASes the claim; the loser re-reads and throws,
     * or comes after the winner advanced and throws). Result {@code runsA, runsB, refusedA,
     * refusedB}: how many times actor 1's and actor 2's task ran, and whether each call threw.
     */
    @JCStressTest
    @Description("OrderedScheduler: two run(0) at once: exactly one task runs, the other call throws IllegalStateException")
    @Outcome(id = "1, 0, 0, 1", expect = ACCEPTABLE, desc = "actor 1's task ran; actor 2's call was refused")
    @Outcome(id = "0, 1, 1, 0", expect = ACCEPTABLE, desc = "actor 2's task ran; actor 1's call was refused")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "DOUBLED: both copies of ticket 0 ran")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST: neither copy ran")
    @Outcome(expect = FORBIDDEN, desc = "anything else: a task ran and its call threw too, or both or neither call threw")
    @State
    public static class DuplicateInPlace extends Shape {
        int runsA;
        int runsB;

        @Actor
        public void actor1(IIII_Result r) {
            r.r3 = refused(() -> scheduler.run(t0, () -> runsA++));
        }

        @Actor
        public void actor2(IIII_Result r) {
            r.r4 = refused(() -> scheduler.run(t0, () -> runsB++));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = runsA;
            r.r2 = runsB;
        }
    }

    /**
     * Misuse raced with the hand-off: actor 1 runs ticket 0 (the innocent owner, draining ticket
     * 1); actor 2 calls run(1, a) and then run(1, b) again. The second call comes while a is in
     * the ring, is being drained (claimed DRAINER, its Entry kept in the slot), runs on actor 2,
     * or has run. Result {@code runsA, runsB, refusals, after}: runs of a and of b; refusals
     * {@code 4 * owner + 2 * first + second} (only the second call may throw); after: 1 if a ran
     * after task 0 and saw its plain write.
     */
    @JCStressTest
    @Description("OrderedScheduler: run(1) twice on one thread while run(0) drains: the first copy runs once, the second call throws, the owner never")
    @Outcome(id = "1, 0, 1, 1", expect = ACCEPTABLE, desc = "a ran once after task 0 and saw its write; the second run(1) was refused")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "DOUBLED: both copies of ticket 1 ran")
    @Outcome(id = "0, 1, .*", expect = FORBIDDEN, desc = "the duplicate's task ran instead of the first copy")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "LOST: no copy of ticket 1 ran")
    @Outcome(id = "1, 0, [4-7], .*", expect = FORBIDDEN, desc = "the innocent owner's run(0) threw")
    @Outcome(id = "1, 0, [023], .*", expect = FORBIDDEN, desc = "the duplicate went unreported, or the first call was refused")
    @Outcome(id = "1, 0, 1, 0", expect = FORBIDDEN, desc = "ORDER or HAPPENS-BEFORE: a ran before task 0 or missed its write")
    @Outcome(expect = FORBIDDEN, desc = "anything else")
    @State
    public static class DuplicateLeftBehind extends Shape {
        int runsA;
        int runsB;
        int owner;
        int first;
        int second;

        @Actor
        public void ticket0() {
            owner = refused(this::runTicket0);
        }

        @Actor
        public void ticket1Twice() {
            first = refused(() -> scheduler.run(t1, () -> {
                task1.run();
                runsA++;
            }));
            second = refused(() -> scheduler.run(t1, () -> runsB++));
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r1 = runsA;
            r.r2 = runsB;
            r.r3 = 4 * owner + 2 * first + second;
            r.r4 = runsA == 1 && seen == 1 && seq0 == 1 && seq1 == 2 ? 1 : 0;
        }
    }

    /**
     * Deliberately broken: {@link Adjacent} with {@link Broken#HANDOFF_NO_RECHECK}: actor 2 leaves
     * its task in slot 1 without re-reading next. When actor 1 advanced next and found slot 1
     * empty just before the task landed, nobody runs it. The regression's signature ("0, 0, 0, 0")
     * is the only INTERESTING outcome, and it is FORBIDDEN in {@link Adjacent}.
     */
    @JCStressTest
    @Description("BROKEN on purpose: Adjacent with Broken.HANDOFF_NO_RECHECK (no re-check of next after publishing); must show a lost task")
    @Outcome(id = "1, 1, 1, [12]", expect = ACCEPTABLE, desc = "task 1 ran once after task 0, saw its write (the race was not hit)")
    @Outcome(id = "0, 0, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "the regression, observed: task 1 left in the ring, never run")
    @Outcome(expect = FORBIDDEN, desc = "anything else: not even this regression explains it")
    @State
    public static class BrokenNoRecheck extends Shape {
        static {
            turnOn("HANDOFF_NO_RECHECK");
        }

        @Actor
        public void ticket0() {
            runTicket0();
        }

        @Actor
        public void ticket1() {
            runTicket1();
        }

        @Arbiter
        public void arbiter(JJJJ_Result r) {
            result(r);
        }
    }
}
