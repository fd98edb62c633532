package dev.statvar.lab.throughput;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * This JVM's JIT compilations and GC pauses, from JFR as they happen ({@link RecordingStream}):
 * {@code jdk.Compilation} with no duration threshold (every compilation; {@code isOsr} marks the
 * on-stack-replacement ones) and {@code jdk.GarbageCollection} ({@code sumOfPauses}). Each event
 * is kept with its time, so that a {@link Timeline} can put it into the second it happened in,
 * whenever JFR delivers it (JFR hands events over in chunks about once a second).
 *
 * <p>Threads: JFR's stream thread adds events ({@link ConcurrentLinkedQueue#add}, which
 * happens-before the reader's iteration that sees the element) and the time of its last flush
 * (volatile write); any thread reads them ({@link #events()}, {@link #awaitFlushAfter}).
 */
public final class JitGcEvents implements AutoCloseable {
    /**
     * What happened at {@code time}: a compilation (OSR or not, its tier {@code level} 1-4 and
     * {@code method} as {@code Class::name}) or a GC ({@code pauseNanos}).
     */
    public record Event(Instant time, boolean compilation, boolean osr, int level, String method, long pauseNanos) {
    }

    private final RecordingStream stream;
    private final ConcurrentLinkedQueue<Event> events = new ConcurrentLinkedQueue<>();
    /** When JFR's stream last flushed: volatile write by the stream thread, volatile read in awaitFlushAfter. */
    private volatile Instant lastFlush = Instant.MIN;
    private final String problem;

    private JitGcEvents(RecordingStream stream, String problem) {
        this.stream = stream;
        this.problem = problem;
    }

    /** Starts the stream; without JFR (a JDK built without it) the events stay empty and {@link #problem()} says why. */
    public static JitGcEvents start() {
        RecordingStream rs;
        try {
            rs = new RecordingStream();
        } catch (RuntimeException | LinkageError e) {
            return new JitGcEvents(null, "JFR not available: " + e);
        }
        JitGcEvents j = new JitGcEvents(rs, null);
        rs.enable("jdk.Compilation").withThreshold(Duration.ZERO);
        rs.enable("jdk.GarbageCollection");
        rs.onEvent("jdk.Compilation", e -> j.events.add(new Event(e.getEndTime(), true, e.getBoolean("isOsr"),
                e.getInt("compileLevel"), method(e), 0)));
        rs.onEvent("jdk.GarbageCollection", e -> j.events.add(new Event(e.getStartTime(), false, false, 0, null, pause(e))));
        rs.onFlush(() -> j.lastFlush = Instant.now());
        rs.startAsync();
        return j;
    }

    private static String method(RecordedEvent e) {
        jdk.jfr.consumer.RecordedMethod m = e.getValue("method");
        return m == null ? "?" : m.getType().getName() + "::" + m.getName();
    }

    private static long pause(RecordedEvent e) {
        return e.getDuration("sumOfPauses").toNanos();
    }

    /** Why there are no events (JFR missing), or null. */
    public String problem() {
        return problem;
    }

    /**
     * Waits until JFR has flushed after {@code time} (so every event up to then is delivered),
     * at most {@code max}; returns whether it did.
     */
    public boolean awaitFlushAfter(Instant time, Duration max) {
        if (stream == null) {
            return true;
        }
        long deadline = System.nanoTime() + max.toNanos();
        while (!lastFlush.isAfter(time)) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        return true;
    }

    /** The events delivered so far. */
    public List<Event> events() {
        return new ArrayList<>(events);
    }

    @Override
    public void close() {
        if (stream != null) {
            stream.close();
        }
    }
}
