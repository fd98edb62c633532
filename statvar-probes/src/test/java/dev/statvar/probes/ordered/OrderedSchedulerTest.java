package dev.statvar.probes.ordered;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.probes.ContendedLockTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OrderedScheduler, one behaviour per test: order, in place vs left behind, trash, failures, misuse, stats. */
class OrderedSchedulerTest {
    /** Longest any test waits for another thread to reach a state (never reached when the code works). */
    private static final long DEADLINE_NANOS = 20_000_000_000L;

    private final StatRegistry registry = StatRegistry.create();
    private final List<Long> out = Collections.synchronizedList(new ArrayList<>());

    private Runnable emit(long ticket) {
        return () -> out.add(ticket);
    }

    @Test
    void ticketsAreConsecutiveFromZero() {
        OrderedScheduler s = new OrderedScheduler(4);
        for (long i = 0; i < 10; i++) {
            assertEquals(i, s.ticket());
        }
        assertEquals(10, s.issuedTickets());
        assertEquals(0, s.nextTicket());
    }

    @Test
    void tasksInTicketOrderRunInPlace() {
        OrderedScheduler s = new OrderedScheduler(4, registry, "o");
        for (int i = 0; i < 10; i++) {
            long t = s.ticket();
            s.run(t, emit(t));
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), out);
        Snapshot snap = registry.collect();
        assertEquals(10, snap.counter("o_in_place"));
        assertEquals(0, snap.counter("o_left_behind"));
        assertEquals(0, snap.gauge("o_drained_run").count());
        assertEquals(10, s.nextTicket());
    }

    @Test
    void aTaskAheadOfItsTurnIsLeftBehindAndRunByThePreviousTicketsThread() throws Exception {
        OrderedScheduler s = new OrderedScheduler(8, registry, "o");
        long t0 = s.ticket();
        long t1 = s.ticket();
        long t2 = s.ticket();
        Thread[] ranOn = new Thread[3];
        Thread other = new Thread(() -> {
            s.run(t2, () -> ranOn[2] = Thread.currentThread());
            s.run(t1, () -> ranOn[1] = Thread.currentThread());
        });
        other.start();
        other.join();
        assertEquals(0, s.nextTicket(), "both left behind: nothing ran");
        s.run(t0, () -> ranOn[0] = Thread.currentThread());
        assertSame(Thread.currentThread(), ranOn[0]);
        assertSame(Thread.currentThread(), ranOn[1], "left behind: run by ticket 0's thread");
        assertSame(Thread.currentThread(), ranOn[2]);
        assertEquals(3, s.nextTicket());
        Snapshot snap = registry.collect();
        assertEquals(1, snap.counter("o_in_place"));
        assertEquals(2, snap.counter("o_left_behind"));
        assertEquals(2, snap.gauge("o_drained_run").max(), "one drain of two left-behind tasks");
        assertEquals(1, snap.gauge("o_drained_run").count());
    }

    @Test
    void trashedTicketsAreSkipped() {
        OrderedScheduler s = new OrderedScheduler(8, registry, "o");
        long[] t = {s.ticket(), s.ticket(), s.ticket(), s.ticket(), s.ticket()};
        s.run(t[4], emit(4));
        s.trash(t[3]);
        s.run(t[2], emit(2));
        s.trash(t[1]);
        assertEquals(List.of(), out);
        s.run(t[0], emit(0));
        assertEquals(List.of(0L, 2L, 4L), out);
        s.trash(s.ticket()); // trashing the next ticket just advances
        long last = s.ticket();
        s.run(last, emit(last));
        assertEquals(List.of(0L, 2L, 4L, 6L), out);
        Snapshot snap = registry.collect();
        assertEquals(3, snap.counter("o_trashed"));
        assertEquals(2, snap.counter("o_left_behind"), "trashed tickets are not tasks left behind");
        assertEquals(2, snap.counter("o_in_place"));
    }

    @Test
    void aTaskThatThrowsGoesToTheHandlerAndTheSequenceGoesOn() {
        List<String> failures = new ArrayList<>();
        OrderedScheduler s = new OrderedScheduler(4, registry, "o", (ticket, f) -> failures.add(ticket + ":" + f.getMessage()));
        long t0 = s.ticket();
        long t1 = s.ticket();
        long t2 = s.ticket();
        s.run(t2, emit(2));
        s.run(t1, () -> {
            throw new IllegalStateException("boom");
        });
        s.run(t0, () -> {
            throw new AssertionError("an error too");
        });
        assertEquals(List.of("0:an error too", "1:boom"), failures);
        assertEquals(List.of(2L), out);
        assertEquals(3, s.nextTicket());
        assertEquals(2, registry.collect().counter("o_failed"));
    }

    @Test
    void aHandlerThatThrowsDoesNotStopTheSequence() {
        OrderedScheduler s = new OrderedScheduler(4, null, null, (ticket, f) -> {
            throw new IllegalStateException("handler fails");
        });
        queueEmit1ThenFailTicket0(s, "task fails");
        assertEquals(List.of(1L), out);
        assertEquals(2, s.nextTicket());
    }

    /** Takes tickets 0 and 1, hands in 1 (emits 1), then 0: a task that throws {@code message}. */
    private void queueEmit1ThenFailTicket0(OrderedScheduler s, String message) {
        long t0 = s.ticket();
        long t1 = s.ticket();
        s.run(t1, emit(1));
        s.run(t0, () -> {
            throw new IllegalStateException(message);
        });
    }

    @Test
    void theDefaultHandlerLogsAndGoesOn() {
        OrderedScheduler s = new OrderedScheduler(2);
        queueEmit1ThenFailTicket0(s, "expected in the test log: the default handler logs it");
        assertEquals(List.of(1L), out);
    }

    @Test
    void capacityIsRoundedUpToAPowerOfTwo() {
        assertEquals(1, new OrderedScheduler(1).capacity());
        assertEquals(4, new OrderedScheduler(3).capacity());
        assertEquals(1024, new OrderedScheduler(1000).capacity());
        assertEquals(1 << 30, new OrderedScheduler(1 << 30).capacity());
    }

    @Test
    void badInputFailsLoudlyNamingTheValue() {
        for (int bad : new int[]{0, -1, (1 << 30) + 1, Integer.MAX_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new OrderedScheduler(bad));
            assertTrue(e.getMessage().contains(Integer.toString(bad)), e.getMessage());
        }
        OrderedScheduler s = new OrderedScheduler(4);
        long t0 = s.ticket();
        long t1 = s.ticket();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.run(5, emit(5))).getMessage().contains("ticket 5"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> s.run(-1, emit(-1))).getMessage().contains("ticket -1"));
        assertThrows(IllegalArgumentException.class, () -> s.trash(2));
        assertThrows(NullPointerException.class, () -> s.run(t0, null));

        s.run(t1, emit(1));
        IllegalStateException twiceInRing = assertThrows(IllegalStateException.class, () -> s.run(t1, emit(1)));
        assertTrue(twiceInRing.getMessage().contains("ticket 1"), twiceInRing.getMessage());
        assertThrows(IllegalStateException.class, () -> s.trash(t1), "trash after run, still in the ring");

        s.run(t0, emit(0));
        IllegalStateException twice = assertThrows(IllegalStateException.class, () -> s.run(t0, emit(0)));
        assertTrue(twice.getMessage().contains("ticket 0"), twice.getMessage());
        long t2 = s.ticket();
        s.trash(t2);
        IllegalStateException afterTrash = assertThrows(IllegalStateException.class, () -> s.run(t2, emit(2)));
        assertTrue(afterTrash.getMessage().contains("ticket 2"), afterTrash.getMessage());
        assertEquals(List.of(0L, 1L), out, "each ticket's task ran once");
        assertThrows(NullPointerException.class, () -> new OrderedScheduler(4, null, "o"));
        assertThrows(NullPointerException.class, () -> new OrderedScheduler(4, registry, null));
        assertThrows(IllegalArgumentException.class, () -> new OrderedScheduler(4, registry, "bad name"));
    }

    /**
     * A forgotten ticket: later tasks are left behind and their run() returns; nextTicket(),
     * stalledNanos() and the gauges name the ticket waited on; once the ring is full, the next
     * run() waits parked (TIMED_WAITING, this scheduler as blocker), not spinning; the late
     * ticket releases everything in order.
     */
    @Test
    void aForgottenTicketIsVisibleAndTheRingFullWaiterIsParked() throws Exception {
        OrderedScheduler s = new OrderedScheduler(4, registry, "o");
        long forgotten = s.ticket();
        for (int i = 1; i <= 3; i++) {
            long t = s.ticket();
            s.run(t, emit(t)); // returns: left behind
        }
        assertEquals(List.of(), out);
        assertEquals(forgotten, s.nextTicket());
        assertTrue(s.stalledNanos() > 0, "a later task waits on the next ticket");
        Snapshot first = registry.collect();
        assertEquals(3, first.counter("o_left_behind"));
        assertEquals(0, first.counter("o_in_place"));
        assertEquals(forgotten, first.gauge("o_next_ticket").max());
        assertEquals(forgotten, first.gauge("o_next_ticket").min());

        long late = s.ticket(); // 4: ring full (4 - 0 >= capacity 4)
        Thread waiter = new Thread(() -> s.run(late, emit(late)), "ring-full-waiter");
        waiter.start();
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        boolean parkedOnScheduler = false;
        while (!parkedOnScheduler && System.nanoTime() - deadline < 0) {
            // state and blocker in one look: a short early park may end between two reads of them
            parkedOnScheduler = waiter.getState() == Thread.State.TIMED_WAITING && LockSupport.getBlocker(waiter) == s;
            if (!parkedOnScheduler) {
                LockSupport.parkNanos(100_000);
            }
        }
        assertTrue(parkedOnScheduler, "the ring-full waiter parks, and a thread dump names the scheduler it waits on");
        assertEquals(forgotten, s.nextTicket());
        long stalled = s.stalledNanos();
        assertTrue(stalled > 0);
        Snapshot second = registry.collect();
        assertEquals(forgotten, second.gauge("o_next_ticket").max(), "the parked waiter reports the ticket it waits on");
        assertTrue(second.gauge("o_stalled_ns").count() > 0, "the parked waiter reports how long");

        s.run(forgotten, emit(forgotten));
        waiter.join(DEADLINE_NANOS / 1_000_000);
        assertEquals(Thread.State.TERMINATED, waiter.getState());
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), out);
        assertEquals(0, s.stalledNanos(), "next advanced: nothing waits");
        Snapshot third = registry.collect();
        assertEquals(1, third.counterValue("o_ring_full_waits").total());
        assertEquals(1, third.histogram("o_ring_full_wait_ns").count());
    }

    @Test
    void anInterruptDoesNotEndTheRingFullWaitAndIsRestored() throws Exception {
        OrderedScheduler s = new OrderedScheduler(1);
        long t0 = s.ticket();
        long t1 = s.ticket();
        boolean[] interruptedAfter = new boolean[1];
        Thread waiter = new Thread(() -> {
            s.run(t1, emit(t1));
            interruptedAfter[0] = Thread.currentThread().isInterrupted();
        });
        waiter.start();
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (waiter.getState() != Thread.State.TIMED_WAITING && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(100_000);
        }
        waiter.interrupt();
        LockSupport.parkNanos(5_000_000);
        assertTrue(waiter.isAlive(), "still waiting for room");
        s.run(t0, emit(t0));
        waiter.join(DEADLINE_NANOS / 1_000_000);
        assertEquals(List.of(0L, 1L), out);
        assertTrue(interruptedAfter[0], "the interrupt status is restored");
    }

    /**
     * Issue 32 point 5: a second run(t0) (or trash) while the first copy of t0 runs on the owner's
     * thread throws on the duplicate caller's thread, runs nothing (neither its task nor ticket 1
     * early), and the owner's run(t0) returns normally.
     */
    @Test
    @Timeout(20)
    void aDuplicateRunWhileTheFirstCopyRunsInPlaceFailsOnTheDuplicateCallerOnly() throws Exception {
        OrderedScheduler s = new OrderedScheduler(4, registry, "o");
        long t0 = s.ticket();
        long t1 = s.ticket();
        runBlockedThenDuplicate(s, t0, () -> s.run(t1, emit(t1)), t0, List.of(0L, 1L));
        assertEquals(1, registry.collect().counter("o_in_place"), "the duplicate counted nothing");
    }

    /** The same while the first copy is a left-behind task that the previous ticket's thread drains. */
    @Test
    @Timeout(20)
    void aDuplicateRunWhileTheFirstCopyIsDrainedFailsOnTheDuplicateCallerOnly() throws Exception {
        OrderedScheduler s = new OrderedScheduler(4, registry, "o");
        long t0 = s.ticket();
        long t1 = s.ticket();
        long t2 = s.ticket();
        runBlockedThenDuplicate(s, t1, () -> s.run(t2, emit(t2)), t0, List.of(0L, 1L, 2L));
    }

    /**
     * Ticket {@code blocked}'s task blocks on a latch; an owner thread runs {@code ownerTicket}
     * (the blocked ticket itself, or the one before it, which drains the blocked one). While the
     * task blocks, {@code later} leaves a later task behind, then this thread calls run and trash
     * of the blocked ticket again.
     */
    private void runBlockedThenDuplicate(OrderedScheduler s, long blocked, Runnable later, long ownerTicket,
                                         List<Long> expected) throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Runnable blocking = () -> {
            out.add(blocked);
            running.countDown();
            ContendedLockTest.awaitUninterruptibly(release);
        };
        if (ownerTicket != blocked) {
            s.run(blocked, blocking); // left behind: the owner's thread drains it
        }
        List<Throwable> ownerFailures = Collections.synchronizedList(new ArrayList<>());
        Thread owner = new Thread(() -> {
            try {
                s.run(ownerTicket, ownerTicket == blocked ? blocking : emit(ownerTicket));
            } catch (Throwable e) {
                ownerFailures.add(e);
            }
        }, "owner");
        owner.setDaemon(true);
        owner.start();
        try {
            running.await();
            later.run();
            IllegalStateException run = assertThrows(IllegalStateException.class, () -> s.run(blocked, emit(99)));
            assertTrue(run.getMessage().contains("ticket " + blocked) && run.getMessage().contains("twice"), run.getMessage());
            IllegalStateException trash = assertThrows(IllegalStateException.class, () -> s.trash(blocked));
            assertTrue(trash.getMessage().contains("ticket " + blocked), trash.getMessage());
            assertEquals(expected.subList(0, (int) blocked + 1), out, "neither the duplicate nor a later ticket ran");
            assertEquals(blocked, s.nextTicket());
        } finally {
            release.countDown();
            owner.join(DEADLINE_NANOS / 1_000_000);
        }
        assertEquals(List.of(), ownerFailures, "the owner's run returned normally");
        assertEquals(expected, out);
        assertEquals(expected.size(), s.nextTicket());
    }

    /**
     * A second call for a ticket that read next below it and published its copy only after the
     * ticket ran leaves a stale Entry in the slot until its own thread takes it back. The next
     * lap's ticket (2, capacity 2) must wait for that, not throw: the stale Entry is planted by
     * reflection (the window lies inside one call) and removed as its caller would.
     */
    @Test
    @Timeout(20)
    void theNextLapWaitsForAStaleSecondCopyToBeTakenBackInsteadOfThrowing() throws Exception {
        OrderedScheduler s = new OrderedScheduler(2);
        long t0 = s.ticket();
        long t1 = s.ticket();
        long t2 = s.ticket();
        s.run(t0, emit(t0));
        Field ringField = OrderedScheduler.class.getDeclaredField("ring");
        ringField.setAccessible(true);
        Object[] ring = (Object[]) ringField.get(s);
        Constructor<?> entry = Class.forName(OrderedScheduler.class.getName() + "$Entry").getDeclaredConstructor(long.class, Object.class);
        entry.setAccessible(true);
        VarHandle slot = MethodHandles.arrayElementVarHandle(Object[].class);
        Object stale = entry.newInstance(t0, emit(99));
        slot.setVolatile(ring, (int) t2 & 1, stale);
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        Thread later = new Thread(() -> {
            try {
                s.run(t2, emit(t2));
            } catch (Throwable e) {
                failures.add(e);
            }
        }, "next-lap");
        later.start();
        while (!(later.getState() == Thread.State.TIMED_WAITING && LockSupport.getBlocker(later) == s) && later.isAlive()) {
            LockSupport.parkNanos(100_000); // the @Timeout bounds this
        }
        assertEquals(List.of(), failures, "ticket 2's call did not throw at the stale copy");
        assertTrue(later.isAlive(), "it waits, parked on the scheduler");
        assertTrue(slot.compareAndSet(ring, (int) t2 & 1, stale, null), "the stale copy's caller takes it back");
        later.join(DEADLINE_NANOS / 1_000_000);
        assertEquals(List.of(), failures);
        s.run(t1, emit(t1));
        assertEquals(List.of(0L, 1L, 2L), out, "ticket 2 was left behind and drained; the stale copy never ran");
    }

    /** docs/PROBES.md's usage example, with a list as the output and a failing frame trashed. */
    @Test
    void theUsageExampleOfProbesMd() throws Exception {
        StatRegistry stats = StatRegistry.create();
        OrderedScheduler frames = new OrderedScheduler(1024, stats, "frames");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(8, r -> {
            Thread t = new Thread(r);
            t.setUncaughtExceptionHandler((th, e) -> { }); // the rethrown encoding failures, expected
            return t;
        });
        List<Integer> written = new ArrayList<>(); // touched only by the ordered tasks: no lock needed
        try {
            for (int frame = 0; frame < 1000; frame++) {
                int f = frame;
                long ticket = frames.ticket();
                pool.execute(() -> {
                    int encoded;
                    try {
                        if (f % 100 == 99) {
                            throw new IllegalStateException("frame " + f + " cannot be encoded");
                        }
                        encoded = f * 2;
                    } catch (RuntimeException e) {
                        frames.trash(ticket);
                        throw e;
                    }
                    frames.run(ticket, () -> written.add(encoded));
                });
            }
        } finally {
            pool.shutdown();
            assertTrue(pool.awaitTermination(DEADLINE_NANOS, java.util.concurrent.TimeUnit.NANOSECONDS));
        }
        assertEquals(1000, frames.nextTicket());
        List<Integer> expected = new ArrayList<>();
        for (int f = 0; f < 1000; f++) {
            if (f % 100 != 99) {
                expected.add(f * 2);
            }
        }
        assertEquals(expected, written); // awaitTermination happens-after every task
        assertEquals(10, stats.collect().counter("frames_trashed"));
    }
}
