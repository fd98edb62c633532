package dev.statvar.probes;

import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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

    @Test
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
}
