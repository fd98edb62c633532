package dev.statvar.probes.ordered;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Many threads take tickets and run or trash them after random delays, against small and large
 * rings. The tasks read and write PLAIN fields of one shared object and check the previous
 * task's writes: order, exactly-once and happens-before, all from inside the tasks; nothing here
 * is timed (the sizes keep the run to a few seconds on 2 cores).
 */
@Tag("thorough")
class OrderedSchedulerStressTest {
    /** The state only tasks touch, with plain accesses: the scheduler's happens-before is all that orders them. */
    static final class Shared {
        long last = -1;
        long lastHash;
        long ran;
        long orderErrors;
        long hbErrors;
        final byte[] runs;

        Shared(int tickets) {
            runs = new byte[tickets];
        }
    }

    /** Longest a worker may take before the run counts as hung (the runs take seconds). */
    static final long HANG_MILLIS = 60_000;

    static long hash(long t) {
        return t * 0x9E3779B97F4A7C15L + 17;
    }

    @ParameterizedTest(name = "{0} threads, capacity {1}, {2} tickets each")
    @CsvSource({"8, 1, 500", "8, 2, 20000", "8, 8, 20000", "16, 64, 10000", "4, 1024, 40000", "4, 1024, 100000"})
    void orderExactlyOnceAndHappensBefore(int threads, int capacity, int perThread) throws Exception {
        StatRegistry registry = StatRegistry.create();
        OrderedScheduler s = new OrderedScheduler(capacity, registry, "o");
        int total = threads * perThread;
        Shared shared = new Shared(total);
        boolean[] trashedTickets = new boolean[total]; // each written by one worker, read after join
        AtomicLong trashedCount = new AtomicLong();
        runThreads(threads, "stress-", s, w -> () -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int i = 0; i < perThread; i++) {
                long t = s.ticket();
                int r = random.nextInt(1000);
                if (r < 2) {
                    LockSupport.parkNanos(random.nextInt(200_000)); // descheduled between ticket and run
                } else if (r < 300) {
                    spin(random.nextInt(5_000));
                }
                if (random.nextInt(16) == 0) {
                    trashedTickets[(int) t] = true;
                    trashedCount.incrementAndGet();
                    s.trash(t);
                } else {
                    s.run(t, () -> task(shared, t));
                }
            }
        });
        // join happens-after every task: the plain fields are safe to read now
        assertEquals(total, s.nextTicket(), "every ticket ran or was trashed");
        assertEquals(0, shared.orderErrors, "tasks out of ticket order");
        assertEquals(0, shared.hbErrors, "a task did not see the previous task's plain writes");
        long expected = total - trashedCount.get();
        assertEquals(expected, shared.ran);
        for (int t = 0; t < total; t++) {
            assertEquals(trashedTickets[t] ? 0 : 1, shared.runs[t], "runs of ticket " + t);
        }
        Snapshot snap = registry.collect();
        assertEquals(expected, snap.counter("o_in_place") + snap.counter("o_left_behind"));
        assertEquals(trashedCount.get(), snap.counter("o_trashed"));
        assertEquals(snap.counter("o_left_behind"), snap.gauge("o_drained_run").sum(), "every left-behind task was drained");
    }

    /**
     * Issue 32 point 5, misuse raced: two threads both call run(t) for every ticket t (the
     * second call of each pair is a duplicate). For every ticket exactly one of the two tasks
     * runs, in order, and exactly one of the two calls throws IllegalStateException; nothing
     * else is thrown and the sequence reaches the end.
     */
    @ParameterizedTest(name = "capacity {0}, {1} tickets, each run twice at once")
    @CsvSource({"1, 20000", "4, 50000", "64, 50000"})
    @Timeout(120)
    void twoCallsForEachTicketRunOneTaskAndThrowOnce(int capacity, int tickets) throws Exception {
        OrderedScheduler s = new OrderedScheduler(capacity);
        for (int t = 0; t < tickets; t++) {
            s.ticket();
        }
        Shared shared = new Shared(tickets);
        AtomicIntegerArray refused = new AtomicIntegerArray(tickets);
        runThreads(2, "caller-", s, c -> () -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            for (int t = 0; t < tickets; t++) {
                if (random.nextInt(4) == 0) {
                    spin(random.nextInt(2_000));
                }
                long ticket = t;
                try {
                    s.run(ticket, () -> task(shared, ticket));
                } catch (IllegalStateException duplicate) {
                    refused.incrementAndGet(t);
                }
            }
        });
        assertEquals(tickets, s.nextTicket(), "every ticket ran");
        assertEquals(0, shared.orderErrors, "tasks out of ticket order");
        assertEquals(0, shared.hbErrors, "a task did not see the previous task's plain writes");
        for (int t = 0; t < tickets; t++) {
            assertEquals(1, shared.runs[t], "runs of ticket " + t);
            assertEquals(1, refused.get(t), "calls of ticket " + t + " refused");
        }
        assertEquals(tickets, shared.ran);
    }

    /**
     * Runs {@code body(i)} on {@code n} daemon threads named {@code name + i} (a hung run, a lost
     * task making later tickets wait for room for ever, must not keep the JVM), joins them, and
     * fails if one is still there after {@link #HANG_MILLIS} or one threw.
     */
    static void runThreads(int n, String name, OrderedScheduler s, IntFunction<Runnable> body) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Thread thread = new Thread(body.apply(i), name + i);
            thread.setDaemon(true);
            thread.setUncaughtExceptionHandler((th, e) -> {
                synchronized (failures) {
                    failures.add(e);
                }
            });
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(HANG_MILLIS);
            // not a timing check: a run takes seconds; a thread still there after a minute waits for a task that was lost
            assertFalse(thread.isAlive(), thread.getName() + " is stuck (a task lost or run early?): " + s);
        }
        synchronized (failures) {
            assertEquals(List.of(), failures);
        }
    }

    /** Checks the previous task's plain writes, then writes its own. */
    static void task(Shared shared, long t) {
        long prev = shared.last;
        if (prev >= t) {
            shared.orderErrors++;
        }
        if (prev >= 0 && shared.lastHash != hash(prev)) {
            shared.hbErrors++;
        }
        shared.runs[(int) t]++;
        shared.ran++;
        shared.lastHash = hash(t);
        shared.last = t;
    }

    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
