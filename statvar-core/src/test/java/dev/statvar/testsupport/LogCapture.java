package dev.statvar.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what statvar logs on its {@code System.Logger} "dev.statvar" (java.util.logging, the
 * JDK's default backend) until closed, instead of printing it. Thread-safe: records may come
 * from any thread (a collector's); read {@link #records()} after the logging thread was joined.
 */
public final class LogCapture implements AutoCloseable {
    private final Logger jul = Logger.getLogger("dev.statvar");
    private final boolean parents = jul.getUseParentHandlers();
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    /** Starts capturing. */
    public LogCapture() {
        jul.addHandler(handler);
        jul.setUseParentHandlers(false);
    }

    /** The records logged so far, in order. */
    public List<LogRecord> records() {
        return records;
    }

    /** Stops capturing and restores the logger's handling. */
    @Override
    public void close() {
        jul.removeHandler(handler);
        jul.setUseParentHandlers(parents);
    }
}
