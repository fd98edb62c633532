package dev.statvar.internal;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A stat's registration record: where its cells are, and its value in an interval without updates. */
class StatTest {

    @Test
    void aCounterOrGaugeHasCellsAndNoHistogramIndex() {
        Stat c = Stat.cells("c", Labels.EMPTY, "help", StatKind.COUNTER, 3, Layout.DATA_START + 7, Layout.COUNTER_CELLS, 9, null);
        assertEquals(Layout.DATA_START + 7 + Layout.COUNTER_CELLS + Layout.PAD, c.limit);
        assertEquals(-1, c.hindex);
        assertEquals(9, c.vloc);
        assertEquals(3, c.index);
        Stat g = Stat.cells("g", Labels.of("a", "b"), "", StatKind.GAUGE, 4, Layout.DATA_START, Layout.GAUGE_CELLS, 0, null);
        assertEquals(Layout.DATA_START + Layout.GAUGE_CELLS + Layout.PAD, g.limit);
        assertEquals(-1, g.hindex);
    }

    @Test
    void aHistogramHasNoCellsInTheSharedArray() {
        Stat h = Stat.histogram("h", Labels.EMPTY, "", 5, 2, 6, 0, null);
        assertEquals(2, h.hindex);
        assertEquals(6, h.bits);
        assertEquals(-1, h.vloc);
        assertEquals(0, h.limit, "in no thread's counter or gauge array");
        assertEquals(StatKind.HISTOGRAM, h.kind);
    }

    @Test
    void emptyValuesAreZeroAndCarryNameHelpAndLabels() {
        Labels l = Labels.of("k", "v");
        CounterValue c = (CounterValue) Stat.cells("c", l, "hc", StatKind.COUNTER, 0, Layout.DATA_START, 1, 0, null).emptyValue();
        assertEquals(new CounterValue("c", "hc", l, 0, 0), c);
        GaugeValue g = (GaugeValue) Stat.cells("g", l, "hg", StatKind.GAUGE, 1, Layout.DATA_START, Layout.GAUGE_CELLS, 0, null)
                .emptyValue();
        assertEquals(new GaugeValue("g", "hg", l, 0, 0, 0, 0, 0, 0), g);
        assertTrue(g.isMinMaxExact());
        HistogramValue h = (HistogramValue) Stat.histogram("h", l, "hh", 2, 0, 5, 0, null).emptyValue();
        assertEquals("h", h.name());
        assertEquals("hh", h.help());
        assertEquals(l, h.labels());
        assertEquals(0, h.count());
        assertEquals(5, h.precision().subBucketBits());
        assertTrue(h.isEmpty());
        assertEquals(h, h.totals());
    }
}
