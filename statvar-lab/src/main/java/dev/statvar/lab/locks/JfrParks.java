package dev.statvar.lab.locks;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingStream;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What JFR reports of the workload's lock waits: a {@link RecordingStream} of {@code jdk.ThreadPark}
 * events at a threshold (JFR's default: 20 ms), each park on a {@code java.util.concurrent.locks}
 * class attributed to the workload section whose method is on its stack. {@link #stop()} waits for
 * a flush that began after the workload ended (the flush callback runs on the stream's thread after
 * the events before it were dispatched), then closes the stream. The counts are written by the
 * stream's thread and read by the caller under this object's monitor: close does not promise that
 * the stream's actions have ended.
 */
final class JfrParks implements AutoCloseable {
    private final RecordingStream stream = new RecordingStream();
    private final long[] events = new long[Section.values().length];
    private final long[] waitNs = new long[Section.values().length];
    private final long[] maxNs = new long[Section.values().length];
    /** Lock parks the workload's stacks did not name (another thread of this JVM). */
    private long unattributed;
    private volatile long flushAfter = Long.MAX_VALUE; // set by stop(), read by the flush callback
    private final CountDownLatch flushed = new CountDownLatch(1);

    JfrParks(Duration threshold) {
        stream.enable("jdk.ThreadPark").withThreshold(threshold).withStackTrace();
        stream.onEvent("jdk.ThreadPark", this::onPark);
        stream.onFlush(() -> {
            if (System.nanoTime() - flushAfter > 0) {
                flushed.countDown();
            }
        });
        stream.startAsync();
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
        flushAfter = System.nanoTime();
        flushed.await(10, TimeUnit.SECONDS);
        stream.close();
    }

    @Override
    public void close() {
        stream.close();
    }
}
