package dev.statvar.internal;

import dev.statvar.Labels;
import dev.statvar.StatKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A stat's collector storage: only histograms carry bucket counts (a counter or gauge costs none). */
class StatTest {

    private static Stat counter(int i) {
        return new Stat("c" + i, Labels.EMPTY, "", StatKind.COUNTER, i, Layout.DATA_START + i, Layout.COUNTER_CELLS, 0);
    }

    @Test
    void onlyHistogramsCarryBucketStorage() {
        Stat c = counter(0);
        assertNull(c.liveBuckets);
        assertNull(c.prevBuckets);
        assertNull(c.retiredBuckets);
        Stat g = new Stat("g", Labels.EMPTY, "", StatKind.GAUGE, 1, Layout.DATA_START, Layout.GAUGE_CELLS, 0);
        assertNull(g.liveBuckets);
        assertNull(g.prevBuckets);
        assertNull(g.retiredBuckets);
        Stat h = new Stat("h", Labels.EMPTY, "", StatKind.HISTOGRAM, 2, 0, 0, 0, 0, 6);
        assertEquals(true, h.liveBuckets.isEmpty());
        assertEquals(true, h.prevBuckets.isEmpty());
        assertEquals(true, h.retiredBuckets.isEmpty());
        assertEquals(0, h.hindex);
        assertEquals(-1, c.hindex);
    }
}
