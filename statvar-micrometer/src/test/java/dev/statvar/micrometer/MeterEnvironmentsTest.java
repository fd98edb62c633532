package dev.statvar.micrometer;

import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Micrometer meters in the environments that broke the engine once (BRIEF "Lessons from
 * review"): threads of a {@code Thread} subclass that claim the same {@code getId()}, and tasks on
 * the JDK 21+ common pool, whose workers lose their ThreadLocals between tasks. Each case updates
 * a counter, a timer and a summary while another thread collects the StatRegistry every 2 ms;
 * the meters' totals must hold every update.
 */
class MeterEnvironmentsTest {
    private static final long PER_THREAD = 500_000;
    private static final int TASKS = 20_000;

    /** A thread claiming a fixed id, as pools and frameworks that override getId() do. */
    private static final class SameIdThread extends Thread {
        SameIdThread(Runnable r, String name) {
            super(r, name);
        }

        @Override
        public long getId() {
            return 1_000_000_007L; // both threads; no real thread has it
        }
    }

    /** The meters under test, and a thread collecting their StatRegistry every 2 ms until closed. */
    private static final class Setup implements AutoCloseable {
        final StatRegistry stats = StatRegistry.create();
        final StatvarMeterRegistry registry = new StatvarMeterRegistry(stats);
        final Counter counter = registry.counter("events");
        final Timer timer = registry.timer("work");
        final DistributionSummary summary = registry.summary("sizes");
        private final AtomicBoolean done = new AtomicBoolean();
        private final Thread collector = new Thread(() -> {
            while (!done.get()) {
                stats.collect();
                LockSupport.parkNanos(2_000_000);
            }
        }, "collector");

        Setup() {
            collector.start();
        }

        void update(long k) {
            counter.increment();
            timer.record(k, TimeUnit.NANOSECONDS);
            summary.record(k);
        }

        void assertTotals(String where, long n, long sum) {
            assertEquals(n, counter.count(), 0.0, where + ": counter");
            assertEquals(n, timer.count(), where + ": timer count");
            assertEquals(sum, timer.totalTime(TimeUnit.NANOSECONDS), 0.0, where + ": timer total");
            assertEquals(n, summary.count(), where + ": summary count");
            assertEquals(sum, summary.totalAmount(), 0.0, where + ": summary total");
        }

        @Override
        public void close() throws InterruptedException {
            done.set(true);
            collector.join();
            registry.close();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void threadsOfASubclassClaimingTheSameIdAreAllCounted() throws Exception {
        try (Setup s = new Setup()) {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                threads.add(new SameIdThread(() -> {
                    for (long k = 0; k < PER_THREAD; k++) {
                        s.update(k);
                    }
                }, "same-id-" + i));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            s.assertTotals("2 threads with getId() = 1000000007", 2 * PER_THREAD, 2 * (PER_THREAD * (PER_THREAD - 1) / 2));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void commonPoolTasksAreAllCounted() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21,
                "the common pool erases ThreadLocals between tasks on JDK 21+; running JDK " + Runtime.version());
        try (Setup s = new Setup()) {
            for (int i = 0; i < TASKS; i++) { // one at a time: the worker goes idle between tasks
                final long k = i;
                CompletableFuture.runAsync(() -> s.update(k)).get(30, TimeUnit.SECONDS);
            }
            s.assertTotals(TASKS + " common-pool tasks", TASKS, (long) TASKS * (TASKS - 1) / 2);
        }
    }
}
