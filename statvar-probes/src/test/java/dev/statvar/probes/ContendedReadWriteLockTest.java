package dev.statvar.probes;

import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ContendedReadWriteLock}: ReentrantReadWriteLock's semantics, counts per mode. */
class ContendedReadWriteLockTest {
    private final StatRegistry registry = StatRegistry.create();

    @Test
    void readersShareAndAWriterWaitsForThem() throws Exception {
        ContendedReadWriteLock rw = new ContendedReadWriteLock(registry, "cache_lock");
        assertSame(rw.readLock(), rw.readLock());
        rw.readLock().lock();
        Thread reader = new Thread(() -> {
            rw.readLock().lock(); // shared: no wait
            rw.readLock().unlock();
        });
        reader.start();
        reader.join();
        Thread writer = new Thread(() -> {
            rw.writeLock().lock();
            rw.writeLock().unlock();
        });
        writer.start();
        for (int i = 0; !rw.hasQueuedThread(writer); i++) {
            assertTrue(i < 10_000);
            Thread.sleep(1);
        }
        assertFalse(rw.writeLock().tryLock(), "held for reading");
        rw.readLock().unlock();
        writer.join();
        Snapshot s = registry.collect();
        Labels read = Labels.of("site", rw.site(), "mode", "read");
        Labels write = Labels.of("site", rw.site(), "mode", "write");
        assertEquals(2, s.counter("cache_lock_acquired", read));
        assertEquals(0, s.counter("cache_lock_contended", read));
        assertEquals(1, s.counter("cache_lock_acquired", write));
        assertEquals(1, s.counter("cache_lock_contended", write));
        assertEquals(1, s.histogram("cache_lock_wait", write).count());
    }

    @Test
    void countsAreExactUnderContentionInBothModesAndBothPolicies() throws Exception {
        for (boolean fair : new boolean[] {false, true}) {
            StatRegistry r = StatRegistry.create();
            ContendedReadWriteLock rw = new ContendedReadWriteLock(r, "rw", fair);
            int each = fair ? 2_000 : 20_000;
            long[] value = {0};
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean writer = t % 2 == 0;
                Thread th = new Thread(() -> {
                    ContendedLockTest.awaitUninterruptibly(start);
                    for (int i = 0; i < each; i++) {
                        var l = writer ? rw.writeLock() : rw.readLock();
                        try {
                            if (i % 3 == 0 ? l.tryLock(1, TimeUnit.SECONDS) : i % 3 == 1 ? tryInterruptibly(l) : lockPlain(l)) {
                                try {
                                    if (writer) {
                                        value[0]++;
                                    }
                                } finally {
                                    l.unlock();
                                }
                            }
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
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
            for (String mode : List.of("read", "write")) {
                Labels l = Labels.of("site", rw.site(), "mode", mode);
                assertEquals(2L * each, s.counter("rw_acquired", l), mode + " acquisitions (no 1 s tryLock timed out here)");
                assertEquals(s.counter("rw_contended", l), s.histogram("rw_wait", l).count(), mode);
            }
            assertEquals(2L * each, value[0], "writers excluded each other");
        }
    }

    private static boolean tryInterruptibly(java.util.concurrent.locks.Lock l) throws InterruptedException {
        l.lockInterruptibly();
        return true;
    }

    private static boolean lockPlain(java.util.concurrent.locks.Lock l) {
        l.lock();
        return true;
    }

    @Test
    void aReadLockTakenUnderTheWriteLockIsCounted() {
        ContendedReadWriteLock rw = new ContendedReadWriteLock(registry, "down");
        rw.writeLock().lock();
        rw.readLock().lock(); // downgrade
        rw.writeLock().unlock();
        rw.readLock().unlock();
        Snapshot s = registry.collect();
        assertEquals(1, s.counter("down_acquired", Labels.of("site", rw.site(), "mode", "read")));
        assertTrue(rw.readLock() instanceof ReentrantReadWriteLock.ReadLock);
    }

    @Test
    @Timeout(10)
    void aTimedTryLockWithANullUnitThrowsNullPointerExceptionInBothModesAsTheJdkDoes() {
        ReentrantReadWriteLock jdk = new ReentrantReadWriteLock();
        assertThrows(NullPointerException.class, () -> jdk.readLock().tryLock(1, null), "the JDK's read lock");
        assertThrows(NullPointerException.class, () -> jdk.writeLock().tryLock(1, null), "the JDK's write lock");
        ContendedReadWriteLock rw = new ContendedReadWriteLock(registry, "null_unit");
        NullPointerException read = assertThrows(NullPointerException.class, () -> rw.readLock().tryLock(1, null));
        assertTrue(read.getMessage().contains("unit"), read.getMessage());
        NullPointerException write = assertThrows(NullPointerException.class, () -> rw.writeLock().tryLock(1, null));
        assertTrue(write.getMessage().contains("unit"), write.getMessage());
        assertEquals(0, rw.getReadLockCount(), "no read lock taken");
        assertFalse(rw.isWriteLocked(), "no write lock taken");
    }
}
