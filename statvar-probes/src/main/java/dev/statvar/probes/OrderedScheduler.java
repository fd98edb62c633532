package dev.statvar.probes;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;
import dev.statvar.probes.internal.Broken;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs tasks one at a time in ticket order without a thread of its own (seed 003's "ordered
 * scheduler"): a thread whose task is next runs it, and then every task that later tickets left
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
 *   <li><b>Misuse fails loudly</b>: {@link IllegalArgumentException} for a ticket never issued,
 *       {@link IllegalStateException} for a ticket run or trashed twice (detected when the second
 *       call comes after the first ran, or while the first is still in the ring, or when both
 *       ran at once: then the second to finish throws, after its task ran).</li>
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
     * State: next (the ticket that runs next: every ticket below it ran or was trashed), issued
     * (tickets handed out), and a ring of capacity slots (a power of two), slot i holding the task
     * (or TRASH) of the ticket t with t & mask == i in [next, next + capacity) that was left
     * behind, or null.
     *
     * Ownership: the thread that runs ticket next "owns" the sequence. It becomes owner either by
     * reading next == t for its own ticket t, or by taking a left-behind task out of slot next with
     * a CAS (slot: task -> null). The owner runs the task, advances next with a CAS (t -> t + 1),
     * then looks at the slot of t + 1: it takes (CAS) and runs a task found there, and so on, and
     * stops at an empty slot. At most one thread owns ticket t: its own thread reads next == t
     * only after the previous owner advanced next, and a slot task is taken by one CAS only.
     *
     * The hand-off race (the heart): thread P with ticket t (not next) publishes its task while
     * the owner O of t - 1 finishes. P: CAS slot (null -> task), then volatile read of next.
     * O: CAS next (t - 1 -> t), then volatile read of slot t. Both are Dekker's pattern: the CAS
     * and the volatile reads are synchronization actions, totally ordered, so at least one of
     * P and O sees the other's write (P sees next == t, or O sees the task). Whichever sees it
     * CASes the slot task -> null; if both do, exactly one CAS wins. The winner runs task t and
     * owns the sequence from t on; the loser returns. A task in the ring when its predecessor
     * finishes thus runs exactly once. (Chosen over a per-slot state word: the slot's reference
     * is its state, so publication and claim are one CAS each, and no slot is ever reset late.)
     *
     * Slot reuse: ticket t may be published only while t < next + capacity (else it waits for
     * room), and a slot is emptied (CAS to null) before the owner advances next past its ticket,
     * so P's CAS expecting null sees the slot emptied (it read next with acquire, after that
     * advance). A CAS of P that fails therefore means its ticket is already in the ring: misuse.
     *
     * Laps (found by the lab, where the first version ran a task early): once O has advanced next
     * to t, P may claim its task back and the sequence may run on, a whole ring further, while O
     * is descheduled before its read of slot t; O then finds the task of ticket t + capacity (or
     * later) there. The slot's reference alone cannot tell: a user may pass the same Runnable for
     * two tickets. So a slot holds an Entry, a new object per left-behind call naming its ticket;
     * O takes it only if it names t (otherwise the sequence has moved on without O: it stops), and
     * every CAS compares that unique Entry, so no claim can take a later lap's task (no ABA).
     *
     * Happens-before between tasks: task t + 1 runs on O itself (program order after task t), or
     * on P after P read next == t + 1 (acquire or volatile read of O's CAS): either way after
     * everything task t wrote. A left-behind task's object is published by P's CAS and taken by
     * O's CAS of the same slot, so O sees what P wrote before run().
     *
     * Assumptions: tickets come from ticket() (a getAndAdd on issued, fully fenced), fewer than
     * 2^63 of them; tasks do not call run/trash of a ticket behind their own on the same scheduler
     * (it would wait for itself when the ring is full, like a lock taken twice).
     * Not padded: next and issued may share a cache line (issued is written once per task, next
     * once per task too, by different threads); the lab's ordered study measures it as it is.
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
    /** The item of a trashed ticket. */
    private static final Object TRASH = new Object();

    /**
     * What a left-behind ticket puts in its slot: a new object per call, naming its ticket, so that
     * a slot's content identifies the ticket it belongs to (see "Laps" in the design comment).
     */
    private static final class Entry {
        final long ticket;
        final Object item;

        Entry(long ticket, Object item) {
            this.ticket = ticket;
            this.item = item;
        }
    }

    private static final VarHandle NEXT;
    private static final VarHandle ISSUED;
    private static final VarHandle STALL_TICKET;
    private static final VarHandle STALL_SINCE;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            NEXT = l.findVarHandle(OrderedScheduler.class, "next", long.class);
            ISSUED = l.findVarHandle(OrderedScheduler.class, "issued", long.class);
            STALL_TICKET = l.findVarHandle(OrderedScheduler.class, "stallTicket", long.class);
            STALL_SINCE = l.findVarHandle(OrderedScheduler.class, "stallSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Object[] ring;
    private final int mask;
    private final FailureHandler handler;

    /** The ticket that runs next (accessed through NEXT only). */
    private long next;
    /** Tickets issued (through ISSUED only). */
    private long issued;
    /** The next ticket that a left-behind task or a ring-full waiter last saw waiting (STALL_TICKET). */
    private long stallTicket = -1;
    /** When it was first seen waiting, System.nanoTime() (STALL_SINCE). */
    private long stallSince;

    private final Counter inPlace;
    private final Counter leftBehind;
    private final Counter trashed;
    private final Counter failed;
    private final Counter ringFullWaits;
    private final Histogram ringFullWaitNs;
    private final Gauge drainedRun;
    private final Gauge nextTicketGauge;
    private final Gauge stalledNs;

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
        if (registry != null) {
            Objects.requireNonNull(name, "name");
            inPlace = registry.counter(name + "_in_place", "ordered tasks run by the thread that called run() for them");
            leftBehind = registry.counter(name + "_left_behind", "ordered tasks left in the ring for an earlier ticket's thread");
            trashed = registry.counter(name + "_trashed", "tickets trashed (skipped)");
            failed = registry.counter(name + "_failed", "ordered tasks that threw");
            ringFullWaits = registry.counter(name + "_ring_full_waits", "run() or trash() calls that waited for room in the ring");
            ringFullWaitNs = registry.histogram(name + "_ring_full_wait_ns", "length of each ring-full wait, ns");
            drainedRun = registry.gauge(name + "_drained_run", "left-behind tasks one thread ran in a row, per drain");
            nextTicketGauge = registry.gauge(name + "_next_ticket", "the ticket waited on, per left-behind task or ring-full park");
            stalledNs = registry.gauge(name + "_stalled_ns", "how long later tasks have waited on the next ticket, ns");
        } else {
            inPlace = leftBehind = trashed = failed = ringFullWaits = null;
            ringFullWaitNs = null;
            drainedRun = nextTicketGauge = stalledNs = null;
        }
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
     * @throws IllegalStateException if {@code ticket} was already run or trashed
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
     * @throws IllegalStateException if {@code ticket} was already run or trashed
     */
    public void trash(long ticket) {
        submit(ticket, TRASH);
        if (trashed != null) {
            trashed.add();
        }
    }

    /**
     * The ticket that runs next. Any thread.
     *
     * @return the lowest ticket not yet run or trashed: every ticket below it ran or was trashed
     */
    public long nextTicket() {
        return (long) NEXT.getAcquire(this); // pairs with the CAS in runFrom
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
        long stalled = (long) STALL_TICKET.getAcquire(this); // pairs with setRelease in markStall
        long since = (long) STALL_SINCE.getOpaque(this); // written before that release
        return stalled == nextTicket() ? Math.max(1, System.nanoTime() - since) : 0;
    }

    @Override
    public String toString() {
        return "OrderedScheduler[capacity=" + ring.length + ", next=" + nextTicket() + ", issued=" + issuedTickets()
                + ", stalledNanos=" + stalledNanos() + "]";
    }

    // ------------------------------------------------------------------ the algorithm

    private void submit(long t, Object item) {
        long n = (long) NEXT.getAcquire(this); // pairs with the CAS in runFrom: t == n sees the previous tasks' writes
        long issuedNow = (long) ISSUED.getAcquire(this); // pairs with ticket()'s getAndAdd
        if (t < 0 || t >= issuedNow) {
            throw new IllegalArgumentException("ticket " + t + " was not issued (tickets issued: 0 .. " + (issuedNow - 1) + ")");
        }
        if (t < n) {
            throw new IllegalStateException("ticket " + t + " was already run or trashed (next ticket: " + n + ")");
        }
        if (t - n >= ring.length) {
            n = awaitRoom(t);
        }
        if (t == n) {
            runFrom(t, item);
            return;
        }
        int i = (int) t & mask;
        Entry entry = new Entry(t, item);
        if (!SLOT.compareAndSet(ring, i, null, entry)) { // volatile write: the publication of the hand-off
            throw new IllegalStateException("ticket " + t + " is already in the ring (run or trashed twice)");
        }
        // Dekker: our CAS of the slot, then this volatile read of next; the owner's CAS of next,
        // then its volatile read of the slot (runFrom): one of the two sees the other's write.
        long now = Broken.HANDOFF_NO_RECHECK ? n : (long) NEXT.getVolatile(this);
        if (now == t && SLOT.compareAndSet(ring, i, entry, null)) { // claim back: pairs with the owner's claim CAS
            runFrom(t, item);
            return;
        }
        if (item != TRASH) {
            if (leftBehind != null) {
                leftBehind.add();
            }
            markStall(now);
        }
    }

    /** This thread owns ticket t: runs its item, then every left-behind item after it, in order. */
    private void runFrom(long t, Object item) {
        if (item != TRASH && inPlace != null) {
            inPlace.add();
        }
        execute(t, item);
        long drained = 0;
        for (;;) {
            // volatile write (a CAS): the hand-over of ticket t + 1, and the release of task t's
            // writes; pairs with submit's acquire/volatile reads of next
            if (!NEXT.compareAndSet(this, t, t + 1)) {
                throw new IllegalStateException("ticket " + t + " ran twice (next ticket: " + nextTicket() + ")");
            }
            t++;
            int i = (int) t & mask;
            Object left = SLOT.getVolatile(ring, i); // Dekker: pairs with the publisher's CAS of the slot
            // a later lap's entry: the sequence moved on without us; else claim (pairs with the claim back)
            if (!(left instanceof Entry e) || e.ticket != t || !SLOT.compareAndSet(ring, i, e, null)) {
                break;
            }
            if (e.item != TRASH) {
                drained++;
            }
            execute(t, e.item);
        }
        if (drained > 0 && drainedRun != null) {
            drainedRun.report(drained);
        }
    }

    private void execute(long t, Object item) {
        if (item == TRASH) {
            return;
        }
        try {
            ((Runnable) item).run();
        } catch (Throwable failure) {
            if (failed != null) {
                failed.add();
            }
            try {
                handler.failed(t, failure);
            } catch (Throwable inHandler) {
                inHandler.addSuppressed(failure);
                LOG.log(System.Logger.Level.ERROR, "failure handler threw for ticket " + t, inHandler);
            }
        }
    }

    /** Waits until ticket t fits in the ring (t < next + capacity); returns next then. */
    private long awaitRoom(long t) {
        if (ringFullWaits != null) {
            ringFullWaits.add();
        }
        long start = System.nanoTime();
        boolean interrupted = false;
        int spins = 0;
        long park = MIN_PARK_NANOS;
        long n;
        while (t - (n = (long) NEXT.getAcquire(this)) >= ring.length) { // pairs with the CAS in runFrom
            if (spins < SPINS) {
                spins++;
                Thread.onSpinWait();
                continue;
            }
            markStall(n);
            LockSupport.parkNanos(this, park);
            park = Math.min(park * 2, MAX_PARK_NANOS);
            if (Thread.interrupted()) { // an interrupted park returns at once: clear it, restore it at the end
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (ringFullWaitNs != null) {
            ringFullWaitNs.record(System.nanoTime() - start);
        }
        return n;
    }

    /** A later task waits on ticket n: notes since when (first time seen) and reports it. */
    private void markStall(long n) {
        long now = System.nanoTime();
        if ((long) STALL_TICKET.getAcquire(this) != n) { // pairs with the setRelease below (other waiters)
            STALL_SINCE.setOpaque(this, now);
            STALL_TICKET.setRelease(this, n); // after the time: a reader seeing n sees this time or a later one
        } else if (stalledNs != null) {
            stalledNs.report(now - (long) STALL_SINCE.getOpaque(this));
        }
        if (nextTicketGauge != null) {
            nextTicketGauge.report(n);
        }
    }
}
