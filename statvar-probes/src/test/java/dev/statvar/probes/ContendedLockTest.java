package dev.statvar.probes;

import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ContendedLock}: ReentrantLock's semantics, and exact counts of acquisitions, contended ones and their waits. */
public class ContendedLockTest {
    private static final String CLASS = ContendedLockTest.class.getName();

    private final StatRegistry registry = StatRegistry.create();

    @Test
    void uncontendedAcquisitionsAreCountedUnderTheCreationSite() {
        ContendedLock lock = new ContendedLock(registry, "orders_lock"); int line = new Throwable().getStackTrace()[0].getLineNumber();
        assertEquals(CLASS + ".uncontendedAcquisitionsAreCountedUnderTheCreationSite:" + line, lock.site());
        for (int i = 0; i < 1000; i++) {
            lock.lock();
            lock.unlock();
        }
        lock.lock();
        lock.lock(); // reentrant: counted too
        assertTrue(lock.tryLock());
        lock.unlock();
        lock.unlock();
        lock.unlock();
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals(1003, s.counter("orders_lock_acquired", site));
        assertEquals(0, s.counter("orders_lock_contended", site));
        assertEquals(0, s.histogram("orders_lock_wait", site).count());
    }

    @Test
    void aWaitingLockIsCountedOnceWithItsWait() throws Exception {
        ContendedLock lock = new ContendedLock(registry, "l");
        lock.lock();
        Thread waiter = new Thread(lock::lock);
        waiter.start();
        awaitQueued(lock, waiter);
        LockSupport.parkNanos(2_000_000);
        lock.unlock();
        waiter.join();
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals(2, s.counter("l_acquired", site));
        assertEquals(1, s.counter("l_contended", site));
        var wait = s.histogram("l_wait", site);
        assertEquals(1, wait.count());
        assertTrue(wait.max() >= 1_000_000, "the waiter waited at least while the holder slept: " + wait.max());
        assertTrue(lock.isHeldByCurrentThread() == false && lock.isLocked(), "the waiter holds it (and died holding it)");
    }

    @Test
    void tryLockThatFailsIsNotAnAcquisitionNorAWait() throws Exception {
        ContendedLock lock = new ContendedLock(registry, "l");
        holdInOtherThread(lock, () -> assertFalse(lock.tryLock()));
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals(1, s.counter("l_acquired", site), "the holder's only");
        assertEquals(0, s.counter("l_contended", site));
    }

