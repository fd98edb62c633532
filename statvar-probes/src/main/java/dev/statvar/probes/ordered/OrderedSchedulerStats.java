package dev.statvar.probes.ordered;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * {@link OrderedScheduler}'s statistics (with a registry; none without) and its stall watch
 * (always): the names and meanings are in {@code OrderedScheduler}'s class comment.
 *
 * <p>Threading: every method from any thread that calls the scheduler. The stats are statvar's
 * (any thread updates them, no lock). The stall pair (ticket, since) is written by whichever
 * thread reports a stall and read by {@link #stalledNanos}: racy by design, a hint.
 */
final class OrderedSchedulerStats {
    private static final VarHandle STALL_TICKET;
    private static final VarHandle STALL_SINCE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STALL_TICKET = l.findVarHandle(OrderedSchedulerStats.class, "stallTicket", long.class);
            STALL_SINCE = l.findVarHandle(OrderedSchedulerStats.class, "stallSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The next ticket that a left-behind task or a ring-full waiter last saw waiting (STALL_TICKET). */
    @SuppressWarnings("unused") // through STALL_TICKET
    private long stallTicket = -1;
    /** When it was first seen waiting, System.nanoTime() (STALL_SINCE). */
    @SuppressWarnings("unused") // through STALL_SINCE
    private long stallSince;

    private final Counter inPlace;
    private final Counter leftBehind;
    private final Counter trashed;
    private final Counter failed;
    private final Counter ringFullWaits;
    private final Histogram ringFullWaitNs;
    private final Gauge drainedRun;
    private final Gauge nextTicket;
    private final Gauge stalledNs;

    /** The stats of {@code name} in {@code registry}, registered if new; none when {@code registry} is null. */
    OrderedSchedulerStats(StatRegistry registry, String name) {
        if (registry != null) {
            Objects.requireNonNull(name, "name");
            inPlace = registry.counter(name + "_in_place", "ordered tasks run by the thread that called run() for them");
            leftBehind = registry.counter(name + "_left_behind", "ordered tasks left in the ring for an earlier ticket's thread");
            trashed = registry.counter(name + "_trashed", "tickets trashed (skipped)");
            failed = registry.counter(name + "_failed", "ordered tasks that threw");
            ringFullWaits = registry.counter(name + "_ring_full_waits", "run() or trash() calls that waited for room in the ring");
            ringFullWaitNs = registry.histogram(name + "_ring_full_wait_ns", "length of each ring-full wait, ns");
            drainedRun = registry.gauge(name + "_drained_run", "left-behind tasks one thread ran in a row, per drain");
            nextTicket = registry.gauge(name + "_next_ticket", "the ticket waited on, per left-behind task or ring-full park");
            stalledNs = registry.gauge(name + "_stalled_ns", "how long later tasks have waited on the next ticket, ns");
        } else {
            inPlace = leftBehind = trashed = failed = ringFullWaits = null;
            ringFullWaitNs = null;
            drainedRun = nextTicket = stalledNs = null;
        }
    }

    /** A task ran on the thread that called run() for it. */
    void inPlace() {
        if (inPlace != null) {
            inPlace.add();
        }
    }

    /** A task was left for an earlier ticket's thread, which waits on ticket {@code next} (when still before the task's own). */
    void leftBehind(long next, boolean stalled) {
        if (leftBehind != null) {
            leftBehind.add();
        }
        if (stalled) {
            stall(next);
        }
    }

    /** A ticket was trashed. */
    void trashed() {
        if (trashed != null) {
            trashed.add();
        }
    }

    /** A task threw. */
    void failed() {
        if (failed != null) {
            failed.add();
        }
    }

    /** A ring-full wait starts; returns its start, System.nanoTime(). */
    long ringFullWaitStarts() {
        if (ringFullWaits != null) {
            ringFullWaits.add();
        }
        return System.nanoTime();
    }

    /** The ring-full wait that started at {@code start} ended. */
    void ringFullWaitEnded(long start) {
        if (ringFullWaitNs != null) {
            ringFullWaitNs.record(System.nanoTime() - start);
        }
    }

    /** One thread drained {@code drained} left-behind tasks in a row (reported when positive). */
    void drained(long drained) {
        if (drained > 0 && drainedRun != null) {
            drainedRun.report(drained);
        }
    }

    /** A later task waits on ticket n: notes since when (first time seen) and reports it. */
    void stall(long n) {
        long now = System.nanoTime();
        if ((long) STALL_TICKET.getAcquire(this) != n) { // pairs with the setRelease below (other waiters)
            STALL_SINCE.setOpaque(this, now);
            STALL_TICKET.setRelease(this, n); // after the time: a reader seeing n sees this time or a later one
        } else if (stalledNs != null) {
            stalledNs.report(now - (long) STALL_SINCE.getOpaque(this));
        }
        if (nextTicket != null) {
            nextTicket.report(n);
        }
    }

    /** As {@link OrderedScheduler#stalledNanos()}, {@code next} being the scheduler's next ticket. */
    long stalledNanos(long next) {
        long stalled = (long) STALL_TICKET.getAcquire(this); // pairs with setRelease in stall
        long since = (long) STALL_SINCE.getOpaque(this); // written before that release
        return stalled == next ? Math.max(1, System.nanoTime() - since) : 0;
    }
}
