package dev.statvar;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Documented behaviour: cumulative totals wrap modulo 2^64; interval values stay exact while they fit in a long. */
class OverflowTest {

    @Test
    void counterIntervalsStayExactAcrossWrapOfTheTotal() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        c.add(Long.MAX_VALUE);
        CounterValue v = r.collect().counterValue("c");
        assertEquals(Long.MAX_VALUE, v.value());
        assertEquals(Long.MAX_VALUE, v.total());
        c.add(10);
        v = r.collect().counterValue("c");
        assertEquals(10, v.value()); // exact, although the cumulative cell wrapped
        assertEquals(Long.MIN_VALUE + 9, v.total()); // the total wraps, as documented
        c.localView().add(7);
        assertEquals(7, r.collect().counter("c"));
    }

    @Test
    void counterIntervalOverflowingALongWraps() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        c.add(Long.MAX_VALUE);
        c.add(2);
        assertEquals(Long.MIN_VALUE + 1, r.collect().counter("c")); // documented: modulo 2^64
    }

    @Test
    void gaugeSumIsExactModulo2To64() {
        StatRegistry r = StatRegistry.create();
        Gauge g = r.gauge("g");
        g.report(Long.MAX_VALUE);
        g.report(Long.MAX_VALUE);
        GaugeValue v = r.collect().gauge("g");
        assertEquals(2, v.count());
        assertEquals(-2, v.sum()); // 2 * MAX wraps to -2
        g.report(-5);
        v = r.collect().gauge("g");
        assertEquals(-5, v.sum());
        assertEquals(-5, v.min());
    }
}
