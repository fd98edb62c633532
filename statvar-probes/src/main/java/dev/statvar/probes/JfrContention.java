package dev.statvar.probes;

import dev.statvar.StatRegistry;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

// Design. The JVM already times contended monitor enters, monitor waits and parks (JFR events
// jdk.JavaMonitorEnter, jdk.JavaMonitorWait, jdk.ThreadPark), for synchronized and for j.u.c locks
// alike: Jean-Philippe Bempel's profiler ("Measuring contention on locks", 2015) had to copy the JDK's lock classes to see j.u.c contention; JFR sees
// it through the park. A RecordingStream with those three events (threshold as given, no stack
// traces: stack walking is most of an event's cost and a label needs only the class) feeds one
// histogram family per event, labelled by the class of the monitor or park blocker. The JFR types
// live in JfrContentionStream only, so this class loads, and says why not, where jdk.jfr is absent.

/**
 * A bridge from JDK Flight Recorder's contention events to statvar histograms: how long threads
 * waited to enter a monitor, waited in {@code Object.wait}, or parked (j.u.c locks, conditions,
 * queues), by the class of the object they waited on.
 *
 * <pre>{@code
 * try (JfrContention jfr = JfrContention.start(stats, Duration.ofMillis(1))) {
 *     ...   // jfr_monitor_enter_duration{class="com.example.Cache"} etc.
 * }
 * }</pre>
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li><b>Stats.</b> Three histogram families, nanoseconds, label {@code class}:
 *       {@value #MONITOR_ENTER} ({@code jdk.JavaMonitorEnter}, label: {@code monitorClass}),
 *       {@value #MONITOR_WAIT} ({@code jdk.JavaMonitorWait}, {@code monitorClass}) and
 *       {@value #THREAD_PARK} ({@code jdk.ThreadPark}, {@code parkedClass}: the park's blocker,
 *       e.g. {@code java.util.concurrent.locks.ReentrantLock$NonfairSync}; {@value #NO_CLASS}
 *       when the park had no blocker). Only events at least {@code threshold} long are recorded.
 *       A class beyond the family's series cap folds into {@code other}. For Prometheus, expose
 *       them in seconds: {@code ExportOptions.withNanosecondsAsSeconds(JfrContention.STATS.toArray(String[]::new))}.
 *       The bridge filters on the event's duration itself: JFR gives a stream the events of the
 *       lowest threshold of all recordings in the JVM (a {@code -XX:StartFlightRecording} at
 *       0 ms, say), and those shorter than this bridge's threshold are dropped here.</li>
 *   <li><b>Who writes.</b> The JFR stream's own thread ({@code JFR Event Stream <n>}), the only
 *       thread that runs this bridge's handlers. Events arrive when JFR flushes (about once a
 *       second), so a histogram shows an event up to a second or so after it ended.</li>
 *   <li><b>What it means.</b> Waiting, not only contention: {@code jdk.ThreadPark} and
 *       {@code jdk.JavaMonitorWait} include idle pool threads waiting for work (a
 *       {@code ThreadPoolExecutor} worker parks on its queue's {@code ConditionObject}; timed
 *       waits that ran out count too) and JFR's own threads. Read them by class.
 *       {@code jdk.JavaMonitorEnter} is pure contention: a thread that blocked because another
 *       held the monitor (a short spin that succeeded is not an event).</li>
 *   <li><b>What it does not catch.</b> Waits shorter than the threshold; spinning (a CAS loop, a
 *       monitor acquired while spinning); contention that blocks elsewhere (I/O, {@code
 *       Thread.sleep}); events JFR drops under load. One bridge per registry: a second
 *       {@link #start} on a registry whose bridge is not closed throws {@link IllegalStateException}
 *       (two would record every event twice).</li>
 *   <li><b>Cost.</b> JFR's cost per recorded event and per instrumented park/enter, measured at
 *       thresholds 0, 10 µs and 20 ms in docs/PROBES.md.</li>
 *   <li><b>Lifecycle.</b> {@link #start} starts the recording and its stream thread before it
 *       returns; {@link #close()} closes the stream, waits for its thread to end and releases the
 *       registry (a new bridge may start on it then); idempotent.</li>
 * </ul>
 */
