package dev.statvar.internal;

import static dev.statvar.internal.CellArrays.LONGS;
import static dev.statvar.internal.Layout.G_COUNT;
import static dev.statvar.internal.Layout.G_SUM;

/**
 * The gauge cell protocol, writer half beside reader half: count and sum of one writer's
 * reports, and the order that publishes them with their min/max ({@link MinMaxSlots}). The
 * writer is the array's single writer (its owner thread, or a stripe's lock holder); the reader
 * is the collector.
 *
 * <pre>
 * Protocol
 * --------
 * Count and sum. The writer stores the sum (opaque) and then the cumulative count (release);
 * the collector reads the count with acquire, so the sum and min/max of every report it counts
 * are visible to it. Nothing is ever reset: the collector reports differences.
 *
 * Min/max: MinMaxSlots, whose stores this count's release store publishes.
 * </pre>
 */
final class GaugeCells {
    private GaugeCells() {
    }

    // ------------------------------------------------------------------ writer half

    /** A gauge report into cells at {@code off} that the caller may write. */
    static void report(long[] c, int off, long v) {
        if (Broken.COUNT_FIRST) { // test-only switch: COUNT_FIRST publishes the count before the min/max and sum
            LONGS.setRelease(c, off + G_COUNT, c[off + G_COUNT] + 1);
        }
        MinMaxSlots.update(c, off, v, Broken.COUNT_FIRST ? 1 : 0); // test-only switch: this report is counted already
        // Single writer: plain read of our own cell, opaque store. Pairing GAUGE (the sum's half).
        LONGS.setOpaque(c, off + G_SUM, c[off + G_SUM] + v);
        // Release: the sum and min/max stores above are visible to whoever sees this count. Pairing GAUGE.
        if (!Broken.COUNT_FIRST) { // test-only switch: see above
            LONGS.setRelease(c, off + G_COUNT, c[off + G_COUNT] + 1);
        }
    }

    // ------------------------------------------------------------------ reader half (the collector)

    /** The writer's cumulative count; read first. Pairing GAUGE: the sum and min/max of every counted report are then visible. */
    static long readCount(long[] c, int off) {
        return (long) LONGS.getAcquire(c, off + G_COUNT);
    }

    /** The writer's cumulative sum, read after {@link #readCount}. Pairing GAUGE. */
    static long readSum(long[] c, int off) {
        return (long) LONGS.getOpaque(c, off + G_SUM);
    }
}
