package dev.statvar.internal;

import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gauge interval whose reports share a min/max slot with reports of an earlier interval is
 * delivered as inexact (and its min/max still cover every report it counts). Made deterministic
 * by a writer that reports with the epoch it read before the collector's switch, as a writer
 * preempted between reading the epoch and storing its reports would.
 */
class InexactIntervalTest {
    @Test
    void reportsInFlightAcrossASwitchMakeTheIntervalInexact() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        r.counter("c");
        Gauge g = r.gauge("g");
        Gauge view = g.localView();
        long[] cells = ((GaugeImpl) g).writers().localCells(1); // the view's cells
        view.report(100);
        GaugeValue v = r.collect().gauge("g");
        assertEquals(1, v.count());
        assertTrue(v.isMinMaxExact());
        long current = cells[Layout.EPOCH];
        cells[Layout.EPOCH] = current - 1; // the epoch this writer read before the switch
        view.report(5);
        view.report(6);
        cells[Layout.EPOCH] = current;
        v = r.collect().gauge("g");
        assertEquals(2, v.count());
        assertEquals(11, v.sum());
        assertFalse(v.isMinMaxExact(), "the slot also holds the previous interval's report: " + v);
        assertTrue(v.min() <= 5 && v.max() >= 6, "min/max cover the reports counted: " + v);
        view.report(1);
        v = r.collect().gauge("g");
        assertEquals(1, v.count());
        assertTrue(v.isMinMaxExact(), "the next interval is exact again: " + v);
        assertEquals(1, v.min());
        assertEquals(1, v.max());
    }
}
