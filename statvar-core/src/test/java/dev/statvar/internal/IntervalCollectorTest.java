package dev.statvar.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

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
 * intervals (no busy waiting), and close() waits in a timed join until the last interval is
 * delivered; an interrupt ends that wait, keeping the caller's interrupt status, and abandons the
 * collector (onStop runs once, nothing is delivered after the sink returns).
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

    /** A collector whose sink blocks in every delivery until {@code release}; counts deliveries and onStop runs. */
    private static final class Blocking {
        final CountDownLatch inSink = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger deliveries = new AtomicInteger();
        final AtomicInteger stops = new AtomicInteger();
        final IntervalCollector<Integer> collector;

        Blocking(String name, long intervalNanos) {
            collector = new IntervalCollector<>(name, intervalNanos, () -> 1, n -> {
                deliveries.incrementAndGet();
                inSink.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, stops::incrementAndGet);
            collector.start();
        }
    }

    @Test
    void closeWaitsInATimedJoinForTheLastInterval() throws Exception {
        Blocking b = new Blocking("ic-close", HOUR);
        AtomicInteger deliveredWhenClosed = new AtomicInteger(-1);
        Thread closer = new Thread(() -> {
            b.collector.close();
            deliveredWhenClosed.set(b.deliveries.get());
        }, "ic-closer");
        closer.start();
        try {
            assertTrue(b.inSink.await(10, TimeUnit.SECONDS), "close() makes the collector deliver the last interval");
            awaitState(closer, Thread.State.TIMED_WAITING); // a bounded join, not spinning
        } finally {
            b.release.countDown();
            closer.join();
        }
        assertEquals(1, deliveredWhenClosed.get(), "close() returns after the last delivery");
        assertEquals(1, b.stops.get(), "onStop ran once");
    }

    @Test
    void anInterruptedCloseAbandonsTheCollectorAndRunsOnStopOnce() throws Exception {
        Blocking b = new Blocking("ic-abandoned", TimeUnit.MILLISECONDS.toNanos(1));
        assertTrue(b.inSink.await(10, TimeUnit.SECONDS));
        Thread t = thread("ic-abandoned");
        Thread.currentThread().interrupt();
        b.collector.close();
        assertTrue(Thread.interrupted(), "close() keeps the caller's interrupt");
        assertEquals(1, b.stops.get(), "onStop ran when close() gave up");
        b.release.countDown();
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(t.isAlive());
        assertEquals(1, b.deliveries.get(), "nothing delivered after the sink returned");
        assertEquals(1, b.stops.get(), "onStop ran once");
    }

    /** A timeout of more nanoseconds than a long holds waits as long as it takes (saturated), not not at all. */
    @Test
    @Timeout(60)
    void aCloseTimeoutBeyondWhatNanosecondsHoldWaitsForTheLastInterval() {
        Thread closer = Thread.currentThread();
        AtomicInteger delivered = new AtomicInteger();
        IntervalCollector<Integer> c = new IntervalCollector<>("ic-centuries", HOUR, () -> 1, n -> {
            awaitState(closer, Thread.State.TIMED_WAITING); // the last interval: returns once close() waits for it
            delivered.incrementAndGet();
        }, () -> { });
        c.start();
        c.close(Duration.ofDays(365L * 300)); // about 9.5e18 ns: more than Long.MAX_VALUE
        assertEquals(1, delivered.get(), "the last interval, delivered while close() waited");
    }
}
