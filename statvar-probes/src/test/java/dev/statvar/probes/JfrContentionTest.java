package dev.statvar.probes;

import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class JfrContentionTest {
    /** How long the holder keeps the lock, so the other thread blocks well beyond the threshold. */
    private static final long HOLD_MS = 30;
    private static final Duration THRESHOLD = Duration.ofMillis(5);
    private static final long POLL_LIMIT_NS = TimeUnit.SECONDS.toNanos(10);

    /** The monitor's class, so the label is ours alone. */
    static final class SyncMonitor {
    }

    /** The waited-on monitor's class. */
    static final class WaitMonitor {
    }

    /** The park blocker's class. */
    static final class ParkBlocker {
    }

    @Test
    @SuppressWarnings("try") // the bridge runs for the try block; closing it is the point
    void contendedSynchronizedReentrantLockAndWaitShowUnderTheirClass() throws Exception {
        StatRegistry r = StatRegistry.create();
        SyncMonitor monitor = new SyncMonitor();
        WaitMonitor waitOn = new WaitMonitor();
        ReentrantLock lock = new ReentrantLock();
        Labels syncLabel = Labels.of(JfrContention.LABEL, SyncMonitor.class.getName());
        Labels waitLabel = Labels.of(JfrContention.LABEL, WaitMonitor.class.getName());
        Labels parkLabel = Labels.of(JfrContention.LABEL, "java.util.concurrent.locks.ReentrantLock$NonfairSync");
        long enter = 0;
        long park = 0;
        long waited = 0;
        try (JfrContention jfr = JfrContention.start(r, THRESHOLD)) {
            long deadline = System.nanoTime() + POLL_LIMIT_NS;
            while (enter == 0 || park == 0 || waited == 0) {
                if (System.nanoTime() - deadline > 0) {
                    fail("after 10 s: monitor enter " + enter + ", park " + park + ", wait " + waited + " events");
                }
                contend(() -> {
                    synchronized (monitor) {
                        sleep(HOLD_MS);
                    }
                }, () -> {
                    synchronized (monitor) {
                        monitor.hashCode();
                    }
                });
                contend(() -> {
                    lock.lock();
                    try {
                        sleep(HOLD_MS);
                    } finally {
                        lock.unlock();
                    }
                }, () -> {
                    lock.lock();
                    lock.unlock();
                });
                synchronized (waitOn) {
                    waitOn.wait(HOLD_MS); // times out: a JavaMonitorWait event of ~HOLD_MS
                }
                Snapshot s = r.collect();
                enter += count(s, JfrContention.MONITOR_ENTER, syncLabel);
                park += count(s, JfrContention.THREAD_PARK, parkLabel);
                waited += count(s, JfrContention.MONITOR_WAIT, waitLabel);
            }
        }
        HistogramValue h = r.collect().histogram(JfrContention.MONITOR_ENTER, syncLabel).totals();
        assertTrue(h.min() >= THRESHOLD.toNanos(), "only events over the threshold: " + h);
    }

    private static long count(Snapshot s, String family, Labels labels) {
        try {
            return s.histogram(family, labels).count();
        } catch (IllegalArgumentException noSeriesYet) {
            return 0;
        }
    }

    /** Runs {@code holder} and, once it holds, {@code contender} on two threads; waits for both. */
    private static void contend(Runnable holder, Runnable contender) throws InterruptedException {
        CountDownLatch holding = new CountDownLatch(1);
        Thread h = new Thread(() -> {
            holding.countDown(); // just before it takes the lock: the contender waits a little below
            holder.run();
        }, "holder");
        Thread c = new Thread(() -> {
            try {
                holding.await();
                Thread.sleep(HOLD_MS / 3); // let the holder take it first
            } catch (InterruptedException e) {
                return;
            }
            contender.run();
        }, "contender");
        h.start();
        c.start();
        h.join(TimeUnit.SECONDS.toMillis(30));
        c.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(h.isAlive() || c.isAlive(), "a contention thread is stuck");
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void thresholdAndRegistryAreValidated() {
        StatRegistry r = StatRegistry.create();
        IllegalArgumentException neg = assertThrows(IllegalArgumentException.class,
                () -> JfrContention.start(r, Duration.ofNanos(-1)));
        assertTrue(neg.getMessage().contains("negative"), neg.getMessage());
        IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> JfrContention.start(r, null));
        assertTrue(nul.getMessage().contains("threshold"), nul.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JfrContention.start(null, Duration.ZERO));
        assertEquals(0, r.size(), "nothing registered by a refused start");
    }

    @Test
    void aFamilyNameTakenByAnotherStatIsRefusedAndNoStreamIsLeft() {
        StatRegistry r = StatRegistry.create();
        r.counter(JfrContention.THREAD_PARK);
        assertThrows(IllegalArgumentException.class, () -> JfrContention.start(r, Duration.ofMillis(20)));
    }

    @Test
    void closeStopsTheStreamThreadAndIsIdempotent() throws Exception {
        StatRegistry r = StatRegistry.create();
        JfrContention jfr = JfrContention.start(r, Duration.ofMillis(20));
        long deadline = System.nanoTime() + POLL_LIMIT_NS;
        Thread t;
        while ((t = jfr.streamThread()) == null) { // known at its first flush (about once a second)
            if (System.nanoTime() - deadline > 0) {
                fail("the stream delivered no flush in 10 s");
            }
            Thread.sleep(20);
        }
        assertNotNull(t);
        assertTrue(t.isAlive());
        jfr.close();
        assertFalse(t.isAlive(), "close() waited for the stream thread");
        jfr.close();
    }

    /**
     * Issue 32 point 2: JFR gives a stream the events of the lowest threshold of all recordings,
     * so beside a recording at 0 the bridge must drop what is shorter than its own threshold.
     * Parks and waits of 5 ms (below) and 100 ms (above) a 50 ms bridge; the bounds come from
     * each call's own measured length (JFR's duration lies within it).
     */
    @Test
    @Timeout(60)
    void onlyEventsAtLeastItsThresholdReachItsHistogramsBesideARecordingAtThresholdZero() throws Exception {
        Duration threshold = Duration.ofMillis(50);
        long margin = TimeUnit.MILLISECONDS.toNanos(10);
        StatRegistry r = StatRegistry.create();
        Labels parkLabel = Labels.of(JfrContention.LABEL, ParkBlocker.class.getName());
        Labels waitLabel = Labels.of(JfrContention.LABEL, WaitMonitor.class.getName());
        ParkBlocker blocker = new ParkBlocker();
        WaitMonitor waitOn = new WaitMonitor();
        List<Long> parks = new ArrayList<>();
        List<Long> waits = new ArrayList<>();
        long parked;
        long waited;
        try (Recording everything = new Recording()) {
            everything.enable("jdk.ThreadPark").withThreshold(Duration.ZERO).withoutStackTrace();
            everything.enable("jdk.JavaMonitorWait").withThreshold(Duration.ZERO).withoutStackTrace();
            everything.start();
            try (JfrContention jfr = JfrContention.start(r, threshold)) {
                for (long ms : new long[] {5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 100, 100, 100}) {
                    long t0 = System.nanoTime();
                    LockSupport.parkNanos(blocker, TimeUnit.MILLISECONDS.toNanos(ms));
                    long t1 = System.nanoTime();
                    synchronized (waitOn) {
                        waitOn.wait(ms); // times out: nobody notifies
                    }
                    parks.add(t1 - t0);
                    waits.add(System.nanoTime() - t1);
                }
                long parkLow = atLeast(parks, threshold.toNanos() + margin);
                long waitLow = atLeast(waits, threshold.toNanos() + margin);
                do { // the stream is ordered: once the long ones are in, so is every earlier event
                    Thread.sleep(20);
                    Snapshot s = r.collect();
                    parked = total(s, JfrContention.THREAD_PARK, parkLabel);
                    waited = total(s, JfrContention.MONITOR_WAIT, waitLabel);
                } while (parked < parkLow || waited < waitLow);
            }
        }
        String seen = "parks " + parks + ", waits " + waits + " ns; recorded " + parked + " parks, " + waited + " waits";
        assertTrue(parked <= atLeast(parks, threshold.toNanos()), "a park shorter than 50 ms was recorded: " + seen);
        assertTrue(waited <= atLeast(waits, threshold.toNanos()), "a wait shorter than 50 ms was recorded: " + seen);
        Snapshot s = r.collect();
        assertTrue(s.histogram(JfrContention.THREAD_PARK, parkLabel).totals().min() >= threshold.toNanos(), seen);
        assertTrue(s.histogram(JfrContention.MONITOR_WAIT, waitLabel).totals().min() >= threshold.toNanos(), seen);
        System.out.println("JfrContention at 50 ms beside a recording at 0: " + seen);
    }

    private static long atLeast(List<Long> lengths, long nanos) {
        return lengths.stream().filter(l -> l >= nanos).count();
    }

    private static long total(Snapshot s, String family, Labels labels) {
        try {
            return s.histogram(family, labels).totals().count();
        } catch (IllegalArgumentException noSeriesYet) {
            return 0;
        }
    }

    @Test
    @Timeout(60)
    void aSecondBridgeOnTheSameRegistryIsRefusedUntilTheFirstIsClosedThenItStartsAgain() {
        StatRegistry r = StatRegistry.create();
        Duration threshold = Duration.ofMillis(20);
        JfrContention first = JfrContention.start(r, threshold);
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> JfrContention.start(r, threshold));
            assertTrue(e.getMessage().contains("already running") && e.getMessage().contains(JfrContention.THREAD_PARK),
                    e.getMessage());
            JfrContention.start(StatRegistry.create(), threshold).close(); // another registry: allowed
        } finally {
            first.close();
        }
        JfrContention again = JfrContention.start(r, threshold); // closed: the registry is free again
        try {
            first.close(); // again, late: must not release the running bridge's registry
            assertThrows(IllegalStateException.class, () -> JfrContention.start(r, threshold));
        } finally {
            again.close();
        }
        JfrContention.start(r, threshold).close();
    }
}