public final class JfrContention implements AutoCloseable {
    /** Histogram family of {@code jdk.JavaMonitorEnter} durations, ns, label {@code class}. */
    public static final String MONITOR_ENTER = "jfr_monitor_enter_duration";
    /** Histogram family of {@code jdk.JavaMonitorWait} durations, ns, label {@code class}. */
    public static final String MONITOR_WAIT = "jfr_monitor_wait_duration";
    /** Histogram family of {@code jdk.ThreadPark} durations, ns, label {@code class}. */
    public static final String THREAD_PARK = "jfr_thread_park_duration";
    /** The three families (all in nanoseconds). */
    public static final List<String> STATS = List.of(MONITOR_ENTER, MONITOR_WAIT, THREAD_PARK);
    /** The label name. */
    public static final String LABEL = "class";
    /** The label value of a park with no blocker object. */
    public static final String NO_CLASS = "none";

    /**
     * What a running bridge claims in {@link Running}: its registry (one bridge per registry); each
     * start's own instance is the claim's owner (compared by identity).
     */
    private record Claim(StatRegistry registry) {
    }

    private final JfrContentionStream stream;
    private final Claim claim;

    private JfrContention(JfrContentionStream stream, Claim claim) {
        this.stream = stream;
        this.claim = claim;
    }

    /**
     * Starts recording contended monitor enters, monitor waits and parks of at least
     * {@code threshold} into {@code registry}.
     *
     * @param registry  where the three histogram families are registered, if new
     * @param threshold shortest event recorded; {@link Duration#ZERO} records every event
     *                  (JFR's default for these events is 20 ms)
     * @return the bridge, its recording started
     * @throws IllegalArgumentException      if an argument is null or the threshold is negative,
     *                                       or a family name is taken by another stat
     * @throws IllegalStateException         if a bridge started on this registry is not closed
     *                                       yet (two would record every event twice)
     * @throws UnsupportedOperationException if JDK Flight Recorder is not available: the
     *                                       {@code jdk.jfr} module is not in the runtime (a jlink
     *                                       image without it) or not resolved (a module-path
     *                                       launch without {@code --add-modules jdk.jfr}), or the
     *                                       JVM cannot start a recording
     */
    public static JfrContention start(StatRegistry registry, Duration threshold) {
        if (registry == null) {
            throw new IllegalArgumentException("registry must not be null");
        }
        if (threshold == null) {
            throw new IllegalArgumentException("threshold must not be null (Duration.ZERO records every event)");
        }
        if (threshold.isNegative()) {
            throw new IllegalArgumentException("threshold must not be negative, was " + threshold);
        }
        checkJfrModule();
        Claim claim = new Claim(registry);
        Running.claim(claim, claim, "a JfrContention bridge into this registry (" + String.join(", ", STATS) + ")");
        boolean started = false;
        try {
            JfrContention bridge = new JfrContention(JfrContentionStream.start(registry, threshold), claim);
            started = true;
            return bridge;
        } catch (IllegalStateException | SecurityException e) {
            throw new UnsupportedOperationException("JfrContention: JDK Flight Recorder cannot start a recording"
                    + " in this JVM: " + e, e);
        } finally {
            if (!started) {
                Running.release(claim, claim);
            }
        }
    }

    private static void checkJfrModule() {
        Optional<Module> jfr = ModuleLayer.boot().findModule("jdk.jfr");
        if (jfr.isEmpty()) {
            throw new UnsupportedOperationException("JfrContention needs the jdk.jfr module, which this JVM did not"
                    + " load: the runtime image lacks it (add jdk.jfr to jlink's --add-modules) or a module-path"
                    + " launch did not resolve it (dev.statvar.probes requires it only statically: add"
                    + " --add-modules jdk.jfr)");
        }
        Module self = JfrContention.class.getModule();
        if (!self.canRead(jfr.get())) {
            throw new UnsupportedOperationException("JfrContention: module " + self.getName()
                    + " cannot read jdk.jfr; add --add-modules jdk.jfr");
        }
    }

    /** The stream's thread once it has delivered a flush (tests), else null. */
    Thread streamThread() {
        return stream.streamThread();
    }

    /**
     * Closes the stream and waits for its thread to end, then releases the registry: a bridge
     * started on it afterwards records on into the same families. Idempotent, from any thread.
     */
    @Override
    public void close() {
        stream.close();
        Running.release(claim, claim);
    }
}
