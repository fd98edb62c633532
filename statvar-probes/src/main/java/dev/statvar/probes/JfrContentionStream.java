package dev.statvar.probes;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * {@link JfrContention}'s use of {@code jdk.jfr} (kept apart so that {@code JfrContention} loads
 * without it).
 *
 * <p>Threading: {@link #start} and {@link #close} on any thread; the handlers ({@link #record})
 * run on the stream's one thread only, which alone touches {@link Route#cache}.
 */
final class JfrContentionStream {
    private static final VarHandle STREAM_THREAD;
    private static final VarHandle CLOSED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STREAM_THREAD = l.findVarHandle(JfrContentionStream.class, "streamThread", Thread.class);
            CLOSED = l.findVarHandle(JfrContentionStream.class, "closed", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * One event type's family and the stream thread's cache of its series by class name, bounded:
     * past {@link #CACHE_LIMIT} names a lookup goes to {@link BoundedLabels} (and its lock) each time.
     */
    private static final class Route {
        static final int CACHE_LIMIT = 4_096;

        final StatFamily<Histogram> family;
        final String classField;
        final Map<String, Histogram> cache = new HashMap<>(); // the stream thread's only

        Route(StatFamily<Histogram> family, String classField) {
            this.family = family;
            this.classField = classField;
        }

        Histogram series(String className) {
            Histogram h = cache.get(className);
            if (h == null) {
                h = BoundedLabels.seriesOrOther(family, className);
                if (cache.size() < CACHE_LIMIT) {
                    cache.put(className, h);
                }
            }
            return h;
        }
    }

    private final RecordingStream rs;
    /** The bridge's own threshold: JFR delivers events of the lowest threshold of all recordings. */
    private final Duration threshold;
    @SuppressWarnings("unused") // through STREAM_THREAD
    private Thread streamThread;
    @SuppressWarnings("unused") // through CLOSED
    private boolean closed;

    private JfrContentionStream(RecordingStream rs, Duration threshold) {
        this.rs = rs;
        this.threshold = threshold;
    }

    static JfrContentionStream start(StatRegistry registry, Duration threshold) {
        Route enter = new Route(family(registry, JfrContention.MONITOR_ENTER,
                "time to enter a contended monitor (JFR jdk.JavaMonitorEnter), by the monitor's class, ns"), "monitorClass");
        Route wait = new Route(family(registry, JfrContention.MONITOR_WAIT,
                "time in Object.wait (JFR jdk.JavaMonitorWait), by the monitor's class, ns"), "monitorClass");
        Route park = new Route(family(registry, JfrContention.THREAD_PARK,
                "time parked (JFR jdk.ThreadPark), by the class of the park's blocker, ns"), "parkedClass");
        RecordingStream rs = new RecordingStream();
        JfrContentionStream s = new JfrContentionStream(rs, threshold);
        try {
            rs.enable("jdk.JavaMonitorEnter").withThreshold(threshold).withoutStackTrace();
            rs.enable("jdk.JavaMonitorWait").withThreshold(threshold).withoutStackTrace();
            rs.enable("jdk.ThreadPark").withThreshold(threshold).withoutStackTrace();
            rs.onEvent("jdk.JavaMonitorEnter", e -> s.record(enter, e));
            rs.onEvent("jdk.JavaMonitorWait", e -> s.record(wait, e));
            rs.onEvent("jdk.ThreadPark", e -> s.record(park, e));
            rs.onFlush(s::noteStreamThread);
            rs.startAsync(); // the recording has started when this returns
        } catch (RuntimeException | Error e) {
            rs.close();
            throw e;
        }
        return s;
    }

    private static StatFamily<Histogram> family(StatRegistry registry, String name, String help) {
        return registry.histogramFamily(name, help, HistogramPrecision.DEFAULT, JfrContention.LABEL);
    }

    private void record(Route route, RecordedEvent e) {
        noteStreamThread();
        Duration d = e.getDuration();
        if (d.compareTo(threshold) < 0) {
            return; // below our threshold, delivered because another recording asked for a lower one
        }
        RecordedClass c = e.getClass(route.classField);
        String name = c == null ? JfrContention.NO_CLASS : c.getName();
        route.series(name).record(Math.max(0, d.toNanos()));
    }

    private void noteStreamThread() {
        if (STREAM_THREAD.getOpaque(this) == null) { // the stream thread's own earlier write
            STREAM_THREAD.setRelease(this, Thread.currentThread()); // pairs with getAcquire in streamThread()
        }
    }

    Thread streamThread() {
        return (Thread) STREAM_THREAD.getAcquire(this); // pairs with setRelease in noteStreamThread
    }

    /** Closes the stream, waits until it has stopped dispatching and its thread has ended. */
    void close() {
        if (!CLOSED.compareAndSet(this, false, true)) { // once; a second close only returns
            return;
        }
        rs.close();
        if (streamThread() == Thread.currentThread()) {
            return; // closed from a handler: the stream ends when the handler returns
        }
        Uninterruptibly.await(rs::awaitTermination); // returns when the stream thread has left its dispatch loop
        Thread t = streamThread();
        if (t != null) {
            Uninterruptibly.join(t); // its last steps after the dispatch loop
        }
    }
}
