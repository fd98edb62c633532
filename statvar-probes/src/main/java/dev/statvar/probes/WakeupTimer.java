package dev.statvar.probes;

import dev.statvar.Counter;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

// Design. One stamp per timer: the System.nanoTime taken just before a signal, 0 when no signal is
// pending. beforeSignal() sets it only if it is 0 (compareAndExchange), so among several signals
// before one wake-up the EARLIEST wins: the waiting thread became runnable at the first signal
// (unpark's permit, notify's move to the entry queue); later ones are no-ops for it, and timing
// from the latest would understate the delay. woke() takes the stamp and clears it in one
// getAndSet, so a stamp is recorded at most once and a wake-up without a pending stamp records
// nothing. Both are read-modify-writes (a locked instruction each on x86). statvar's "no locked
// instruction on the update path" is for the core stats; here there is one per signal and per
// wake-up, next to a signal that costs a futex system call when the partner sleeps (microseconds:
// Jean-Philippe Bempel, "Notify... oh, wait! I have a signal.", 2015). A single-writer design (the signaller writes, the woken thread only reads)
// cannot tell a new stamp from one already recorded without a second field the woken thread
// writes, and a plain "read then clear" by the woken thread can erase a signal stamped in between;
// both lose the exact count this class promises.

/**
 * The time from just before a signal to the woken thread running, for a signalling pair
 * ({@code notify}/{@code wait}, {@code Condition.signal}/{@code await},
 * {@code LockSupport.unpark}/{@code park}, a queue hand-off): Bempel's measurement, always on.
 *
 * <pre>{@code
 * WakeupTimer wakeup = WakeupTimer.create(stats, "flush_wakeup");   // once
 *
 * // signalling thread                    // waiting thread
 * wakeup.beforeSignal();                   while (!ready) LockSupport.park(this);
 * ready = true;                            wakeup.woke();
 * LockSupport.unpark(flusher);
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Who writes.</b> Any thread calls {@link #beforeSignal()} just before it signals,
 *       <em>before</em> it publishes the condition the waiter checks (else the waiter may see the
 *       condition and call {@code woke()} before the stamp exists: that wake-up counts as
 *       unstamped and the stamp is left for the next one); the
 *       thread that was waiting calls {@link #woke()} as soon as it runs after its wait returns
 *       with the condition it waited for. One timer per waiting thread: with several waiters
 *       ({@code notifyAll}) one of them would take the stamp and the others record nothing.</li>
 *   <li><b>What is recorded.</b> In the histogram {@code name}: {@code woke()}'s nanoTime minus
 *       the pending stamp, ns (never negative). It includes the signal call itself, the
 *       scheduler's delay of the woken thread, and for monitors and {@code Condition} the
 *       re-acquisition of the lock (so also the signaller's time until it unlocks). If the waiter
 *       had not blocked yet (it saw the condition before parking), the value is just the time to
 *       see it.</li>
 *   <li><b>Several signals before one wake-up: the earliest wins.</b> A signal while a stamp is
 *       pending keeps the earlier stamp and counts {@code <name>_coalesced}. Every
 *       {@code beforeSignal()} either stamps (returns true) or counts as coalesced, and every
 *       stamp is recorded exactly once: histogram count = stamping calls - (1 if a stamp is still
 *       pending).</li>
 *   <li><b>Wake-up without a stamp.</b> {@code woke()} with no pending stamp (a spurious or
 *       timed-out wake-up, a second wake-up after one signal, or a signaller that did not call {@code beforeSignal()}) records nothing and counts {@code <name>_unstamped}.</li>
 *   <li><b>Memory order.</b> {@code beforeSignal()}'s stamp is a volatile read-modify-write
 *       that pairs with {@code woke()}'s getAndSet; both are one locked instruction on x86 (see the
 *       design comment: one per signal, beside a signal's futex call).</li>
 *   <li><b>What it does not catch.</b> Wake-ups of signals that bypass the timer; how long the
 *       waiter waited for the condition before the signal (that is the application's time, not a
 *       wake-up cost); a lost wake-up that never wakes (nothing to record: the waiter's own
 *       time-out shows it as {@code _unstamped}, the stamp stays pending).</li>
 * </ul>
 */
public final class WakeupTimer {
    private static final VarHandle STAMP;

    static {
        try {
            STAMP = MethodHandles.lookup().findVarHandle(WakeupTimer.class, "stamp", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Histogram histogram;
    private final Counter coalesced;
    private final Counter unstamped;
    private final LongSupplier clock;
    /** nanoTime just before the pending signal, 0 when none (a nanoTime of 0 is stored as 1). */
    @SuppressWarnings("unused") // through STAMP
    private long stamp;

    /**
     * A timer recording into the histogram {@code name} (ns) and the counters
     * {@code <name>_coalesced} and {@code <name>_unstamped} of {@code registry}, registered if new.
     *
     * @param registry where the histogram and the two counters are registered
     * @param name     the histogram's name, and the prefix of the counters' names
     * @return a new timer with no stamp pending
     * @throws IllegalArgumentException if an argument is null, or a name is invalid or taken by a
     *                                  stat of another kind
     */
    public static WakeupTimer create(StatRegistry registry, String name) {
        return new WakeupTimer(registry, name, System::nanoTime);
    }

    /** A timer reading this clock (tests). */
    WakeupTimer(StatRegistry registry, String name, LongSupplier clock) {
        if (registry == null) {
            throw new IllegalArgumentException("registry must not be null");
        }
        if (name == null) {
            throw new IllegalArgumentException("wake-up timer name must not be null");
        }
        this.histogram = registry.histogram(name, "from just before a signal until the woken thread runs, ns");
        this.coalesced = registry.counter(name + "_coalesced",
                "signals while an earlier signal's stamp was pending (the earlier one is timed)");
        this.unstamped = registry.counter(name + "_unstamped", "wake-ups with no pending signal stamp (not timed)");
        this.clock = clock;
    }

    /**
     * Called by the signalling thread just before it signals: stamps the time unless a stamp is
     * pending (then the earlier one stays and the signal counts as coalesced).
     *
     * @return whether this call stamped
     */
    public boolean beforeSignal() {
        long now = clock.getAsLong();
        if (now == 0) {
            now = 1; // 0 means "no stamp"
        }
        // Volatile CAS: pairs with the getAndSet in woke(); its release half publishes the stamp
        if ((long) STAMP.compareAndExchange(this, 0L, now) == 0L) {
            return true;
        }
        coalesced.add();
        return false;
    }

    /**
     * Called by the woken thread as soon as it runs: records the time since the pending stamp and
     * clears it, or counts an unstamped wake-up.
     *
     * @return the recorded latency in ns, or -1 when there was no stamp
     */
    public long woke() {
        // Volatile getAndSet: pairs with the compareAndExchange in beforeSignal(); taking and clearing
        // in one step is what makes each stamp recorded exactly once
        long t = (long) STAMP.getAndSet(this, 0L);
        if (t == 0) {
            unstamped.add();
            return -1;
        }
        long latency = Math.max(0, clock.getAsLong() - t); // nanoTime is monotonic; the max guards a fake clock
        histogram.record(latency);
        return latency;
    }

    /**
     * Whether a signal's stamp is pending. Any thread.
     *
     * @return true if a {@link #beforeSignal()} stamped and no {@link #woke()} has taken the stamp yet
     */
    public boolean isPending() {
        return (long) STAMP.getVolatile(this) != 0; // pairs with the read-modify-writes above
    }

    /**
     * The histogram's name.
     *
     * @return the {@code name} given to {@link #create}
     */
    public String name() {
        return histogram.name();
    }
}
