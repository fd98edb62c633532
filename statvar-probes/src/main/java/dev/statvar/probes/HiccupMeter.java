package dev.statvar.probes;

import dev.statvar.Histogram;
import dev.statvar.StatRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

// Design. jHiccup's idea, recording into a statvar histogram: one daemon thread asks to sleep
// `resolution`, measures with System.nanoTime the time from one wake-up to the next, and records
// the excess over `resolution`. Each period starts at the previous wake-up (as jHiccup chains
// timeBeforeMeasurement), not at a fresh clock read: a pause that strikes while the meter records
// (in Java code, stopped at a safepoint poll) then lands in the next period instead of between two. Anything that stops a runnable thread from running (a safepoint or GC pause, the OS not
// scheduling the thread, a page fault storm, a VM steal) shows as a long excess. The thread records
// through its own histogram cells (single writer, no locked instruction); the collector reads them
// as for any stat. Coordinated omission: during a hiccup of length H the meter took one sample where
// it would have taken H / resolution, so it also records H - resolution, H - 2 * resolution, ...
// down to resolution, exactly as HdrHistogram's recordValueWithExpectedInterval(H, resolution) does:
// the values a request arriving every `resolution` would have seen. The sleeper and clock are
// injectable (package-private constructor) so tests check the correction with exact numbers.

/**
 * A hiccup meter: a daemon thread that sleeps {@code resolution} in a loop and records, in the
 * histogram {@code name} (nanoseconds), how much longer than asked each sleep took, corrected for
 * coordinated omission as jHiccup does.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Who writes.</b> Only the meter's thread, named {@code statvar-hiccup-<name>} (a daemon),
 *       records into the histogram: one value per sleep, plus the corrected values after a long one.
 *       Nobody else should record into that name: a second meter on the same name of the same
 *       registry is refused ({@link IllegalStateException} from {@link #start}) until the first
 *       is closed.</li>
 *   <li><b>Who reads.</b> Whoever collects the registry ({@link StatRegistry#collect()} or its
 *       collector), as for any histogram.</li>
 *   <li><b>What the histogram means.</b> Each value is {@code (time from the previous wake-up to
 *       this one) - resolution} in ns (never negative: an early wake-up records 0); the time spent
 *       recording is inside the period, so a pause while the meter records is not missed. After a sleep that overran by
 *       {@code H >= 2 * resolution}, the values {@code H - resolution}, {@code H - 2 * resolution},
 *       ... down to the last one {@code >= resolution} are recorded too (HdrHistogram's
 *       {@code recordValueWithExpectedInterval(H, resolution)}). So the count is about the number of
 *       {@code resolution} periods the meter lived through, and a percentile reads as "a task due
 *       at a random moment would have been delayed this much by the platform". The floor of the
 *       histogram is the platform's own sleep overshoot (Linux timer slack: typically 50..100 µs);
 *       unlike jHiccup this meter does not subtract the shortest sleep seen, so what you see is
 *       "longer than asked", overshoot included.</li>
 *   <li><b>What it does not catch.</b> Pauses shorter than the sleep overshoot or than the
 *       resolution's granularity; stalls that do not stop this thread (a lock, an I/O wait, a full
 *       queue in the application: use {@link JfrContention} or {@link WakeupTimer}); a CPU-starved
 *       <em>other</em> thread when this one still gets a CPU. Conversely, on a machine with fewer
 *       free CPUs than runnable threads, it records the scheduler's delay of this thread, which is
 *       a real hiccup for any thread that wakes up there, not a JVM pause.</li>
 *   <li><b>Cost.</b> The meter thread's CPU, one wake-up per {@code resolution}: measured at
 *       1.6 % of a core at 1 ms and 0.46 % at 10 ms on a 2-vCPU Intel Xeon VM (docs/PROBES.md,
 *       {@code HiccupMeterCost}). No other thread is slowed.</li>
 *   <li><b>Lifecycle.</b> {@link #start} starts the thread; {@link #close()} stops it, waits
 *       for it to end, releases the name, and is idempotent. The histogram stays registered, and
 *       a meter started again on it afterwards records on into it.</li>
 * </ul>
 */
public final class HiccupMeter implements AutoCloseable {
    /** Smallest accepted resolution: below it the sleep overshoot is the whole signal. */
    public static final Duration MIN_RESOLUTION = Duration.ofMillis(1);
    /** Largest accepted resolution. */
    public static final Duration MAX_RESOLUTION = Duration.ofMinutes(1);

    /** Sleeps the given number of nanoseconds (or longer); the thread's interrupt ends it. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private static final VarHandle CLOSED;

    static {
        try {
            CLOSED = MethodHandles.lookup().findVarHandle(HiccupMeter.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Histogram histogram;
    private final long resolutionNanos;
    private final LongSupplier clock;
    private final Sleeper sleeper;
    private final Thread thread;
    @SuppressWarnings("unused") // through CLOSED
    private boolean closed;
    /** The last wake-up, where the next period starts (Plain: only the sampling thread touches it). */
    private long lastWake;
    /** Whether {@link #lastWake} starts the next period (false at first and after an interrupt). */
    private boolean chained;

