package dev.statvar.lab.signals;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One pair's hand-off: the flushing partner waits for signal {@code i}, the critical thread sends
 * it. The mechanisms ({@link Mechanism}) differ in how the partner blocks and how it is woken; the
 * bookkeeping is here.
 *
 * <p><b>Threading contract.</b> One signaller thread and one partner thread per channel.
 * <ul>
 *   <li>{@code ready}: written by the partner ({@code setRelease}, the number of the signal it is
 *       about to wait for), read by the signaller ({@code getAcquire}) before it signals.</li>
 *   <li>{@code posted}: written by the signaller ({@code setRelease}, or {@code setVolatile} where
 *       the mechanism needs a Dekker-style check), read by the partner ({@code getVolatile}).</li>
 *   <li>{@code sentAt}: plain; written by the signaller before its release store of {@code posted},
 *       read by the partner after the load of {@code posted} that saw that signal, and not
 *       written again before the partner's next release store of {@code ready} (so never raced).</li>
 *   <li>{@code spurious}, {@code timeouts}, {@code lateByTimeout}, {@code spun}: plain, written by
 *       the partner only, read by the main thread after {@link Thread#join()}.</li>
 * </ul>
 */
abstract class Channel {
    private static final VarHandle READY;
    private static final VarHandle POSTED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            READY = l.findVarHandle(Channel.class, "ready", long.class);
            POSTED = l.findVarHandle(Channel.class, "posted", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through READY
    private long ready;
    @SuppressWarnings("unused") // through POSTED
    private long posted;
    /** System.nanoTime just before the signal (see the class comment). */
    private long sentAt;
    /** The partner thread: set before either thread starts. */
    Thread partner;
    /** Wake-ups with nothing posted, before the wait's time limit (the partner's). */
    long spurious;
    /** Waits that ran to their time limit with nothing posted (the partner's). */
    long timeouts;
    /**
     * Signals the partner saw only when a wait ran out its time limit (the partner's): a lost wake-up, or
     * a woken thread that got no CPU until then; user space cannot tell the two apart.
     */
    long lateByTimeout;
    /** Spin hand-off only: signals caught while spinning, before parking (the partner's). */
    long spun;

    /** Partner: announces that it waits for signal {@code i}. */
    final void announce(long i) {
        READY.setRelease(this, i); // pairs with getAcquire in partnerWaiting
    }

    /** Whether signal {@code i} is posted (the partner's check). */
    final boolean posted(long i) {
        // getVolatile (a plain load on x86), not just acquire: the spin hand-off's Dekker check needs this load
        // ordered after the partner's volatile store of its parking flag. Pairs with setRelease/setVolatile in post
        return (long) POSTED.getVolatile(this) >= i;
    }

    /** Signaller: posts signal {@code i}, returning the System.nanoTime taken just before (and published as sentAt). */
    final long post(long i, boolean volatileStore) {
        long t0 = System.nanoTime();
        sentAt = t0; // plain: published by the store below
        if (volatileStore) {
            POSTED.setVolatile(this, i); // pairs with getVolatile in posted(); ordered before the signaller's volatile read of parking
        } else {
            POSTED.setRelease(this, i); // pairs with getVolatile in posted()
        }
        return t0;
    }

    /** Partner, after {@link #posted(long)} saw its signal: the wake-up latency, from just before the signal until now. */
    final long wakeLatency() {
        return System.nanoTime() - sentAt; // plain: after the load of posted that saw this signal (see the class comment)
    }

    /** Signaller: whether the partner waits for signal {@code i} (by default: has announced it). */
    boolean partnerWaiting(long i) {
        return (long) READY.getAcquire(this) >= i; // pairs with setRelease in announce
    }

    /**
     * Partner: waits for signal {@code i} at most {@code limitNs}; the wake-up latency, or -1 when
     * the signal was not seen within the limit.
     */
    abstract long await(long i, long limitNs) throws InterruptedException;

    /** Signaller: sends signal {@code i}; what it cost the signalling thread, ns. */
    abstract long signal(long i);

    /** Blocks the partner at most {@code ns} (the mechanism's wait), called with {@link #posted} false. */
    abstract void block(long ns) throws InterruptedException;

    /**
     * The partner's wait loop: announce, then block until the signal is posted, counting wake-ups
     * with nothing posted (spurious, or at the time limit) and signals seen only at a time limit.
     */
    final long waitLoop(long i, long limitNs) throws InterruptedException {
        announce(i);
        long deadline = System.nanoTime() + limitNs;
        while (!posted(i)) {
            if (Thread.interrupted()) { // the critical thread gave up (STUCK): stop waiting
                throw new InterruptedException();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return -1;
            }
            long w0 = System.nanoTime();
            block(left);
            boolean ranOut = System.nanoTime() - w0 >= left;
            if (!posted(i)) {
                if (ranOut) {
                    timeouts++;
                } else {
                    spurious++;
                }
            } else if (ranOut) {
                lateByTimeout++;
            }
        }
        return wakeLatency();
    }
}
