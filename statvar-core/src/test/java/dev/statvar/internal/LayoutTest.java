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
        Stat s = new Stat("c", "", StatKind.COUNTER, 0, Layout.DATA_START, Layout.COUNTER_CELLS);
        assertEquals(Layout.DATA_START + 1 + Layout.PAD, s.limit);
    }

    @Test
    void tenStatsOfOneThreadShareFewCacheLines() throws Exception {
        Engine e = new Engine(1000);
        int[] offsets = new int[10];
        for (int i = 0; i < 10; i++) {
            int[] box = new int[1];
            String name = "c" + i;
            e.register(name, "", StatKind.COUNTER, (en, off, lim) -> {
                box[0] = off;
                return new CounterImpl(en, name, off, lim);
            });
            offsets[i] = box[0];
        }
        int first = offsets[0];
        int last = offsets[9];
        assertEquals(9, last - first, "counters are adjacent cells");
        int lines = (last * Long.BYTES) / Layout.CACHE_LINE_BYTES - (first * Long.BYTES) / Layout.CACHE_LINE_BYTES + 1;
        assertTrue(lines <= 2, "ten counters span " + lines + " cache lines");
        // A gauge takes GAUGE_CELLS adjacent cells: count and sum on the same line as their neighbours.
        int[] g = new int[1];
        e.register("g", "", StatKind.GAUGE, (en, off, lim) -> {
            g[0] = off;
            return new GaugeImpl(en, "g", off, lim);
        });
        assertEquals(last + 1, g[0]);
    }

    @Test
    void eachThreadGetsItsOwnPaddedArray() throws Exception {
        Engine e = new Engine(100);
        Object h = e.register("c", "", StatKind.COUNTER, (en, off, lim) -> new CounterImpl(en, "c", off, lim));
        Object[] blocks = new Object[2];
        Thread a = new Thread(() -> blocks[0] = e.localBlock(Layout.DATA_START + 1 + Layout.PAD));
        Thread b = new Thread(() -> blocks[1] = e.localBlock(Layout.DATA_START + 1 + Layout.PAD));
        a.start();
        b.start();
        a.join();
        b.join();
        long[] ca = ((Block) blocks[0]).cells;
        long[] cb = ((Block) blocks[1]).cells;
        assertTrue(ca != cb);
        assertEquals(a.getId(), ca[Layout.OWNER_TID]);
        assertEquals(b.getId(), cb[Layout.OWNER_TID]);
        assertTrue(ca.length >= Layout.MIN_LENGTH);
        assertSame(h, e.register("c", "", StatKind.COUNTER, (en, off, lim) -> null));
    }
}
