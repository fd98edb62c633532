package dev.statvar.probes;

import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WakeupTimerTest {
    /** Overall bound of every wait in these tests: a lost wake-up fails the test instead of hanging it. */
    private static final long LIMIT_NS = TimeUnit.SECONDS.toNanos(60);

    @Test
    void severalSignalsBeforeOneWakeTimeTheEarliestAndAreCountedOnce() {
        StatRegistry r = StatRegistry.create();
        AtomicLong clock = new AtomicLong();
        WakeupTimer w = new WakeupTimer(r, "wake", clock::get);

        clock.set(100);
        assertTrue(w.beforeSignal());
        clock.set(200);
        assertFalse(w.beforeSignal(), "a stamp is pending: coalesced");
        clock.set(250);
        assertFalse(w.beforeSignal());
        assertTrue(w.isPending());
        clock.set(350);
        assertEquals(250, w.woke(), "timed from the earliest signal");
        assertFalse(w.isPending());
        clock.set(400);
        assertEquals(-1, w.woke(), "the stamp was taken: a second wake-up is unstamped");

        clock.set(0); // a nanoTime of 0 is stored as 1, never lost as "no stamp"
        assertTrue(w.beforeSignal());
        assertTrue(w.isPending());
        clock.set(10);
        assertEquals(9, w.woke());

        Snapshot s = r.collect();
        HistogramValue h = s.histogram("wake");
        assertEquals(2, h.count());
        assertEquals(259, h.sum());
        assertEquals(2, s.counter("wake_coalesced"));
        assertEquals(1, s.counter("wake_unstamped"));
        assertEquals("wake", w.name());
    }

    @Test
    void invalidArgumentsAreRefused() {
        StatRegistry r = StatRegistry.create();
        assertThrows(IllegalArgumentException.class, () -> WakeupTimer.create(null, "w"));
        assertThrows(IllegalArgumentException.class, () -> WakeupTimer.create(r, null));
        assertThrows(IllegalArgumentException.class, () -> WakeupTimer.create(r, "not a name"));
        r.counter("taken");
        assertThrows(IllegalArgumentException.class, () -> WakeupTimer.create(r, "taken"));
    }

    /**
     * A park/unpark ping-pong with real threads: round i is stamped once by the pinger, and the
     * ponger wakes once for it, so the histogram counts exactly the rounds, with no unstamped or
     * coalesced signal.
     */
    @Test
    void parkUnparkPingPongRecordsEveryStampedSignalExactlyOnce() throws Exception {
        int rounds = 5_000;
        StatRegistry r = StatRegistry.create();
        WakeupTimer w = WakeupTimer.create(r, "pong_wakeup");
        AtomicLong request = new AtomicLong();
        AtomicLong ack = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong stamped = new AtomicLong();
        Thread[] threads = new Thread[2];
        threads[1] = new Thread(() -> {
            try {
                for (long i = 1; i <= rounds; i++) {
                    awaitAtLeast(request, i);
                    if (w.woke() < 0) {
                        throw new AssertionError("round " + i + " woke without a stamp");
                    }
                    ack.set(i);
                    LockSupport.unpark(threads[0]);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "ponger");
        threads[0] = new Thread(() -> {
            try {
                for (long i = 1; i <= rounds; i++) {
                    awaitAtLeast(ack, i - 1);
                    if (w.beforeSignal()) { // before the condition is published
                        stamped.incrementAndGet();
                    }
                    request.set(i);
                    LockSupport.unpark(threads[1]);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "pinger");
        threads[1].start();
        threads[0].start();
        for (Thread t : threads) {
            t.join(TimeUnit.NANOSECONDS.toMillis(2 * LIMIT_NS));
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        assertNull(failure.get());
        Snapshot s = r.collect();
        HistogramValue h = s.histogram("pong_wakeup");
        assertEquals(rounds, stamped.get());
        assertEquals(rounds, h.count(), "one record per stamped signal");
        assertTrue(h.min() >= 0);
        assertEquals(0, s.counter("pong_wakeup_unstamped"));
        assertEquals(0, s.counter("pong_wakeup_coalesced"));
        assertFalse(w.isPending());
    }

    /**
     * Two signallers racing one waiter that wakes whenever it likes: whatever interleaving, every
     * beforeSignal() either stamps or counts as coalesced, and every stamp is recorded exactly once
     * (the last one possibly still pending).
     */
    @Test
    void racingSignallersNeverLoseOrDoubleCountAStamp() throws Exception {
        int perSignaller = 20_000;
        StatRegistry r = StatRegistry.create();
        WakeupTimer w = WakeupTimer.create(r, "raced");
        AtomicLong stamped = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        Thread waiter = new Thread(() -> {
            while (!done.get()) {
                LockSupport.parkNanos(this, 100_000);
                w.woke();
            }
        }, "waiter");
        Runnable signal = () -> {
            for (int i = 0; i < perSignaller; i++) {
                if (w.beforeSignal()) {
                    stamped.incrementAndGet();
                }
                LockSupport.unpark(waiter);
            }
        };
        Thread a = new Thread(signal, "signaller-a");
        Thread b = new Thread(signal, "signaller-b");
        waiter.start();
        a.start();
        b.start();
        a.join(TimeUnit.NANOSECONDS.toMillis(LIMIT_NS));
        b.join(TimeUnit.NANOSECONDS.toMillis(LIMIT_NS));
        assertFalse(a.isAlive() || b.isAlive(), "signallers did not finish");
        done.set(true);
        LockSupport.unpark(waiter);
        waiter.join(TimeUnit.NANOSECONDS.toMillis(LIMIT_NS));
        assertFalse(waiter.isAlive());

        Snapshot s = r.collect();
        long recorded = s.histogram("raced").count();
        long pending = w.isPending() ? 1 : 0;
        assertEquals(stamped.get(), recorded + pending, "each stamp recorded once");
        assertEquals(2L * perSignaller, stamped.get() + s.counter("raced_coalesced"), "each signal stamped or coalesced");
        assertTrue(s.histogram("raced").min() >= 0);
    }

    /** Parks until {@code v >= target}, each park bounded, the whole wait bounded by {@link #LIMIT_NS}. */
    private static void awaitAtLeast(AtomicLong v, long target) {
        long deadline = System.nanoTime() + LIMIT_NS;
        while (v.get() < target) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("waited " + LIMIT_NS + " ns for " + target + ", saw " + v.get());
            }
            LockSupport.parkNanos(v, 10_000_000);
        }
    }
}
