package dev.statvar.lab.kit;

import jdk.jfr.consumer.RecordingStream;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A JFR {@link RecordingStream} that a study can stop once everything recorded up to a moment has
 * been dispatched: {@link #stopAfterFlush()} waits for a flush that began after it was called (the
 * flush callback runs on the stream's thread after the events before it were handed to their
 * actions), then closes the stream. Events arrive up to a second late (JFR flushes about once a
 * second), so closing without this loses the last second's events. The actions run on the stream's
 * thread: what they write, a study reads under a lock of its own (close does not promise that the
 * actions have ended).
 */
public final class JfrStream implements AutoCloseable {
    private final RecordingStream stream = new RecordingStream();
    private volatile long flushAfter = Long.MAX_VALUE; // written by stopAfterFlush, read by the flush callback
    private final CountDownLatch flushed = new CountDownLatch(1);

    public JfrStream() {
        stream.onFlush(() -> {
            if (System.nanoTime() - flushAfter > 0) {
                flushed.countDown();
            }
        });
    }

    /** The stream, to enable events and register actions on before {@link #start()}. */
    public RecordingStream stream() {
        return stream;
    }

    /** Starts the stream on its own thread. */
    public void start() {
        stream.startAsync();
    }

    /** Waits (at most 10 s) for a flush that began after now, then closes the stream; whether that flush came. */
    public boolean stopAfterFlush() throws InterruptedException {
        flushAfter = System.nanoTime();
        boolean ok = flushed.await(10, TimeUnit.SECONDS);
        stream.close();
        return ok;
    }

    @Override
    public void close() {
        stream.close();
    }
}
