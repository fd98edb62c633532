package dev.statvar;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * close() with a sink that never returns (issue 32, point 4): bounded by its timeout, reports the
 * sink and its thread's stack, honours interrupts, and frees the registry for a new collector.
 * The updates of the interval an abandoned collector never delivered go to the next collect.
 * Every close() runs on a helper thread the test joins with a bound, so a close() that never
 * returns fails the test instead of hanging it.
 */
class CollectorCloseTest {
    /** A sink that blocks in its first delivery until released; counts deliveries. */
    static final class StuckSink implements Consumer<Snapshot> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger deliveries = new AtomicInteger();
        volatile Thread thread;

        @Override
        public void accept(Snapshot s) {
            deliveries.incrementAndGet();
            thread = Thread.currentThread();
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public String toString() {
            return "StuckSink#test";
        }
    }

    /** What a close() on a helper thread did. */
    record Closed(long nanos, RuntimeException thrown, boolean interruptedAfter) { }

    /** Runs {@code close} on a new thread (interrupted first if asked); fails if it has not returned after 20 s. */
    private static Closed closeOnAnotherThread(Runnable close, boolean interruptFirst) throws InterruptedException {
        AtomicReference<Closed> result = new AtomicReference<>();
        Thread closer = new Thread(() -> {
            if (interruptFirst) {
                Thread.currentThread().interrupt();
            }
            long t0 = System.nanoTime();
            RuntimeException thrown = null;
            try {
                close.run();
            } catch (RuntimeException e) {
                thrown = e;
            }
            result.set(new Closed(System.nanoTime() - t0, thrown, Thread.currentThread().isInterrupted()));
        }, "closer");
        closer.setDaemon(true);
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(20));
        assertFalse(closer.isAlive(), "close() has not returned after 20 s with a stuck sink");
        return result.get();
    }

    /**
     * Starts a collector whose sink gets stuck, runs {@code close} on it from another thread, checks that a
     * new collector can then start at once, releases the sink and checks that the old thread ended
     * without delivering again.
     */
    private static Closed closeStuck(Consumer<StatCollector> close, boolean interruptFirst) throws InterruptedException {
        StatRegistry r = StatRegistry.create();
        Counter counter = r.counter("c");
        StuckSink sink = new StuckSink();
        StatCollector c = r.startCollector(Duration.ofMillis(1), sink);
        Closed closed;
        try {
            assertTrue(sink.entered.await(10, TimeUnit.SECONDS), "no delivery");
            counter.add(5); // in the interval the stuck collector will never deliver
            closed = closeOnAnotherThread(() -> close.accept(c), interruptFirst);
            // the registry is not held by the stuck collector, and the next one delivers the undelivered updates
            AtomicLong next = new AtomicLong();
            r.startCollector(Duration.ofHours(1), s -> next.addAndGet(s.counter("c"))).close();
            assertEquals(5, next.get(), "the abandoned interval's updates go to the next collect");
        } finally {
            sink.release.countDown();
        }
        Thread t = sink.thread;
        t.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(t.isAlive(), "the abandoned collector's thread ended once its sink returned");
        assertEquals(1, sink.deliveries.get(), "an abandoned collector delivers nothing more");
        return closed;
    }

    @Tag("stress")
    @Test
    @Timeout(60)
    void closeGivesUpOnAStuckSinkAfterFiveSecondsNamingTheSinkAndItsStack() throws Exception {
        Closed closed = closeStuck(StatCollector::close, false);
        System.out.printf("close() with a stuck sink: %.3f s, %s%n", closed.nanos() / 1e9, closed.thrown());
        assertTrue(closed.nanos() >= StatCollector.DEFAULT_CLOSE_TIMEOUT.toNanos(), "waited the 5 s: " + closed.nanos());
        assertTrue(closed.nanos() < TimeUnit.SECONDS.toNanos(10), "bounded: " + closed.nanos());
        IllegalStateException e = assertInstanceOf(IllegalStateException.class, closed.thrown(), "reported");
        assertTrue(e.getMessage().contains("StuckSink#test"), e.getMessage());
        assertTrue(e.getMessage().contains("statvar-collector"), e.getMessage());
        assertNotNull(e.getCause(), "the cause carries the collector's stack");
        assertTrue(Arrays.stream(e.getCause().getStackTrace())
                        .anyMatch(f -> f.getClassName().equals(StuckSink.class.getName()) && f.getMethodName().equals("accept")),
                () -> Arrays.toString(e.getCause().getStackTrace()));
    }

    @Test
    @Timeout(60)
    void anInterruptedCloseReturnsAtOnceKeepingTheInterrupt() throws Exception {
        Closed closed = closeStuck(StatCollector::close, true);
        System.out.printf("interrupted close() with a stuck sink: %.3f ms%n", closed.nanos() / 1e6);
        assertTrue(closed.nanos() < TimeUnit.SECONDS.toNanos(1), "returned promptly: " + closed.nanos() + " ns");
        assertTrue(closed.interruptedAfter(), "the interrupt status is kept");
        assertNull(closed.thrown());
    }

    @Test
    @Timeout(60)
    void closeWithATimeoutWaitsThatLongAndReportsAgainWhenCalledAgain() throws Exception {
        AtomicReference<RuntimeException> second = new AtomicReference<>();
        Closed closed = closeStuck(c -> {
            assertThrows(NullPointerException.class, () -> c.close(null));
            assertThrows(IllegalArgumentException.class, () -> c.close(Duration.ofMillis(-1)));
            try {
                c.close(Duration.ofMillis(200));
            } finally {
                second.set(assertThrows(IllegalStateException.class, () -> c.close(Duration.ZERO)));
            }
        }, false);
        assertTrue(closed.nanos() >= TimeUnit.MILLISECONDS.toNanos(200), "waited: " + closed.nanos());
        assertTrue(closed.nanos() < TimeUnit.SECONDS.toNanos(3), "bounded: " + closed.nanos());
        IllegalStateException e = assertInstanceOf(IllegalStateException.class, closed.thrown());
        assertTrue(e.getMessage().contains("StuckSink#test"), e.getMessage());
        assertTrue(Arrays.stream(e.getCause().getStackTrace())
                        .anyMatch(f -> f.getClassName().equals(StuckSink.class.getName()) && f.getMethodName().equals("accept")),
                () -> "the cause carries the collector's stack: " + Arrays.toString(e.getCause().getStackTrace()));
        assertNotNull(second.get(), "closed again while still stuck: reported again");
    }
}
