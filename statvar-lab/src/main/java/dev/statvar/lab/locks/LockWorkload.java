package dev.statvar.lab.locks;

import dev.statvar.StatRegistry;
import dev.statvar.probes.ContendedLock;
import dev.statvar.probes.ContendedReadWriteLock;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.LockSupport;

/**
 * The locks study's workload: {@code threads} workers, each going round QUIET, LIGHT, HEAVY and
 * READ_MOSTLY for {@code seconds}; and for LONG_HOLD one batch thread holding its lock 30 ms every
 * 250 ms while one worker takes it every 5 ms. Work inside and outside a lock is busy computation
 * for a set time (the CPU is the point; it is not waiting for anything). Each worker counts its own
 * acquisitions per section in a local array, read by the main thread after {@link Thread#join()}
 * (JLS 17.4.5: everything a thread did happens-before a join that returns), to check statvar's
 * counts exactly.
 */
final class LockWorkload {
    /** How long READ_MOSTLY's writes hold the write lock. */
    static final long WRITE_HOLD_NS = 10_000;
    private final List<ContendedLock> quiet = new ArrayList<>();
    private final ContendedLock light;
    private final ContendedLock heavy;
    private final ContendedReadWriteLock readMostly;
    private final ContendedLock longHold;
    /** The creation sites, per section (the site statvar labels each lock's series with). */
    final String[] sites = new String[Section.values().length];

    LockWorkload(StatRegistry registry, int threads) {
        for (int t = 0; t < threads; t++) {
            quiet.add(new ContendedLock(registry, Section.QUIET.family()));
        }
        light = new ContendedLock(registry, Section.LIGHT.family());
        heavy = new ContendedLock(registry, Section.HEAVY.family());
        readMostly = new ContendedReadWriteLock(registry, Section.READ_MOSTLY.family());
        longHold = new ContendedLock(registry, Section.LONG_HOLD.family());
        sites[Section.QUIET.ordinal()] = quiet.get(0).site();
        sites[Section.LIGHT.ordinal()] = light.site();
        sites[Section.HEAVY.ordinal()] = heavy.site();
        sites[Section.READ_MOSTLY.ordinal()] = readMostly.site();
        sites[Section.LONG_HOLD.ordinal()] = longHold.site();
    }

    /**
     * Runs the workload for {@code seconds}; the acquisitions each section's locks saw, counted by
     * the threads themselves (READ_MOSTLY: reads and writes together).
     */
    long[] run(int threads, double seconds) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long[][] own = new long[threads + 2][Section.values().length];
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            all.add(new Thread(() -> worker(id, end, own[id]), "locks-worker-" + t));
        }
        all.add(new Thread(() -> batch(end, own[threads]), "locks-batch"));
        all.add(new Thread(() -> prober(end, own[threads + 1]), "locks-prober"));
        for (Thread t : all) {
            t.start();
        }
        long[] total = new long[Section.values().length];
        for (Thread t : all) {
            t.join();
        }
        for (long[] o : own) {
            for (int s = 0; s < total.length; s++) {
                total[s] += o[s];
            }
        }
        return total;
    }

    private void worker(int id, long end, long[] own) {
        ContendedLock mine = quiet.get(id);
        for (long i = 0; System.nanoTime() - end < 0; i++) {
            quietSection(mine, own);
            lightSection(own);
            heavySection(own);
            readMostlySection(i % 20 == 0, own);
        }
    }

    // One method per section: JFR's stack traces name the section by the first of these frames.

    private static void quietSection(Lock mine, long[] own) {
        hold(mine, Section.QUIET, Section.QUIET.holdNs, own);
    }

    private void lightSection(long[] own) {
        hold(light, Section.LIGHT, Section.LIGHT.holdNs, own);
    }

    private void heavySection(long[] own) {
        hold(heavy, Section.HEAVY, Section.HEAVY.holdNs, own);
    }

    private void readMostlySection(boolean write, long[] own) {
        hold(write ? readMostly.writeLock() : readMostly.readLock(), Section.READ_MOSTLY,
                write ? WRITE_HOLD_NS : Section.READ_MOSTLY.holdNs, own);
    }

    /** The section method a stack frame of this class names, or null for the other methods. */
    static Section sectionOf(String method) {
        return switch (method) {
            case "quietSection" -> Section.QUIET;
            case "lightSection" -> Section.LIGHT;
            case "heavySection" -> Section.HEAVY;
            case "readMostlySection" -> Section.READ_MOSTLY;
            case "batch", "prober" -> Section.LONG_HOLD;
            default -> null;
        };
    }

    private static void hold(Lock lock, Section s, long holdNs, long[] own) {
        lock.lock();
        try {
            own[s.ordinal()]++;
            work(holdNs);
        } finally {
            lock.unlock();
        }
        work(s.outsideNs);
    }

    /** Holds LONG_HOLD's lock 30 ms every 250 ms (sleeping, not working, while holding it). */
    private void batch(long end, long[] own) {
        while (System.nanoTime() - end < 0) {
            longHold.lock();
            try {
                own[Section.LONG_HOLD.ordinal()]++;
                LockSupport.parkNanos(Section.LONG_HOLD.holdNs);
            } finally {
                longHold.unlock();
            }
            LockSupport.parkNanos(220_000_000L);
        }
    }

    /** Takes LONG_HOLD's lock every 5 ms. */
    private void prober(long end, long[] own) {
        while (System.nanoTime() - end < 0) {
            longHold.lock();
            try {
                own[Section.LONG_HOLD.ordinal()]++;
            } finally {
                longHold.unlock();
            }
            LockSupport.parkNanos(Section.LONG_HOLD.outsideNs);
        }
    }

    /** Busy computation for about {@code ns}: the work a real section would do (bounded by the clock). */
    static long work(long ns) {
        long t0 = System.nanoTime();
        long x = t0;
        while (System.nanoTime() - t0 < ns) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
