package dev.statvar.internal;

import org.junit.jupiter.api.Test;

import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The collector thread: a daemon (it never keeps an application's JVM alive), parked between
 * intervals (no busy waiting), and close() blocks in join until the last interval is delivered,
 * keeping the caller's interrupt status.
 */
class IntervalCollectorTest {
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    private static Thread thread(String name) {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                return t;
            }
        }
        throw new AssertionError("no thread " + name);
    }

    /** Waits until {@code t} is in {@code state}; fails after 5 s (only a broken collector takes that long). */
    private static void awaitState(Thread t, Thread.State state) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (t.getState() != state) {
            if (System.nanoTime() - deadline > 0) {
                fail(t.getName() + " is " + t.getState() + ", expected " + state);
            }
            LockSupport.parkNanos(100_000); // poll with a park, not a spin
        }
    }

    @Test
    void theCollectorThreadIsADaemonAndDeliversUntilClosed() throws Exception {
        AtomicInteger collects = new AtomicInteger();
        AtomicBoolean daemon = new AtomicBoolean();
        CountDownLatch twoIntervals = new CountDownLatch(2);
        CountDownLatch stopped = new CountDownLatch(1);
        IntervalCollector<Integer> c = new IntervalCollector<>("ic-daemon", TimeUnit.MILLISECONDS.toNanos(1),
                collects::incrementAndGet, n -> {
                    daemon.set(Thread.currentThread().isDaemon());
                    twoIntervals.countDown();
                }, stopped::countDown);
        c.start();
        try {
            assertTrue(twoIntervals.await(10, TimeUnit.SECONDS));
        } finally {
            c.close();
        }
        assertEquals(0, stopped.getCount(), "onStop ran before close() returned");
        assertTrue(daemon.get(), "the collector thread must not keep the JVM alive");
        int n = collects.get();
        assertTrue(n >= 3, "two intervals and the last, partial one: " + n);
    }

    @Test
    void theCollectorParksUntilTheNextIntervalIsDue() throws Exception {
        AtomicInteger delivered = new AtomicInteger();
        IntervalCollector<Integer> c = new IntervalCollector<>("ic-parks", HOUR, () -> 1,
                delivered::addAndGet, () -> { });
        c.start();
        Thread t = thread("ic-parks");
        try {
            awaitState(t, Thread.State.TIMED_WAITING);
            assertEquals(0, delivered.get(), "nothing due within the hour");
        } finally {
            c.close();
        }
        assertFalse(t.isAlive());
        assertEquals(1, delivered.get(), "close() delivers the last, partial interval, once");
    }

    @Test
    void closeWaitsInJoinForTheLastIntervalAndKeepsTheCallersInterrupt() throws Exception {
        CountDownLatch inSink = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean sinkDone = new AtomicBoolean();
        IntervalCollector<Integer> c = new IntervalCollector<>("ic-close", HOUR, () -> 1, n -> {
            inSink.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            sinkDone.set(true);
        }, () -> { });
        c.start();
        AtomicBoolean doneWhenClosed = new AtomicBoolean();
        AtomicBoolean interruptedAfterClose = new AtomicBoolean();
        Thread closer = new Thread(() -> {
            Thread.currentThread().interrupt(); // the caller's pending interrupt ends its first join() at once
            c.close();
            doneWhenClosed.set(sinkDone.get());
            interruptedAfterClose.set(Thread.currentThread().isInterrupted());
        }, "ic-closer");
        closer.start();
        try {
            assertTrue(inSink.await(10, TimeUnit.SECONDS), "close() makes the collector deliver the last interval");
            awaitState(closer, Thread.State.WAITING); // blocked in join again, not spinning
        } finally {
            release.countDown();
            closer.join();
        }
        assertTrue(doneWhenClosed.get(), "close() returns after the last delivery");
        assertTrue(interruptedAfterClose.get(), "close() keeps the caller's interrupt");
    }
}
