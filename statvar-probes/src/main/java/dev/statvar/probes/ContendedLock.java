package dev.statvar.probes;

import dev.statvar.StatRegistry;

import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A {@link ReentrantLock} that counts, exactly, every acquisition and every acquisition that had
 * to wait, and records each wait in nanoseconds: Jean-Philippe Bempel's lock contention profiler ("Measuring contention on locks", 2015) as a drop-in
 * replacement, always on.
 *
 * <p>Into three families of {@code registry}, labelled {@code site}, the creation site of the lock
 * ({@code package.Class.method:line} of the code that called the constructor, found once with
 * {@link StackWalker}):
 * <ul>
 *   <li>{@code <name>_acquired} (counter): every acquisition through {@link #lock()},
 *       {@link #lockInterruptibly()}, {@link #tryLock()} and {@link #tryLock(long, TimeUnit)},
 *       reentrant ones included;</li>
 *   <li>{@code <name>_contended} (counter): every attempt of {@code lock()},
 *       {@code lockInterruptibly()} and the timed {@code tryLock} that could not take the lock at
 *       once and waited, whether it then acquired it, timed out or was interrupted;</li>
 *   <li>{@code <name>_wait} (histogram): how long each of those waited.</li>
 * </ul>
 * Locks made at the same site share their series (a site making many short-lived locks is one
 * line on the dashboard). Once a family holds its registry's maximum of series but one, new
 * sites count under {@code site="other"}: never an exception in the service.
 *
 * <h2>Contract</h2>
 * Semantics are {@link ReentrantLock}'s, fair or not, unchanged; the statistics are a side effect.
 * Thread-safe. The uncontended {@code lock()} adds one statvar counter update to
 * {@code ReentrantLock}'s (a plain read and an opaque store of the calling thread's own cell; no
 * lock and no locked instruction of its own); a waiting acquisition adds two clock reads, a
 * counter update and a histogram record. Not counted: the re-acquisition inside
 * {@link java.util.concurrent.locks.Condition#await()} (AQS re-takes the lock without calling these
 * methods). Not serializable: it records into a registry, which is not.
 *
 * <pre>{@code
 * private final Lock lock = new ContendedLock(stats, "orders_lock");   // was: new ReentrantLock()
 * }</pre>
 */
public class ContendedLock extends ReentrantLock {
    /*
     * Design. An acquisition first tries to take the lock without waiting; only when that fails
     * is it counted as contended, timed, and handed to ReentrantLock's own waiting acquisition.
     * "Without waiting" keeps the lock's policy: a non-fair lock barges (tryLock()); a fair one
     * takes an available lock only when no thread queues, which is what the timed tryLock with a
     * zero timeout does (FairSync checks hasQueuedPredecessors). That call throws when the thread
     * is interrupted, so an interrupted thread checks hasQueuedThreads() and barges at most into
     * a lock nobody queues for. The super calls go straight to ReentrantLock's Sync and never back
     * into this class's overrides. The stats are statvar's: exact under any timing, updated by
     * the acquiring thread only.
     */
    private static final long serialVersionUID = 1L;

    private final transient String site;
    private final transient LockStats stats;

    /**
     * A non-fair lock counting into {@code registry}'s families {@code <name>_acquired},
     * {@code <name>_contended} and {@code <name>_wait}.
     *
     * @param registry where the three families are registered, if new
     * @param name     the prefix of the three family names
     * @throws NullPointerException     if {@code registry} or {@code name} is null
     * @throws IllegalArgumentException if {@code name} is not a valid statvar name, or a stat of
     *                                  another kind or with other labels holds one of the three names
     */
    public ContendedLock(StatRegistry registry, String name) {
        this(registry, name, false);
    }

    /**
     * A lock with the given fairness policy, counting as {@link #ContendedLock(StatRegistry, String)}.
     *
     * @param registry where the three families are registered, if new
     * @param name     the prefix of the three family names
     * @param fair     {@code true} for a fair lock, as {@link ReentrantLock#ReentrantLock(boolean)}
     * @throws NullPointerException     if {@code registry} or {@code name} is null
     * @throws IllegalArgumentException as {@link #ContendedLock(StatRegistry, String)}
     */
    public ContendedLock(StatRegistry registry, String name, boolean fair) {
        super(fair);
        this.site = LockStats.creationSite(ContendedLock.class);
        this.stats = LockStats.of(registry, name, site, null);
    }

    /**
     * The creation site this lock counts under, its {@code site} label.
     *
     * @return {@code package.Class.method:line} of the constructor's caller, or {@code "unknown"}
     */
    public String site() {
        return site;
    }

    @Override
    public void lock() {
        if (!takeAtOnce()) {
            stats.waitFor(super::lock);
        }
        stats.acquired.add();
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        LockStats.checkInterrupt();
        if (!takeAtOnce()) {
            stats.waitForInterruptibly(super::lockInterruptibly);
        }
        stats.acquired.add();
    }

    @Override
    public boolean tryLock() {
        boolean got = super.tryLock();
        if (got) {
            stats.acquired.add();
        }
        return got;
    }

    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        LockStats.checkUnit(unit);
        LockStats.checkInterrupt();
        if (takeAtOnce()) {
            stats.acquired.add();
            return true;
        }
        return stats.tryWaiting(super::tryLock, timeout, unit);
    }

    /** Takes the lock if that needs no waiting, keeping the fairness policy (see the design note). */
    private boolean takeAtOnce() {
        return isFair() ? LockStats.takeFairAtOnce(super::tryLock, this::hasQueuedThreads, super::tryLock) : super.tryLock();
    }

    @Override
    public String toString() {
        return super.toString() + "[site " + site + "]";
    }

    /**
     * Refuses serialization: the lock records into a {@link StatRegistry}, which is not serializable.
     *
     * @param out the stream, not written to
     * @throws NotSerializableException always
     */
    private void writeObject(ObjectOutputStream out) throws NotSerializableException {
        throw new NotSerializableException(getClass().getName() + " records into a StatRegistry, which is not serializable");
    }
}
