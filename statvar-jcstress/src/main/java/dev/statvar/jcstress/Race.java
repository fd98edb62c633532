package dev.statvar.jcstress;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.StatRegistry;
import dev.statvar.internal.Broken;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The timing of one sample (not a test): the root of every test state here. It lines the
 * updating side up with the collecting side, spreads the update over the collect, and records
 * evidence of where the update stood.
 *
 * <h2>Why</h2>
 * jcstress runs each actor over a stride of states on its own. A {@code collect()} takes about
 * 75 us here (mostly its grace park: Engine.GRACE_NANOS, which the OS rounds up), an update
 * nanoseconds. Left alone, the updater finishes its stride while the collector is on the first
 * state or two, and almost no sample races. So both sides meet at a start line in every sample
 * (a spin bounded by {@value #START_WAIT_NANOS} ns, which only a stalled or failed actor reaches:
 * with a 1 s bound, a whole-suite run on a CPU-starved machine had one sample each in two tests
 * where the collector left without the updater, breaking the tests' premise that what the
 * updater did before the start line happened before the collect; the first state built in a
 * JVM also warms statvar up, so that class initialisation and VarHandle linking happen before
 * the first sample), and then the updater waits, as the sample's randomly chosen mode says:
 * <ul>
 *   <li>mode 0 (1/4 of the samples): not at all: the update races the start of collect(), where
 *       it takes the fresh blocks, folds dead threads and switches the arrays to the next epoch;</li>
 *   <li>mode 1 (1/4): a uniform 0 .. {@value #SPREAD_NANOS} ns: anywhere in the collect, or after it;</li>
 *   <li>mode 2 (1/4), follow: waits (bounded) until the collecting thread is parked in the grace
 *       (state TIMED_WAITING) and then until it runs again, then a uniform 0 ..
 *       {@value #READ_SPREAD_NANOS} ns: the update lands among or just after the collector's reads
 *       of the arrays. It also measures how long after the park began the collector was seen
 *       running again, into an estimate shared by the samples of this JVM;</li>
 *   <li>mode 3 (1/4), aim: waits until the collector parks, then aims at the end of its park by
 *       that estimate: it starts the update a uniform {@value #AIM_EARLY_NANOS} ns before to
 *       {@value #AIM_LATE_NANOS} ns after the estimated wake-up, whatever the thread's state then.
 *       Seeing the wake-up lags it (the updater polls the thread's state, and on a busy machine
 *       it is not always running when the collector wakes), so following alone reaches the reads
 *       in few samples; aiming spreads the updates over the park's end, reads included.</li>
 * </ul>
 * Without a park (a future engine) modes 2 and 3 fall back to mode 1's spread after their bounded
 * waits. The collector reads live counter arrays at the start of the grace, until 5 us have passed,
 * and parks for what is left of it (a registry of a few stats: nearly all of it), so a counter's
 * cells are read before the park: modes 0 and 1 race those reads.
 *
 * <h2>Evidence</h2>
 * The updater sets {@code started} (volatile) just before the update under test and {@code done}
 * just after it. The collector reads {@code done} just before {@code collect()} and
 * {@code started} just after it returns, and derives the sample's phase (last result field):
 * <ul>
 *   <li>0: the update was done before collect() began: it happens-before the whole collect, so it
 *       is wholly in the interval collect() closes, and nothing of it is in the next one;</li>
 *   <li>1: they overlapped: the documented races are possible;</li>
 *   <li>2: the update began after collect() returned: nothing of it is in the interval it closed;</li>
 *   <li>3: the collector waited {@value #START_WAIT_NANOS} ns at the start line in vain (a stalled
 *       or failed actor): the sample has no evidence, and no test accepts it.</li>
 * </ul>
 *
 * <h2>The switches</h2>
 * A deliberately broken variant turns one {@link Broken} switch on with {@link #turnOn} in a static
 * initialiser of its own class: jcstress runs every test in a JVM of its own, and the static
 * initialiser runs before the first state is built, so before statvar's classes read the switch.
 * Every state's constructor checks that the switches in force are exactly the ones its class
 * asked for (none for the ok tests): a switch that did not take, or one that leaked into an ok
 * test, fails the test with an error instead of passing quietly.
 */
abstract class Race {
    /**
     * Longest either side waits for the other at the start line: 20 s, reached only by a stalled
     * or failed actor (jcstress ends a run whose actor failed at its next check, once a second).
     */
    static final long START_WAIT_NANOS = 20_000_000_000L;
    /** Mode 1: the update is delayed by a uniform 0 .. this many ns (a collect() takes about 75 us here). */
    static final int SPREAD_NANOS = 100_000;
    /** Mode 2: longest wait for the collector to park in its grace, and then to run again. */
    static final long MAX_FOLLOW_NANOS = 300_000;
    /** Mode 2: after the collector runs again, the update is delayed by a uniform 0 .. this many ns. */
    static final int READ_SPREAD_NANOS = 1_000;
    /** Mode 3: the update starts up to this long before the estimated end of the collector's park ... */
    static final int AIM_EARLY_NANOS = 4_000;
    /** ... or up to this long after it. */
    static final int AIM_LATE_NANOS = 1_000;

    /**
     * How long after it was seen parking the collector was seen running again (mode 2), in ns: an
     * exponentially weighted mean over this JVM's samples (0 until the first measurement). Racy
     * updates of a hint: a lost one costs nothing.
     */
    private static volatile long parkEstimate;

    /** The switches the running test asked for ("" for an ok test); set by {@link #turnOn}. */
    private static volatile String requested = "";
    /** Whether statvar has been warmed up in this JVM (see {@link #warmUp}). */
    private static volatile boolean warmedUp;

    private volatile boolean updaterReady;
    private volatile boolean collectorReady;
    private volatile Thread collectorThread;
    private volatile boolean started;
    private volatile boolean done;
    /** Collector-confined: whether the collector met the updater at the start line. */
    private boolean met;

    Race() {
        if (!Broken.ORDERING.equals(requested)) {
            throw new IllegalStateException("statvar's test switches in force are " + Broken.describe() + " (-D"
                    + Broken.PROPERTY + "=" + Broken.ORDERING + "), but this test asked for '" + requested
                    + "': the switch class initialised before the test set its property, or a switch leaked into an ok test");
        }
        if (!warmedUp) {
            warmUp();
            warmedUp = true;
        }
    }

    /**
     * Runs every update path and a collect once, on two throwaway registries: class initialisation
     * and the linking of statvar's VarHandles then happen before the first sample instead of inside
     * it (where, on a loaded machine, they kept the updater from the start line for over a second).
     * A registry with the default hotAfter sends this thread's gauge reports and histogram records
     * to the shared stripes (a thread is cold for its first 999 updates of a stat in an interval:
     * Stripes.report / Stripes.record under a stripe lock); one with {@code hotAfter(1)} gives the
     * thread arrays of its own at once (the lock-free paths, the gauge array made and grown under
     * the engine lock, the histogram array made and grown to a new octave). A counter is not tiered:
     * its add takes the thread's counter array in both.
     */
    private static void warmUp() {
        for (StatRegistry r : new StatRegistry[]{StatRegistry.create(), StatRegistry.builder().hotAfter(1).build()}) {
            Counter c = r.counter("c");
            Gauge g = r.gauge("g");
            Histogram h = r.histogram("h");
            Gauge later = r.gauge("later"); // beyond the gauge array made for g: its first report grows it
            for (int i = 1; i <= 3; i++) {
                c.add();
                c.localView().add();
                g.report(i);
                later.report(i);
                g.localView().report(i);
                h.record(i);
                h.record(1000L * i);
                h.localView().record(i);
                r.collect();
            }
        }
    }

    /**
     * Turns statvar's test switch {@code name} on for this JVM (a {@link Broken} name). Call from a
     * static initialiser of a broken variant, before any state is built.
     */
    static void turnOn(String name) {
        System.setProperty(Broken.PROPERTY, name); // a constant: reading it does not initialise Broken
        requested = name;
    }

    // ------------------------------------------------------------------ the collecting side

    /** Collecting side: at the start line (bounded wait for the updater). */
    final void collectorAtStart() {
        collectorThread = Thread.currentThread();
        collectorReady = true;
        met = awaitFlag(false);
    }

    /** Collecting side, just before collect(): whether the update under test is done. */
    final boolean updateDone() {
        return done;
    }

    /** Collecting side, just after collect() returned: the phase (see the class comment). */
    final long phase(boolean doneBefore) {
        if (!met) {
            return 3;
        }
        if (doneBefore) {
            return 0;
        }
        return started ? 1 : 2;
    }

    // ------------------------------------------------------------------ the updating side

    /** Updating side: at the start line, then the sample's delay; ends by marking the update started. */
    final void updaterAtStart() {
        updaterReady = true;
        awaitFlag(true);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int mode = random.nextInt(4);
        if (mode == 1) {
            spin(random.nextInt(SPREAD_NANOS));
        } else if (mode >= 2) {
            Thread c = collectorThread;
            long estimate = parkEstimate;
            if (c == null || !await(c, Thread.State.TIMED_WAITING, true)) {
                spin(random.nextInt(SPREAD_NANOS));
            } else if (mode == 3 && estimate > 0) {
                spin(estimate - AIM_EARLY_NANOS + random.nextInt(AIM_EARLY_NANOS + AIM_LATE_NANOS));
            } else {
                long parked = System.nanoTime();
                if (await(c, Thread.State.TIMED_WAITING, false)) {
                    long measured = System.nanoTime() - parked;
                    parkEstimate = estimate == 0 ? measured : estimate + (measured - estimate) / 8;
                    spin(random.nextInt(READ_SPREAD_NANOS));
                } else {
                    spin(random.nextInt(SPREAD_NANOS));
                }
            }
        }
        started = true;
    }

    /** Updating side: the update under test is done. */
    final void updaterDone() {
        done = true;
    }

    // ------------------------------------------------------------------ bounded waits

    /** Waits (bounded) for the other side at the start line; whether it came. */
    private boolean awaitFlag(boolean updater) {
        long deadline = System.nanoTime() + START_WAIT_NANOS;
        while (!(updater ? collectorReady : updaterReady)) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    /** Waits (bounded) until {@code t} is ({@code is}) or is no longer in {@code state}; whether it happened. */
    private static boolean await(Thread t, Thread.State state, boolean is) {
        long deadline = System.nanoTime() + MAX_FOLLOW_NANOS;
        while ((t.getState() == state) != is) {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            Thread.onSpinWait();
        }
        return true;
    }

    static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
