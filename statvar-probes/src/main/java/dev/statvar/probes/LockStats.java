package dev.statvar.probes;

import dev.statvar.Counter;
import dev.statvar.HistogramPrecision;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;

import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * One lock's (or one lock mode's) three series: acquisitions, acquisitions that had to wait,
 * and the waits in nanoseconds, in the families {@code <name>_acquired}, {@code <name>_contended}
 * and {@code <name>_wait} labelled by the creation site (and the mode, for read-write locks).
 * Shared by the contention-counting locks; thread-safe as statvar's stats are (any thread
 * updates, no lock, no locked instruction).
 */
final class LockStats {
    /** The modes of a read-write lock: "read" and "write". */
    static final int MODES = 2;

    final Counter acquired;
    final Counter contended;
    final Histogram waitNs;

    private LockStats(Counter acquired, Counter contended, Histogram waitNs) {
        this.acquired = acquired;
        this.contended = contended;
        this.waitNs = waitNs;
    }

    /**
     * The series of {@code site} (and {@code mode}, when not null) in {@code name}'s three families
     * of {@code registry}, created on first use; a site past a family's cap folds into "other".
     */
    static LockStats of(StatRegistry registry, String name, String site, String mode) {
        Objects.requireNonNull(registry, "registry");
        Objects.requireNonNull(name, "name");
        String[] labels = mode == null ? new String[] {"site"} : new String[] {"site", "mode"};
        String what = mode == null ? "lock" : "read-write lock";
        var acquired = registry.counterFamily(name + "_acquired", "acquisitions of the " + what + " " + name
                + ", by creation site", labels);
        var contended = registry.counterFamily(name + "_contended", "acquisitions of the " + what + " " + name
                + " that had to wait (acquired, timed out or interrupted), by creation site", labels);
        var waits = registry.histogramFamily(name + "_wait", "how long each waiting acquisition of the " + what + " " + name
                + " waited (recorded in nanoseconds), by creation site", HistogramPrecision.DEFAULT, labels);
        int others = mode == null ? 1 : MODES;
        String[] rest = mode == null ? new String[0] : new String[] {mode};
        return new LockStats(BoundedLabels.seriesOrOther(acquired, others, site, rest),
                BoundedLabels.seriesOrOther(contended, others, site, rest), BoundedLabels.seriesOrOther(waits, others, site, rest));
    }

    /** An acquisition that could not take the lock at once: a lock's own waiting acquisition. */
    interface Waiting {
        void acquire() throws InterruptedException;
    }

    /** A lock's own timed acquisition ({@code tryLock(timeout, unit)}). */
    interface Timed {
        boolean tryAcquire(long timeout, TimeUnit unit) throws InterruptedException;
    }

    /** Runs {@code lock}'s waiting acquisition that cannot be interrupted, counted and timed. */
    void waitFor(Runnable lock) {
        long t0 = System.nanoTime();
        lock.run();
        waited(t0);
    }

    /** Runs an interruptible waiting acquisition, counted and timed however it ends. */
    void waitForInterruptibly(Waiting lock) throws InterruptedException {
        long t0 = System.nanoTime();
        try {
            lock.acquire();
        } finally {
            waited(t0);
        }
    }

    /**
     * The rest of a timed {@code tryLock} whose first attempt failed: no wait when {@code timeout}
     * is not positive, else the lock's own timed acquisition, counted and timed; an acquisition counted.
     */
    boolean tryWaiting(Timed lock, long timeout, TimeUnit unit) throws InterruptedException {
        if (timeout <= 0) {
            return false;
        }
        long t0 = System.nanoTime();
        boolean got = false;
        try {
            got = lock.tryAcquire(timeout, unit);
        } finally {
            waited(t0);
        }
        if (got) {
            acquired.add();
        }
        return got;
    }

    /**
     * Whether a fair lock can be taken without waiting, as its policy allows: through its timed
     * acquisition with a zero timeout (which checks for queued threads first); when the thread is
     * interrupted (that call would throw), by barging only into a lock no thread queues for.
     */
    static boolean takeFairAtOnce(Timed zeroWait, java.util.function.BooleanSupplier queued,
                                  java.util.function.BooleanSupplier barge) {
        if (!Thread.currentThread().isInterrupted()) {
            try {
                return zeroWait.tryAcquire(0, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // interrupted in between: keep the status for the caller
            }
        }
        return !queued.getAsBoolean() && barge.getAsBoolean();
    }

    /**
     * Throws {@link NullPointerException} for a null unit of a timed {@code tryLock}, first, as
     * {@code ReentrantLock} does (it converts the timeout before anything else), even on a free lock.
     */
    static void checkUnit(TimeUnit unit) {
        Objects.requireNonNull(unit, "tryLock(timeout, unit): unit must not be null");
    }

    /** Throws when the calling thread is interrupted (clearing the status), as the JDK's interruptible acquisitions do first. */
    static void checkInterrupt() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
    }

    private void waited(long startNanos) {
        contended.add();
        waitNs.record(Math.max(0, System.nanoTime() - startNanos));
    }

    private static boolean isLockCode(Class<?> c) {
        Class<?> host = c.getNestHost();
        return host == LockStats.class || host == ContendedLock.class || host == ContendedReadWriteLock.class;
    }

    /**
     * {@code Class.method:line} of the code that called the constructor of {@code lockClass} (or of
     * its subclass): the first frame that is neither in this package's lock classes nor a constructor
     * of a subclass of {@code lockClass}; "unknown" when the stack has none.
     */
    static String creationSite(Class<?> lockClass) {
        return StackWalker.getInstance(Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE)).walk(frames -> frames
                .filter(f -> !isLockCode(f.getDeclaringClass())
                        && !(lockClass.isAssignableFrom(f.getDeclaringClass()) && f.getMethodName().equals("<init>")))
                .findFirst()
                .map(f -> f.getClassName() + "." + f.getMethodName() + ":" + f.getLineNumber())
                .orElse("unknown"));
    }
}
