package dev.statvar.probes.ordered;

import dev.statvar.StatRegistry;
import dev.statvar.probes.internal.Broken;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs tasks one at a time in ticket order without a thread of its own (Jean-Philippe Bempel's
 * "Ordered Scheduler", 2015): a thread whose task is next runs it, and then every task that later tickets left
 * behind in the ring meanwhile; a thread whose task is not next leaves it in the ring and returns.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Who calls what.</b> A producer takes a {@link #ticket()} per task, in the order the
 *       output must have (tickets are consecutive from 0 in the order of the calls). Any thread
 *       then calls {@link #run(long, Runnable)} with that ticket once, or {@link #trash(long)} if it
 *       has no task for it (the work failed before the ordered part). Every issued ticket must
 *       reach {@code run} or {@code trash} exactly once: a forgotten ticket stops every later task
 *       (see "A forgotten ticket").</li>
 *   <li><b>Guaranteed.</b> Every task of a ticket that reached {@code run} runs exactly once; the
 *       tasks run one at a time in ticket order (trashed tickets skipped), and everything a task
 *       (and the code before its {@code run} call) wrote happens-before the next task. A task that
 *       throws (even an {@link Error}) does not stop the sequence: the throwable goes to the
 *       {@link FailureHandler} (default: logged through {@link System.Logger} at ERROR).</li>
 *   <li><b>Not guaranteed.</b> Which thread runs a task: its own, or the thread of an earlier
 *       ticket (which then runs it before returning from its own {@code run} or {@code trash}, so
 *       that call can take as long as a run of later tasks). When the task runs relative to its
 *       {@code run} call: {@code run} returning says nothing about whether the task ran.
 *       No fairness between threads.</li>
 *   <li><b>Ring full.</b> A ticket at least {@link #capacity()} ahead of the next one waits in
 *       {@code run}/{@code trash}: a bounded number of {@link Thread#onSpinWait()} checks, then
 *       {@link LockSupport#parkNanos} of 1 us doubling to 1 ms, re-checking after each (nobody
 *       unparks it: its wake-up lags the room by up to the park). Interrupts do not end the wait
 *       (the ticket would be lost); the interrupt status is restored when it ends.</li>
 *   <li><b>Misuse fails loudly, on the misuser's thread</b>: {@link IllegalArgumentException}
 *       for a ticket never issued; {@link IllegalStateException} for a ticket run or trashed
 *       twice. The second call throws without running anything, whether the first already ran,
 *       is still in the ring, or is running right now; of two calls for one ticket that overlap,
 *       exactly one runs its task and the other throws. Nothing else changes: no later ticket
 *       runs before the first copy has finished, and no other call throws because of it.</li>
 * </ul>
 *
 * <h2>A forgotten ticket</h2>
 * Tasks after it are left in the ring; once the ring is full, {@code run} of later tickets waits.
 * It shows, not as a silent hang: {@link #nextTicket()} stays at the forgotten ticket, and
 * {@link #stalledNanos()} grows while later tasks wait for it; with a registry, the gauge
 * {@code <name>_next_ticket} keeps reporting that ticket (min = max across intervals), the gauge
 * {@code <name>_stalled_ns} grows, {@code <name>_left_behind} counts on while
 * {@code <name>_in_place} stops, and a thread parked in a ring-full wait shows in a thread dump
 * as TIMED_WAITING in {@code awaitRoom} with this scheduler as its blocker. An alert rule:
 * {@code <name>_stalled_ns} max above the longest a task may take.
 *
 * <h2>Statistics</h2> (with a registry; every name starts with {@code name}):
 * {@code _in_place} (counter: tasks run by the thread that called {@code run} for them),
 * {@code _left_behind} (counter: tasks left in the ring for an earlier ticket's thread),
 * {@code _trashed} (counter), {@code _failed} (counter: tasks that threw),
 * {@code _ring_full_waits} (counter) and {@code _ring_full_wait_ns} (histogram of their length),
 * {@code _drained_run} (gauge: per drain, the number of left-behind tasks one thread ran in a
 * row; its max is the longest), {@code _next_ticket} and {@code _stalled_ns} (gauges reported by
 * every left-behind task and every park of a ring-full wait: the ticket they wait on, and for how
 * long a later task has been waiting on it).
 */
public final class OrderedScheduler {
    /*
     * Design (after java.util.concurrent's Striped64 and HdrHistogram's WriterReaderPhaser).
     *
     * State: the sequence word seq = next << 2 | claim, next the ticket that runs next (every
     * ticket below it ran or was trashed), claim FREE, CALLER or DRAINER; issued (tickets handed
     * out); a ring of capacity slots (a power of two), slot t & mask holding the Entry (task or
     * TRASH) of a left-behind ticket t in [next, next + capacity), or null.
     *
     * Claims: a thread runs ticket t only after a CAS of the word from (t, FREE) to (t, CALLER)
     * or (t, DRAINER); only the claimant moves it on, to (t + 1, FREE). So a ticket is claimed
     * once whatever the callers do: a second call for a running ticket sees the claim and throws;
     * it can neither run it again nor advance next past a running task (issue 32: it did both,
     * and the owner's run then threw). CALLER: a call for t that read next == t (in place), or
     * that left its Entry and then saw next == t (claim back; it empties its slot). DRAINER: the
     * owner of t - 1, which after its advance found t's Entry in slot t; it runs it, keeping the
     * Entry in the slot until just before its advance past t (a late second call for t finds the
     * slot taken and throws), and goes on. It stops at an empty slot, a later lap's Entry, or a
     * lost claim (t's own call claimed it back).
     *
     * The hand-off race (the heart): thread P with ticket t (not next) publishes its Entry while
     * the owner O of t - 1 finishes. P: CAS slot (null -> entry), then volatile read of seq.
     * O: volatile write of seq (t, FREE), then volatile read of slot t. Dekker's pattern on
     * synchronization actions (totally ordered): P sees next == t, or O sees the Entry, or both.
     * Whichever sees it tries to claim t; one CAS wins, runs task t and owns the sequence from t
     * on; the loser returns (P: left behind; O: stops). So a task in the ring when its predecessor
     * finishes runs exactly once. P reads from the word who has its Entry: (t, DRAINER) with its
     * Entry marked drained (the drainer marks the Entry it claimed, right after the claim), or past
     * t with its slot emptied: the drainer (P returns); (t, DRAINER) unmarked: P waits (spin, then
     * park) for the mark or the advance, since that drainer may hold another call's copy of t,
     * emptied from the slot just before P's Entry landed; (t, CALLER), or past t with its Entry
     * still there: another call for t ran or runs it (P takes its Entry back and throws).
     *
     * Duplicates: a call reading (t, FREE) first looks at slot t: an Entry of t there is another
     * call's copy (it throws); else it claims, and a lost claim means another call or a drainer
     * claimed t (it re-reads and throws). So of two calls for one ticket exactly one runs its task
     * and the other throws, and nobody else does (OrderedSchedulerStressTest; jcstress
     * OrderedSchedulerHandOff.Duplicate*).
     *
     * Slot reuse: ticket t is published only while t < next + capacity (else it waits for room),
     * and an Entry is emptied (opaque store) before the advance past its ticket (a volatile write),
     * so P's CAS expecting null sees that (P read the word after the advance). The CAS fails when
     * t is in the ring already (misuse: P throws), or on a stale Entry of an earlier lap: a second
     * call's copy, published after its ticket ran, which that call's own thread is taking back
     * (it read the word after publishing): P waits for it (spin, then park) and retries.
     *
     * Laps (found by the lab, where the first version ran a task early): once O has advanced next
     * to t, P may claim its task back and the sequence may run on, a whole ring further, while O
     * is descheduled before its read of slot t; O then finds the Entry of ticket t + capacity (or
     * later) there. The reference alone cannot tell (a user may pass one Runnable for two
     * tickets), so an Entry is a new object per left-behind call naming its ticket; O claims only
     * for an Entry naming t (with a CAS expecting (t, FREE), long gone after a lap), and every
     * slot CAS compares that unique Entry (no ABA).
     *
     * Happens-before between tasks: task t + 1 runs on O itself (program order after task t), or
     * on a thread whose claim CAS read O's advance (a volatile write after task t). A left-behind
     * task's object is published by P's CAS and read by O's volatile read of the slot.
     *
     * Assumptions: tickets come from ticket() (a getAndAdd on issued, fully fenced), fewer than
     * 2^61 (two bits of the word are the claim); tasks do not call run/trash of a ticket behind
     * their own on the same scheduler (it would wait for itself when the ring is full).
     * Not padded: seq and issued may share a cache line (issued is written once per task, seq
     * twice, claim and advance, by different threads); the lab's ordered study measures it as it is.
     */

    /** Receives a task's throwable; the sequence goes on whatever it does. */
    @FunctionalInterface
    public interface FailureHandler {
        /**
         * Task {@code ticket} threw {@code failure}. Runs on the thread that ran the task, before
         * the next task; a throwable from the handler is logged and dropped.
         *
         * @param ticket  the ticket of the task that threw
         * @param failure what it threw
         */
        void failed(long ticket, Throwable failure);
    }

    /** The largest capacity (the ring is an array). */
    public static final int MAX_CAPACITY = 1 << 30;
    /** Ring-full wait: this many {@link Thread#onSpinWait()} checks before the first park. */
    static final int SPINS = 256;
    /** Ring-full wait: the first park, doubling up to {@link #MAX_PARK_NANOS}. */
    static final long MIN_PARK_NANOS = 1_000;
    /** Ring-full wait: the longest park between two checks. */
    static final long MAX_PARK_NANOS = 1_000_000;

    private static final System.Logger LOG = System.getLogger(OrderedScheduler.class.getName());
    /** The default handler: logs the failure at ERROR. */
    private static final FailureHandler LOG_FAILURE = (ticket, failure) ->
            LOG.log(System.Logger.Level.ERROR, "ordered task of ticket " + ticket + " threw", failure);
    /** The sequence word's low bits: the claim of ticket next. */
    static final int STATE_BITS = 2;
    static final long STATE = (1L << STATE_BITS) - 1;
    /** Ticket next is not claimed: it runs on the first thread that claims it. */
    static final long FREE = 0;
    /** Ticket next is claimed by a call for it ({@code run}/{@code trash} of next, or one that claimed its entry back). */
    static final long CALLER = 1;
    /** Ticket next is claimed by the owner of the previous ticket, to drain its left-behind entry. */
    static final long DRAINER = 2;
    /** The item of a trashed ticket. */
    private static final Object TRASH = new Object();

    /**
     * What a left-behind ticket puts in its slot: a new object per call, naming its ticket, so that
     * a slot's content identifies the ticket it belongs to (see "Laps" in the design comment).
     */
    private static final class Entry {
        final long ticket;
        final Object item;
        /**
         * Set (volatile) by the drainer right after its claim of this entry's ticket, before it runs it; read
         * by the entry's publisher, which sees (ticket, DRAINER) and must learn whether that drainer has its
         * entry or another call's copy (drained and emptied just before this entry landed).
         */
        volatile boolean drained;

        Entry(long ticket, Object item) {
            this.ticket = ticket;
            this.item = item;
        }
    }

    private static final VarHandle SEQ;
    private static final VarHandle ISSUED;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            SEQ = l.findVarHandle(OrderedScheduler.class, "seq", long.class);
            ISSUED = l.findVarHandle(OrderedScheduler.class, "issued", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] ring;
    private final int mask;
    private final FailureHandler handler;

    /**
     * The sequence word (through SEQ only): {@code next << STATE_BITS | state}, next the ticket
     * that runs next, state {@link #FREE}, {@link #CALLER} or {@link #DRAINER}: whether, and by
     * whom, ticket next is claimed.
     */
    private long seq;
    /** Tickets issued (through ISSUED only). */
    private long issued;
    private final OrderedSchedulerStats stats;

    /**
     * A scheduler without statistics, logging failures.
     *
     * @param capacity tasks the ring holds: rounded up to a power of two, 1 .. {@value #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity} is out of range
     */
    public OrderedScheduler(int capacity) {
        this(capacity, null, null, LOG_FAILURE);
    }

    /**
     * A scheduler recording into {@code registry} under names starting with {@code name}, logging failures.
     *
     * @param capacity tasks the ring holds: rounded up to a power of two, 1 .. {@value #MAX_CAPACITY}
     * @param registry where the statistics are registered
     * @param name     the prefix of the statistics' names
     * @throws NullPointerException     if {@code registry} or {@code name} is null
     * @throws IllegalArgumentException if {@code capacity} is out of range, or a statistic's name is
     *                                  invalid, taken by a stat of another kind, or the registry is full
     */
    public OrderedScheduler(int capacity, StatRegistry registry, String name) {
        this(capacity, Objects.requireNonNull(registry, "registry"), name, LOG_FAILURE);
    }

    /**
     * A scheduler with its own failure handler; {@code registry} null for no statistics (then
     * {@code name} is ignored).
     *
     * @param capacity tasks the ring holds: rounded up to a power of two, 1 .. {@value #MAX_CAPACITY}
     * @param registry where the statistics are registered, or null for none
     * @param name     the prefix of the statistics' names; ignored without a registry
     * @param handler  receives the throwable of each task that throws
     * @throws NullPointerException     if {@code handler} is null, or {@code name} is null with a registry
     * @throws IllegalArgumentException if {@code capacity} is out of range, or a statistic's name is
     *                                  invalid, taken by a stat of another kind, or the registry is full
     */
    public OrderedScheduler(int capacity, StatRegistry registry, String name, FailureHandler handler) {
        if (capacity < 1 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity " + capacity + " is out of range 1 .. " + MAX_CAPACITY);
        }
        int size = Integer.highestOneBit(capacity) == capacity ? capacity : Integer.highestOneBit(capacity) << 1;
        this.ring = new Object[size];
        this.mask = size - 1;
        this.handler = Objects.requireNonNull(handler, "handler");
        this.stats = new OrderedSchedulerStats(registry, name);
    }

    /**
     * The ring's size: how far ahead of {@link #nextTicket()} a ticket may be without waiting.
     *
     * @return the capacity asked for, rounded up to a power of two
     */
    public int capacity() {
        return ring.length;
    }

    /**
     * Issues a ticket. Any thread.
     *
     * @return the next ticket, consecutive from 0 in the order of the calls
     */
    public long ticket() {
        return (long) ISSUED.getAndAdd(this, 1L); // RMW: totally ordered with the other ticket() calls
    }

    /**
     * Runs {@code task} in ticket order: on this thread now if {@code ticket} is next (then also
     * the tasks later tickets left behind), else leaves it for the thread of an earlier ticket
     * and returns. Waits while the ring is full (see the class comment).
     *
     * @param ticket a ticket from {@link #ticket()}, not yet run or trashed
     * @param task   the task of that ticket
     * @throws NullPointerException     if {@code task} is null
     * @throws IllegalArgumentException if {@code ticket} was not issued by {@link #ticket()}
     * @throws IllegalStateException if {@code ticket} was already run or trashed, or another call
     *                               for it is in the ring or running (then nothing ran here)
     */
    public void run(long ticket, Runnable task) {
        submit(ticket, Objects.requireNonNull(task, "task"));
    }

    /**
     * Skips {@code ticket}: the sequence goes on without a task for it. Like {@link #run}, this
     * may run the tasks of later tickets on this thread, and may wait while the ring is full.
     *
     * @param ticket a ticket from {@link #ticket()}, not yet run or trashed
     * @throws IllegalArgumentException if {@code ticket} was not issued by {@link #ticket()}
     * @throws IllegalStateException if {@code ticket} was already run or trashed, or another call
     *                               for it is in the ring or running (then nothing ran here)
     */
    public void trash(long ticket) {
        submit(ticket, TRASH);
        stats.trashed();
    }

    /**
     * The ticket that runs next. Any thread.
     *
     * @return the lowest ticket not yet run or trashed: every ticket below it ran or was trashed
     */
    public long nextTicket() {
        return (long) SEQ.getAcquire(this) >> STATE_BITS; // pairs with the advance in runFrom
    }

    /**
     * Tickets issued so far. Any thread.
     *
     * @return the number of {@link #ticket()} calls so far, which is the ticket the next call returns
     */
    public long issuedTickets() {
        return (long) ISSUED.getAcquire(this); // pairs with ticket()'s getAndAdd
    }

    /**
     * For how long a later task (left behind, or waiting for room) has been waiting on
     * {@link #nextTicket()}, in ns; 0 when no task has been left behind or waited since the next
     * ticket last advanced. A hint for health checks (racy by design: a task left at the instant
     * next advances may mark the new ticket a little early); it grows without bound on a
     * forgotten ticket once any later task arrives.
     *
     * @return nanoseconds a later task has waited on the next ticket (at least 1 while one waits), or 0
     */
    public long stalledNanos() {
        return stats.stalledNanos(nextTicket());
    }

    @Override
    public String toString() {
        return "OrderedScheduler[capacity=" + ring.length + ", next=" + nextTicket() + ", issued=" + issuedTickets()
                + ", stalledNanos=" + stalledNanos() + "]";
    }

    // ------------------------------------------------------------------ the algorithm

    private void submit(long t, Object item) {
        long issuedNow = (long) ISSUED.getAcquire(this); // pairs with ticket()'s getAndAdd
        if (t < 0 || t >= issuedNow) {
            throw new IllegalArgumentException("ticket " + t + " was not issued (tickets issued: 0 .. " + (issuedNow - 1) + ")");
        }
        long s = (long) SEQ.getVolatile(this); // pairs with the owner's advance: t == next sees the previous tasks' writes
        if (t - (s >> STATE_BITS) >= ring.length) {
            s = awaitRoom(t);
        }
        for (;;) {
            long n = s >> STATE_BITS;
            if (t < n) {
                throw ranAlready(t, n);
            }
            if (t > n) {
                leaveBehind(t, item);
                return;
            }
            if ((s & STATE) != FREE) {
                throw running(t);
            }
            Object left = SLOT.getVolatile(ring, (int) t & mask); // a copy of t left behind by another call?
            if (left instanceof Entry e && e.ticket == t) {
                throw inRing(t);
            }
            if (SEQ.compareAndSet(this, s, s | CALLER)) { // the claim of ticket t: one per ticket
                runFrom(t, item);
                return;
            }
            s = (long) SEQ.getVolatile(this); // claimed by another call for t (misuse), or moved on
        }
    }

    /** Ticket t is ahead of next: leaves its item in the ring, unless t's turn came meanwhile. */
    private void leaveBehind(long t, Object item) {
        int i = (int) t & mask;
        Entry entry = new Entry(t, item);
        boolean interrupted = false;
        for (long step = 0; !SLOT.compareAndSet(ring, i, null, entry); step++) { // volatile write: the publication
            Object was = SLOT.getVolatile(ring, i);
            if (was instanceof Entry stale && stale.ticket < t) {
                interrupted |= pause(step); // an earlier lap's second call, whose own thread is taking it back
            } else if (was != null) {
                throw inRing(t);
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        // Dekker: our CAS of the slot, then this volatile read of the word; the owner's advance,
        // then its volatile read of the slot (runFrom): one of the two sees the other's write.
        boolean interruptedWaiting = false;
        try {
            long waited = 0;
            for (long s = Broken.HANDOFF_NO_RECHECK ? 0 : (long) SEQ.getVolatile(this);;
                    s = (long) SEQ.getVolatile(this)) {
                long n = s >> STATE_BITS;
                long state = s & STATE;
                if (n == t && state == DRAINER && !entry.drained) {
                    // A drainer of t: ours (it marks it right after its claim), or another call's copy of t that
                    // it emptied from the slot just before ours landed (misuse; jcstress DuplicateLeftBehind saw
                    // 1 in 1,049,271): then nobody runs ours. Wait for the mark or the advance (a few
                    // instructions away, unless that thread is descheduled): spin, then park.
                    interruptedWaiting |= pause(waited++);
                    continue;
                }
                if (n == t && state == FREE) {
                    if (SEQ.compareAndSet(this, s, s | CALLER)) { // claim back: against the owner's claim of t
                        SLOT.setOpaque(ring, i, null); // ours alone now: only a DRAINER takes an entry
                        runFrom(t, item);
                        return;
                    }
                    continue; // the owner claimed it to drain, or another call for t runs (misuse)
                }
                if (n > t || n == t && state == CALLER) {
                    // t ran, or another call for t runs it: unless a drainer took our entry (and ran it), it is a duplicate
                    if (SLOT.compareAndSet(ring, i, entry, null)) {
                        throw n > t ? ranAlready(t, n) : running(t);
                    }
                }
                // left behind: a thread of an earlier ticket runs it (n < t), or a drainer has (or had) it
                if (item != TRASH) {
                    stats.leftBehind(n, n < t);
                }
                return;
            }
        } finally {
            if (interruptedWaiting) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static IllegalStateException ranAlready(long t, long n) {
        return new IllegalStateException("ticket " + t + " was already run or trashed (next ticket: " + n + ")");
    }

    private static IllegalStateException running(long t) {
        return new IllegalStateException("ticket " + t + " is being run by another call right now (run or trashed twice)");
    }

    private static IllegalStateException inRing(long t) {
        return new IllegalStateException("ticket " + t + " is already in the ring (run or trashed twice)");
    }

    /** This thread has claimed ticket t: runs its item, then every left-behind item after it, in order. */
    private void runFrom(long t, Object item) {
        if (item != TRASH) {
            stats.inPlace();
        }
        execute(t, item);
        long drained = 0;
        boolean fromRing = false;
        for (;;) {
            if (fromRing) { // the drained Entry stayed in its slot while it ran: a late second call for t finds it there
                SLOT.setOpaque(ring, (int) t & mask, null); // before the advance, which releases it (slot reuse)
            }
            // volatile write: the hand-over of ticket t + 1 (unclaimed), and the release of task t's
            // writes; pairs with submit's volatile reads. Only the claimant writes a claimed word.
            SEQ.setVolatile(this, (t + 1) << STATE_BITS);
            t++;
            int i = (int) t & mask;
            Object left = SLOT.getVolatile(ring, i); // Dekker: pairs with the publisher's CAS of the slot
            // a later lap's entry: the sequence moved on without us; else claim t to drain it
            if (!(left instanceof Entry e) || e.ticket != t
                    || !SEQ.compareAndSet(this, t << STATE_BITS, t << STATE_BITS | DRAINER)) {
                break;
            }
            e.drained = true; // volatile write, after the claim: pairs with leaveBehind's wait
            fromRing = true;
            if (e.item != TRASH) {
                drained++;
            }
            execute(t, e.item);
        }
        stats.drained(drained);
    }

    private void execute(long t, Object item) {
        if (item == TRASH) {
            return;
        }
        try {
            ((Runnable) item).run();
        } catch (Throwable failure) {
            stats.failed();
            try {
                handler.failed(t, failure);
            } catch (Throwable inHandler) {
                inHandler.addSuppressed(failure);
                LOG.log(System.Logger.Level.ERROR, "failure handler threw for ticket " + t, inHandler);
            }
        }
    }

    /** Waits until ticket t fits in the ring (t < next + capacity); returns the word then. */
    private long awaitRoom(long t) {
        long start = stats.ringFullWaitStarts();
        boolean interrupted = false;
        long s;
        for (long step = 0; t - ((s = (long) SEQ.getVolatile(this)) >> STATE_BITS) >= ring.length; step++) { // pairs with the advance
            if (step >= SPINS) {
                stats.stall(s >> STATE_BITS);
            }
            interrupted |= pause(step);
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        stats.ringFullWaitEnded(start);
        return s;
    }

    /**
     * Step {@code step} of a wait for another thread: {@link Thread#onSpinWait()} for the first
     * {@link #SPINS} steps, then {@link LockSupport#parkNanos} (this scheduler as blocker) from
     * {@link #MIN_PARK_NANOS} doubling to {@link #MAX_PARK_NANOS}. Returns whether it cleared an
     * interrupt (an interrupted park returns at once; the waiter restores it when the wait ends).
     */
    private boolean pause(long step) {
        if (step < SPINS) {
            Thread.onSpinWait();
            return false;
        }
        LockSupport.parkNanos(this, Math.min(MIN_PARK_NANOS << Math.min(step - SPINS, 20), MAX_PARK_NANOS));
        return Thread.interrupted();
    }
}
