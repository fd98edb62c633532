package dev.statvar.otel;

import dev.statvar.Snapshot;
import io.opentelemetry.sdk.metrics.data.MetricData;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/*
 * Design
 * ------
 * The snapshots a producer took (collecting) or received (fed), numbered in order, kept until every
 * reader's cursor has passed them, at most MAX_PENDING. Each reader has a Cursor: the number of the
 * first snapshot it has not converted yet and a SnapshotConverter of its own (the totals of its own
 * previous conversion). So a reader's window is "every snapshot since that reader's previous
 * collection", whatever the other readers collected in between; the converter's min/max rule drops
 * min/max from a window whose snapshots the log had to drop (their counts no longer add up).
 *
 * Not thread-safe: StatvarMetricProducer holds its lock around every call.
 */

/** Snapshots numbered in order, with a cursor per reader into them. */
final class SnapshotLog {
    /** One reader's position in the log, and its own conversion state. */
    static final class Cursor {
        final SnapshotConverter converter;
        /** Number of the first snapshot this reader has not converted. */
        long next;
        /** What this reader's previous collection returned. */
        List<MetricData> lastResult = List.of();

        private Cursor(SnapshotConverter converter, long next) {
            this.converter = converter;
            this.next = next;
        }
    }

    private final int capacity;
    private final ArrayDeque<Snapshot> snapshots = new ArrayDeque<>();
    /** Number of snapshots.peekFirst(). */
    private long first;
    private final List<Cursor> cursors = new ArrayList<>();

    SnapshotLog(int capacity) {
        this.capacity = capacity;
    }

    /** A cursor that sees the snapshots appended from now on; it holds them until it has taken them or is removed. */
    Cursor newCursor(SnapshotConverter converter) {
        Cursor c = new Cursor(converter, first + snapshots.size());
        cursors.add(c);
        return c;
    }

    /** Stops {@code c} from holding snapshots (its reader shut down). */
    void remove(Cursor c) {
        cursors.remove(c);
        trim();
    }

    int cursorCount() {
        return cursors.size();
    }

    /** Appends {@code added}, oldest first; beyond the capacity the oldest kept snapshot is dropped. */
    void append(List<Snapshot> added) {
        for (Snapshot s : added) {
            if (snapshots.size() == capacity) {
                snapshots.removeFirst();
                first++;
            }
            snapshots.addLast(s);
        }
    }

    /** The snapshots {@code c} has not taken yet that are still kept, oldest first; {@code c} then has taken them. */
    List<Snapshot> take(Cursor c) {
        List<Snapshot> window = new ArrayList<>();
        long n = first;
        for (Snapshot s : snapshots) {
            if (n++ >= c.next) {
                window.add(s);
            }
        }
        c.next = first + snapshots.size();
        trim();
        return window;
    }

    /** Drops the snapshots every cursor has taken. */
    private void trim() {
        long min = first + snapshots.size();
        for (Cursor c : cursors) {
            min = Math.min(min, c.next);
        }
        while (first < min) {
            snapshots.removeFirst();
            first++;
        }
    }

    /** Snapshots kept (for tests). */
    int size() {
        return snapshots.size();
    }
}