    @Test
    void aTimedOutTryLockIsContendedButNotAcquired() throws Exception {
        ContendedLock lock = new ContendedLock(registry, "l");
        holdInOtherThread(lock, () -> {
            try {
                assertFalse(lock.tryLock(0, TimeUnit.MILLISECONDS), "no wait, no count");
                assertFalse(lock.tryLock(5, TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals(1, s.counter("l_acquired", site));
        assertEquals(1, s.counter("l_contended", site));
        assertTrue(s.histogram("l_wait", site).min() >= 5_000_000, "waited its 5 ms");
    }

    @Test
    void interruptedWhileWaitingIsContendedButNotAcquired() throws Exception {
        ContendedLock lock = new ContendedLock(registry, "l");
        lock.lock();
        Throwable[] thrown = new Throwable[1];
        Thread waiter = new Thread(() -> {
            try {
                lock.lockInterruptibly();
            } catch (InterruptedException e) {
                thrown[0] = e;
            }
        });
        waiter.start();
        awaitQueued(lock, waiter);
        waiter.interrupt();
        waiter.join();
        lock.unlock();
        assertTrue(thrown[0] instanceof InterruptedException);
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals(1, s.counter("l_acquired", site));
        assertEquals(1, s.counter("l_contended", site));
    }

    @Test
    void interruptibleAcquisitionsThrowOnAnInterruptedThreadEvenWhenTheLockIsFreeAsTheJdksDo() {
        for (boolean fair : new boolean[] {false, true}) {
            ContendedLock lock = new ContendedLock(registry, "l" + fair, fair);
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, lock::lockInterruptibly);
            assertFalse(Thread.currentThread().isInterrupted(), "cleared, as ReentrantLock does");
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, () -> lock.tryLock(1, TimeUnit.SECONDS));
            assertFalse(lock.isLocked());
            Thread.currentThread().interrupt();
            lock.lock(); // lock() ignores the interrupt and keeps it
            assertTrue(Thread.interrupted());
            lock.unlock();
        }
    }

    @Test
    void aFairLockKeepsItsPolicy() throws Exception {
        ContendedLock lock = new ContendedLock(registry, "fair_lock", true);
        List<String> order = new ArrayList<>();
        Thread main = Thread.currentThread();
        lock.lock();
        Thread b = new Thread(() -> {
            lock.lock();
            order.add("b"); // under the lock
            try {
                awaitQueued(lock, main); // hold it until the re-lock below waits for it
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            lock.unlock();
        });
        b.start();
        awaitQueued(lock, b);
        lock.unlock();
        lock.lock(); // b queued first: a fair lock gives it to b, so this waits (a barging lock would not)
        order.add("a");
        lock.unlock();
        b.join();
        assertEquals(List.of("b", "a"), order);
        Snapshot s = registry.collect();
        assertEquals(2, s.counter("fair_lock_contended", Labels.of("site", lock.site())), "b's wait and the re-lock's");
    }

    @Test
    void countsAreExactUnderContention() throws Exception {
        for (boolean fair : new boolean[] {false, true}) {
            StatRegistry r = StatRegistry.create();
            ContendedLock lock = new ContendedLock(r, "hot", fair);
            int threads = 4;
            int each = fair ? 2_000 : 50_000;
            long[] inside = {0};
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread th = new Thread(() -> {
                    awaitUninterruptibly(start);
                    for (int i = 0; i < each; i++) {
                        lock.lock();
                        try {
                            inside[0]++; // plain, guarded by the lock
                        } finally {
                            lock.unlock();
                        }
                    }
                });
                th.start();
                ts.add(th);
            }
            start.countDown();
            for (Thread th : ts) {
                th.join();
            }
            Snapshot s = r.collect();
            Labels site = Labels.of("site", lock.site());
            long contended = s.counter("hot_contended", site);
            assertEquals((long) threads * each, inside[0], "mutual exclusion");
            assertEquals((long) threads * each, s.counter("hot_acquired", site), "every acquisition counted once");
            assertEquals(contended, s.histogram("hot_wait", site).count(), "a wait per contended acquisition");
            assertTrue(contended <= (long) threads * each);
        }
    }

    @Test
    void countsAreExactForThreadSubclassesWhoseGetIdCollides() throws Exception {
        ContendedLock lock = new ContendedLock(registry, "sub_threads");
        int each = 20_000;
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < each; i++) {
                    lock.lock();
                    lock.unlock();
                }
            }) {
                @Override
                @SuppressWarnings("deprecation")
                public long getId() {
                    return 42; // every thread claims the same id (getId is not final before JDK 19)
                }
            };
            th.start();
            ts.add(th);
        }
        for (Thread th : ts) {
            th.join();
        }
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals(4L * each, s.counter("sub_threads_acquired", site));
        assertEquals(s.counter("sub_threads_contended", site), s.histogram("sub_threads_wait", site).count());
    }

    @Test
    void countsAreExactOnVirtualThreads() throws Exception {
        java.util.concurrent.ExecutorService virtual;
        try {
            virtual = (java.util.concurrent.ExecutorService) java.util.concurrent.Executors.class
                    .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (NoSuchMethodException e) {
            org.junit.jupiter.api.Assumptions.abort("virtual threads need JDK 21+");
            return;
        }
        ContendedLock lock = new ContendedLock(registry, "virtual_lock");
        int tasks = 1_000;
        int each = 100;
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        try {
            for (int t = 0; t < tasks; t++) {
                done.add(virtual.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        lock.lock();
                        try {
                            LockSupport.parkNanos(i % 10 == 0 ? 1_000 : 0); // hold it now and then: waits happen
                        } finally {
                            lock.unlock();
                        }
                    }
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(); // a task's failure fails the test
            }
        } finally {
            virtual.shutdown();
        }
        Snapshot s = registry.collect();
        Labels site = Labels.of("site", lock.site());
        assertEquals((long) tasks * each, s.counter("virtual_lock_acquired", site));
        assertEquals(s.counter("virtual_lock_contended", site), s.histogram("virtual_lock_wait", site).count());
    }

    @Test
    void sitesBeyondTheFamilyCapFoldIntoOther() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(3).build();
        List<Supplier<ContendedLock>> sites = List.of(
                () -> new ContendedLock(r, "many"),
                () -> new ContendedLock(r, "many"),
                () -> new ContendedLock(r, "many"),
                () -> new ContendedLock(r, "many"));
        List<ContendedLock> locks = new ArrayList<>();
        for (Supplier<ContendedLock> s : sites) {
            locks.add(s.get());
            locks.add(s.get()); // the same site again: the same series
        }
        for (Lock l : locks) {
            l.lock();
            l.unlock();
        }
        Snapshot s = r.collect();
        List<String> seen = new ArrayList<>();
        long total = 0;
        for (StatValue v : s) {
            if (v.name().equals("many_acquired")) {
                seen.add(v.labels().get("site"));
                total += s.counter("many_acquired", v.labels());
            }
        }
        assertEquals(3, seen.size(), "two sites and other: " + seen);
        assertTrue(seen.contains(BoundedLabels.OTHER), seen.toString());
        assertEquals(8, total, "nothing lost by folding");
        assertEquals(4, s.counter("many_acquired", Labels.of("site", BoundedLabels.OTHER)), "the last two sites' locks");
    }

    @Test
    void aSubclassCountsUnderTheCodeThatMadeIt() {
        class Named extends ContendedLock {
            Named() {
                super(registry, "sub");
            }
        }
        Named n = new Named(); int line = new Throwable().getStackTrace()[0].getLineNumber();
        assertEquals(CLASS + ".aSubclassCountsUnderTheCodeThatMadeIt:" + line, n.site());
    }

    @Test
    void badNamesAndClashesAreRefusedAndItIsNotSerializable() {
        assertThrows(NullPointerException.class, () -> new ContendedLock(null, "x"));
        assertThrows(IllegalArgumentException.class, () -> new ContendedLock(registry, "not a name"));
        new ContendedReadWriteLock(registry, "shared");
        assertThrows(IllegalArgumentException.class, () -> new ContendedLock(registry, "shared"), "other label names");
        assertThrows(NotSerializableException.class,
                () -> new ObjectOutputStream(new ByteArrayOutputStream()).writeObject(new ContendedLock(registry, "x")));
    }

    @Test
    @Timeout(10)
    void aTimedTryLockWithANullUnitThrowsNullPointerExceptionAsReentrantLockDoesEvenOnAFreeLock() {
        assertThrows(NullPointerException.class, () -> new ReentrantLock().tryLock(1, null), "the JDK's behaviour");
        for (boolean fair : new boolean[] {false, true}) {
            ContendedLock lock = new ContendedLock(registry, "null_unit", fair);
            NullPointerException e = assertThrows(NullPointerException.class, () -> lock.tryLock(1, null), "fair " + fair);
            assertTrue(e.getMessage().contains("unit"), e.getMessage());
            assertFalse(lock.isLocked(), "fair " + fair + ": the lock was not taken");
            Thread.currentThread().interrupt(); // the JDK converts the unit before it checks the interrupt
            try {
                assertThrows(NullPointerException.class, () -> lock.tryLock(1, null), "fair " + fair + ", interrupted");
                assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept, as the JDK keeps it");
            } finally {
                Thread.interrupted();
            }
            assertEquals(0, registry.collect().counter("null_unit_acquired", Labels.of("site", lock.site())),
                    "fair " + fair + ": nothing counted");
        }
    }

    static void awaitQueued(java.util.concurrent.locks.ReentrantLock lock, Thread t) throws InterruptedException {
        for (int i = 0; !lock.hasQueuedThread(t); i++) {
            assertTrue(i < 10_000, "the thread queued within 10 s");
            Thread.sleep(1);
        }
    }

    public static void awaitUninterruptibly(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Runs {@code check} on this thread while another thread holds {@code lock}. */
    private static void holdInOtherThread(Lock lock, Runnable check) throws InterruptedException {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            lock.lock();
            held.countDown();
            awaitUninterruptibly(done);
            lock.unlock();
        });
        holder.start();
        held.await();
        try {
            check.run();
        } finally {
            done.countDown();
            holder.join();
        }
    }
}
