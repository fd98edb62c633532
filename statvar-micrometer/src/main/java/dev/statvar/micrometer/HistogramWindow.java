package dev.statvar.micrometer;

import dev.statvar.HistogramValue;

/**
 * The intervals of one histogram closed within the last {@code expiry} of the Micrometer clock:
 * what a timer's or summary's {@code max()} and percentiles read, as Micrometer's own time-window
 * max and histograms do.
 *
 * <h2>Design</h2>
 * {@code bufferLength} slots of {@code expiry / bufferLength} ms each, a ring indexed by the slot
 * number of an interval's closing time; an interval is merged into its slot
 * ({@link HistogramValue#merge}), so memory is bounded whatever the number of collects. A read merges
 * the slots of the last {@code bufferLength} slot numbers. An interval counts from its close: a
 * value recorded long before a collect counts as of that collect (statvar knows intervals, not
 * record times).
 *
 * <h2>Threading</h2>
 * {@link #add} runs in a collect listener (collects are serialised); reads come from any thread.
 * Both synchronize on this window: taken only on reads and collects, never on an update.
 */
final class HistogramWindow {
    private final long slotMillis;
    private final HistogramValue[] slots;
    private final long[] slotNumbers;

    HistogramWindow(long expiryMillis, int bufferLength) {
        this.slotMillis = Math.max(1, expiryMillis / bufferLength);
        this.slots = new HistogramValue[bufferLength];
        this.slotNumbers = new long[bufferLength];
        java.util.Arrays.fill(slotNumbers, Long.MIN_VALUE);
    }

    synchronized void add(long nowMillis, HistogramValue interval) {
        if (interval.isEmpty()) {
            return;
        }
        long n = Math.floorDiv(nowMillis, slotMillis);
        int i = (int) Math.floorMod(n, (long) slots.length);
        if (slotNumbers[i] != n || slots[i] == null) {
            slots[i] = interval;
            slotNumbers[i] = n;
        } else {
            slots[i] = slots[i].merge(interval);
        }
    }

    /** The intervals of the window ending now merged, or null when none recorded anything. */
    synchronized HistogramValue merged(long nowMillis) {
        long n = Math.floorDiv(nowMillis, slotMillis);
        HistogramValue m = null;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null && slotNumbers[i] > n - slots.length && slotNumbers[i] <= n) {
                m = m == null ? slots[i] : m.merge(slots[i]);
            }
        }
        return m;
    }
}
