package dev.statvar.lab.locks;

import dev.statvar.lab.kit.JfrStream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;

import java.time.Duration;

/**
 * What JFR reports of the workload's lock waits: a {@link RecordingStream} of {@code jdk.ThreadPark}
 * events at a threshold (JFR's default: 20 ms), each park on a {@code java.util.concurrent.locks}
 * class attributed to the workload section whose method is on its stack. {@link #stop()} waits for
 * a flush that began after the workload ended ({@link JfrStream}), then closes the stream. The
 * counts are written by the stream's thread and read by the caller under this object's monitor.
 */
final class JfrParks implements AutoCloseable {
    private final JfrStream jfr = new JfrStream();
    private final long[] events = new long[Section.values().length];
    private final long[] waitNs = new long[Section.values().length];
    private final long[] maxNs = new long[Section.values().length];
    /** Lock parks the workload's stacks did not name (another thread of this JVM). */
    private long unattributed;

    JfrParks(Duration threshold) {
        jfr.stream().enable("jdk.ThreadPark").withThreshold(threshold).withStackTrace();
        jfr.stream().onEvent("jdk.ThreadPark", this::onPark);
        jfr.start();
    }

    /** Per section: {events, total wait ns, longest ns}; and, last, {unattributed lock parks}. */
    synchronized long[][] counts() {
        long[][] c = new long[events.length + 1][];
        for (int i = 0; i < events.length; i++) {
            c[i] = new long[] {events[i], waitNs[i], maxNs[i]};
        }
        c[events.length] = new long[] {unattributed};
        return c;
    }

    private synchronized void onPark(RecordedEvent e) {
        var parked = e.getClass("parkedClass");
        if (parked == null || !parked.getName().startsWith("java.util.concurrent.locks.")) {
            return; // a sleep or a park without a lock: not a lock wait
        }
        Section s = null;
        if (e.getStackTrace() != null) {
            for (RecordedFrame f : e.getStackTrace().getFrames()) {
                if (f.getMethod().getType().getName().equals(LockWorkload.class.getName())
                        && (s = LockWorkload.sectionOf(f.getMethod().getName())) != null) {
                    break;
                }
            }
        }
        if (s == null) {
            unattributed++;
            return;
        }
        long d = e.getDuration().toNanos();
        events[s.ordinal()]++;
        waitNs[s.ordinal()] += d;
        maxNs[s.ordinal()] = Math.max(maxNs[s.ordinal()], d);
    }

    /** Waits (at most 10 s) for a flush that started after now, then closes the stream. */
    void stop() throws InterruptedException {
        jfr.stopAfterFlush();
    }

    @Override
    public void close() {
        jfr.close();
    }
}
