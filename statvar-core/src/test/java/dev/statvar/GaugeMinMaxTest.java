package dev.statvar;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class GaugeMinMaxTest {

    @Test
    void minAndMaxArePerIntervalAndExactWithoutRaces() {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Gauge lg = g.localView();
        g.report(5);
        lg.report(-2);
        g.report(9);
        GaugeValue v = r.collect().gauge("g");
        assertEquals(3, v.count());
        assertEquals(12, v.sum());
        assertEquals(-2, v.min());
        assertEquals(9, v.max());
        assertEquals(4.0, v.mean());

        lg.report(100);
        v = r.collect().gauge("g");
        assertEquals(1, v.count());
        assertEquals(100, v.min());
        assertEquals(100, v.max());

        // Both slots have been used; the third interval reuses the first slot.
        g.report(50);
        g.report(60);
        v = r.collect().gauge("g");
        assertEquals(50, v.min());
        assertEquals(60, v.max());
        assertEquals(6, v.totalCount());
        assertEquals(5 - 2 + 9 + 100 + 50 + 60, v.totalSum());

        v = r.collect().gauge("g");
        assertEquals(0, v.count());
        assertEquals(0, v.min());
        assertEquals(0, v.max());
    }

    @Test
    void extremeValuesAreKept() {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        g.report(Long.MIN_VALUE);
        g.report(Long.MAX_VALUE);
        GaugeValue v = r.collect().gauge("g");
        assertEquals(Long.MIN_VALUE, v.min());
        assertEquals(Long.MAX_VALUE, v.max());
        assertEquals(-1, v.sum()); // MIN + MAX
        g.report(0);
        v = r.collect().gauge("g");
        assertEquals(0, v.min());
        assertEquals(0, v.max());
        assertEquals(1, v.count());
    }

    @Test
    void threadsContributeToOneInterval() throws Exception {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        Thread a = new Thread(() -> g.report(-10));
        Thread b = new Thread(() -> g.report(10));
        a.start();
        b.start();
        a.join();
        b.join();
        g.report(3);
        GaugeValue v = r.collect().gauge("g");
        assertEquals(3, v.count());
        assertEquals(-10, v.min());
        assertEquals(10, v.max());
    }
}