    /**
     * Starts a hiccup meter recording into the histogram {@code name} of {@code registry}
     * (registered with the default precision if new).
     *
     * @param registry   where the histogram is registered
     * @param name       the histogram's name, also in the thread's name
     * @param resolution how long the meter sleeps each time, 1 ms .. 1 min
     * @return the meter, its thread started
     * @throws IllegalArgumentException if an argument is null, the resolution is out of range, or
     *                                  the name is invalid or taken by a stat of another kind
     * @throws IllegalStateException    if a meter started on this name of this registry is not
     *                                  closed yet (two would record every sleep twice); once it is
     *                                  closed, a new one may start and records on into the same histogram
     */
    public static HiccupMeter start(StatRegistry registry, String name, Duration resolution) {
        HiccupMeter m = new HiccupMeter(registry, name, resolution, System::nanoTime,
                nanos -> TimeUnit.NANOSECONDS.sleep(nanos));
        Running.claim(m.histogram, m, "a hiccup meter recording into '" + name + "' of this registry");
        try {
            m.thread.start();
        } catch (RuntimeException | Error e) { // no thread (OutOfMemoryError: unable to create native thread)
            Running.release(m.histogram, m);
            throw e;
        }
        return m;
    }

    /** An unstarted meter with this clock and sleeper (tests drive {@link #sampleOnce()} directly). */
    HiccupMeter(StatRegistry registry, String name, Duration resolution, LongSupplier clock, Sleeper sleeper) {
        if (registry == null) {
            throw new IllegalArgumentException("registry must not be null");
        }
        if (name == null) {
            throw new IllegalArgumentException("hiccup meter name must not be null");
        }
        if (resolution == null) {
            throw new IllegalArgumentException("hiccup meter '" + name + "': resolution must not be null");
        }
        if (resolution.compareTo(MIN_RESOLUTION) < 0 || resolution.compareTo(MAX_RESOLUTION) > 0) {
            throw new IllegalArgumentException("hiccup meter '" + name + "': resolution must be in "
                    + MIN_RESOLUTION + " .. " + MAX_RESOLUTION + ", was " + resolution);
        }
        this.histogram = registry.histogram(name,
                "how much longer than " + resolution.toNanos() + " ns the hiccup meter's sleeps took,"
                        + " corrected for coordinated omission, ns");
        this.resolutionNanos = resolution.toNanos();
        this.clock = clock;
        this.sleeper = sleeper;
        this.thread = new Thread(this::run, "statvar-hiccup-" + name);
        this.thread.setDaemon(true);
    }

    private void run() {
        // Records only from this thread: take the thread-bound view once.
        Histogram mine = histogram.localView();
        while (!(boolean) CLOSED.getOpaque(this)) { // pairs with setOpaque in close(); the interrupt wakes the sleep
            try {
                sampleOnce(mine);
            } catch (InterruptedException e) {
                // close() (the loop test then ends it) or a stray interrupt: either way the
                // interrupted sleep is not a sample
            }
        }
    }

    /** One sleep and its records, into the meter's histogram; the hiccup recorded (0 when on time). */
    long sampleOnce() throws InterruptedException {
        return sampleOnce(histogram);
    }

    private long sampleOnce(Histogram into) throws InterruptedException {
        long start = chained ? lastWake : clock.getAsLong();
        try {
            sleeper.sleep(resolutionNanos);
        } catch (InterruptedException e) {
            chained = false; // the interrupted period is not a sample: the next one starts afresh
            throw e;
        }
        long wake = clock.getAsLong();
        lastWake = wake;
        chained = true;
        long hiccup = Math.max(0, wake - start - resolutionNanos);
        recordCorrected(into, hiccup, resolutionNanos);
        return hiccup;
    }

    /**
     * Records {@code value}, then {@code value - interval}, {@code value - 2 * interval}, ... while
     * at least {@code interval}: HdrHistogram's {@code recordValueWithExpectedInterval}.
     */
    static void recordCorrected(Histogram into, long value, long interval) {
        into.record(value);
        for (long missing = value - interval; missing >= interval; missing -= interval) {
            into.record(missing);
        }
    }

    /**
     * The name of the meter's thread.
     *
     * @return {@code statvar-hiccup-<name>}
     */
    public String threadName() {
        return thread.getName();
    }

    /**
     * The resolution: how long the meter asks to sleep each time.
     *
     * @return the resolution in nanoseconds
     */
    public long resolutionNanos() {
        return resolutionNanos;
    }

    /**
     * Whether the meter's thread is still running.
     *
     * @return whether the thread is alive; false once {@link #close()} has returned
     */
    public boolean isRunning() {
        return thread.isAlive();
    }

    /**
     * Stops the meter's thread and waits for it to end; idempotent, from any thread. The wait is
     * short (the meter's sleep is interrupted); an interrupt of the calling thread does not cut
     * it, and the calling thread's interrupt status is kept.
     */
    @Override
    public void close() {
        // Pairs with getOpaque in run(). Opaque suffices: interrupt() happens-before the meter thread
        // sees its interrupt (JLS 17.4.4), after which its next loop test reads true.
        CLOSED.setOpaque(this, true);
        if (thread.getState() == Thread.State.NEW) {
            return; // never started (tests)
        }
        thread.interrupt();
        Uninterruptibly.join(thread);
        Running.release(histogram, this); // after the join: a new meter on this name never overlaps this one
    }
}
