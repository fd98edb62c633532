package dev.statvar.internal;

import dev.statvar.StatKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** No false sharing between threads' data; one thread's stats lie together. */
class LayoutTest {

    @Test
    void paddingIsTwoCacheLinesAtBothEnds() {
        assertEquals(64, Layout.CACHE_LINE_BYTES);
        assertTrue(Layout.PAD * Long.BYTES >= 2 * Layout.CACHE_LINE_BYTES);
        // Leading padding before the header and the first stat cell.
        assertTrue(Layout.OWNER_TID * Long.BYTES >= Layout.FALSE_SHARING_BYTES);
        // Every stat's limit leaves PAD cells after its last cell.
        Stat s = Stat.cells("c", dev.statvar.Labels.EMPTY, "", StatKind.COUNTER, 0, Layout.DATA_START, Layout.COUNTER_CELLS, 0, null);
        assertEquals(Layout.DATA_START + 1 + Layout.PAD, s.limit);
    }

    /**
     * The cell counts StatRegistry's "Memory" section and HistogramPrecision state in bytes (8 per
     * cell; the JVM adds a 16-byte array header with compressed class pointers, its default).
     */
    @Test
    void theDocumentedSizesAreTheLayoutsCellCounts() {
        int arrayOverhead = Layout.DATA_START + Layout.PAD; // per counter or gauge array: header and padding
        assertEquals(272, arrayOverhead * Long.BYTES, "288 bytes with the array header");
        assertEquals(8, Layout.COUNTER_CELLS * Long.BYTES, "bytes per (counter, thread)");
        assertEquals(72, Layout.GAUGE_CELLS * Long.BYTES, "bytes per (hot gauge, thread)");
        int histogramOverhead = Layout.H_BUCKETS + Layout.PAD; // header, padding, sum and min/max
        assertEquals(368, histogramOverhead * Long.BYTES, "384 bytes with the array header");
        assertEquals(344, (arrayOverhead + Layout.GAUGE_CELLS) * Long.BYTES, "a gauge's local view: 360 with the array header");
        assertEquals(16, Stripes.stripeCells(Layout.COUNTER_CELLS) * Long.BYTES, "bytes per (counter, stripe)");
        assertEquals(80, Stripes.stripeCells(Layout.GAUGE_CELLS) * Long.BYTES, "bytes per (gauge, stripe)");
        assertEquals(512, (1 << Layout.CARD_SHIFT) * Long.BYTES, "a stripe's 8-byte card per 512 bytes of cells");
    }

    @Test
    void tenCountersTakeAdjacentCellsOfTheArrayLayout() throws Exception {
        Engine e = new Engine(1000);
        int[] offsets = new int[10];
        for (int i = 0; i < 10; i++) {
            e.counter("c" + i, dev.statvar.Labels.EMPTY, "");
            offsets[i] = EngineProbe.stat(e, i).offset;
        }
        int first = offsets[0];
        int last = offsets[9];
        assertEquals(9, last - first, "counters are adjacent cells");
        int lines = (last * Long.BYTES) / Layout.CACHE_LINE_BYTES - (first * Long.BYTES) / Layout.CACHE_LINE_BYTES + 1;
        assertTrue(lines <= 2, "ten counters span " + lines + " cache lines");
        // Gauges have arrays of their own: the first gauge is at DATA_START of a thread's gauge array,
        // and takes GAUGE_CELLS adjacent cells.
        assertEquals(Layout.DATA_START, ((GaugeImpl) e.gauge("g", dev.statvar.Labels.EMPTY, "")).offset());
        assertEquals(Layout.DATA_START + Layout.GAUGE_CELLS, ((GaugeImpl) e.gauge("g2", dev.statvar.Labels.EMPTY, "")).offset());
    }

    @Test
    void eachThreadAndEachLocalViewGetsItsOwnPaddedArray() throws Exception {
        Engine e = new Engine(100);
        GaugeImpl h = (GaugeImpl) e.gauge("g", dev.statvar.Labels.EMPTY, "");
        long[][] views = new long[3][];
        Thread a = new Thread(() -> {
            views[0] = h.writers().localCells(0);
            views[2] = h.writers().localCells(0);
        });
        Thread b = new Thread(() -> views[1] = h.writers().localCells(0));
        a.start();
        b.start();
        a.join();
        b.join();
        assertTrue(views[0] != views[1]);
        assertSame(views[0], views[2], "one view array per (thread, stat), reused");
        assertEquals(Layout.DATA_START + Layout.GAUGE_CELLS + Layout.PAD, views[0].length, "a one-gauge padded array");
        assertEquals(a.getId(), views[0][Layout.OWNER_TID]);
        assertEquals(b.getId(), views[1][Layout.OWNER_TID]);
        // The stat sits at the constant index DATA_START with PAD cells of padding after it.
        assertEquals(Layout.DATA_START + Layout.GAUGE_CELLS + Layout.PAD, views[0].length);
        assertSame(h, e.gauge("g", dev.statvar.Labels.EMPTY, ""));
    }
}
