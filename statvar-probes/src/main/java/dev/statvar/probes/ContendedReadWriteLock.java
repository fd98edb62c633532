package dev.statvar.probes;

import dev.statvar.StatRegistry;

import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link ReentrantReadWriteLock} whose read and write locks count, exactly, every acquisition
 * and every acquisition that had to wait, and record each wait in nanoseconds: the read-write
 * counterpart of {@link ContendedLock}, with the same families ({@code <name>_acquired},
 * {@code <name>_contended}, {@code <name>_wait}) labelled {@code site} and {@code mode}
 * ({@code "read"} or {@code "write"}). Use a name of its own: a family's label names are fixed,
 * so a {@code ContendedLock} and a {@code ContendedReadWriteLock} cannot share one.
 *
 * <h2>Contract</h2>
 * Semantics are {@link ReentrantReadWriteLock}'s, fair or not, unchanged; {@link #readLock()} and
 * {@link #writeLock()} return this lock's counting views, each created once. Counted and not
 * counted as {@link ContendedLock} says: every acquisition (reentrant ones, and a read lock taken
 * while holding the write lock, included), every attempt of {@code lock()},
 * {@code lockInterruptibly()} and the timed {@code tryLock} that waited, and its wait. Thread-safe;
 * not serializable.
 */
public class ContendedReadWriteLock extends ReentrantReadWriteLock {
    /*
     * Design: ContendedLock's (try at once keeping the fairness policy, then count, time and wait
     * through the JDK's own acquisition), applied to ReadLock and WriteLock subclasses that this
     * lock's readLock() and writeLock() return instead of the JDK's. ReadLock's and WriteLock's
     * protected constructors take the outer lock and share its Sync, so the views are the real
     * locks; the JDK's own views (fields of ReentrantReadWriteLock) are never handed out.
     */
    private static final long serialVersionUID = 1L;

    private final transient String site;
    private final transient Read read;
    private final transient Write write;

    /**
     * A non-fair read-write lock counting into {@code registry}'s families {@code <name>_acquired},
     * {@code <name>_contended} and {@code <name>_wait}, labelled by site and mode.
     *
     * @param registry where the three families are registered, if new
     * @param name     the prefix of the three family names
     * @throws NullPointerException     if {@code registry} or {@code name} is null
     * @throws IllegalArgumentException if {@code name} is not a valid statvar name, or a stat of
     *                                  another kind or with other labels holds one of the three names
     */
    public ContendedReadWriteLock(StatRegistry registry, String name) {
        this(registry, name, false);
    }

    /**
     * A read-write lock with the given fairness policy, counting as
     * {@link #ContendedReadWriteLock(StatRegistry, String)}.
     *
     * @param registry where the three families are registered, if new
     * @param name     the prefix of the three family names
     * @param fair     {@code true} for a fair lock, as {@link ReentrantReadWriteLock#ReentrantReadWriteLock(boolean)}
     * @throws NullPointerException     if {@code registry} or {@code name} is null
     * @throws IllegalArgumentException as {@link #ContendedReadWriteLock(StatRegistry, String)}
     */
    public ContendedReadWriteLock(StatRegistry registry, String name, boolean fair) {
        super(fair);
        this.site = LockStats.creationSite(ContendedReadWriteLock.class);
        this.read = new Read(this, LockStats.of(registry, name, site, "read"));
        this.write = new Write(this, LockStats.of(registry, name, site, "write"));
    }

    /**
     * The creation site this lock counts under, its {@code site} label.
     *
     * @return {@code package.Class.method:line} of the constructor's caller, or {@code "unknown"}
     */
    public String site() {
        return site;
    }

    /**
     * The read lock, counting under {@code mode="read"}.
     *
     * @return this lock's counting read lock, the same object at every call
     */
    @Override
    public ReentrantReadWriteLock.ReadLock readLock() {
        return read;
    }

    /**
     * The write lock, counting under {@code mode="write"}.
     *
     * @return this lock's counting write lock, the same object at every call
     */
    @Override
    public ReentrantReadWriteLock.WriteLock writeLock() {
        return write;
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

    /** The counting read lock. */
    private static final class Read extends ReentrantReadWriteLock.ReadLock {
        private static final long serialVersionUID = 1L;
        private final transient ReentrantReadWriteLock owner;
        private final transient LockStats stats;

        Read(ReentrantReadWriteLock owner, LockStats stats) {
            super(owner);
            this.owner = owner;
            this.stats = stats;
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

        private boolean takeAtOnce() {
            return owner.isFair() ? LockStats.takeFairAtOnce(super::tryLock, owner::hasQueuedThreads, super::tryLock)
                    : super.tryLock();
        }
    }

    /** The counting write lock. */
    private static final class Write extends ReentrantReadWriteLock.WriteLock {
        private static final long serialVersionUID = 1L;
        private final transient ReentrantReadWriteLock owner;
        private final transient LockStats stats;

        Write(ReentrantReadWriteLock owner, LockStats stats) {
            super(owner);
            this.owner = owner;
            this.stats = stats;
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

        private boolean takeAtOnce() {
            return owner.isFair() ? LockStats.takeFairAtOnce(super::tryLock, owner::hasQueuedThreads, super::tryLock)
                    : super.tryLock();
        }
    }
}
