package dev.statvar;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RegistryApiTest {

    @Test
    void sameNameAndKindReturnsSameInstance() {
        StatRegistry r = StatRegistry.create();
        assertSame(r.counter("requests"), r.counter("requests", "other help"));
        assertSame(r.gauge("queue", "q"), r.gauge("queue"));
        assertEquals(2, r.size());
    }

    @Test
    void sameNameOtherKindNamesBothKinds() {
        StatRegistry r = StatRegistry.create();
        r.counter("x");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.gauge("x"));
        assertTrue(e.getMessage().contains("counter") && e.getMessage().contains("gauge"), e.getMessage());
        r.gauge("y");
        e = assertThrows(IllegalArgumentException.class, () -> r.counter("y"));
        assertTrue(e.getMessage().contains("counter") && e.getMessage().contains("gauge"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "1abc", "a-b", "a b", "a.b", "é", "x\n", "rate%"})
    void badNamesAreRejectedNamingTheValue(String name) {
        StatRegistry r = StatRegistry.create();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.counter(name));
        assertTrue(name.isEmpty() ? e.getMessage().contains("empty") : e.getMessage().contains("'" + name + "'"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.gauge(name, "help"));
        assertEquals(0, r.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "_", ":", "http_requests_total", "ns:sub:Name_9", "A1"})
    void goodNamesAreAccepted(String name) {
        assertEquals(name, StatRegistry.create().counter(name).name());
    }

    @Test
    void nullNameAndHelpAreRejected() {
        StatRegistry r = StatRegistry.create();
        assertThrows(IllegalArgumentException.class, () -> r.counter(null));
        assertThrows(IllegalArgumentException.class, () -> r.gauge(null, ""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.counter("ok", null));
        assertTrue(e.getMessage().contains("ok"), e.getMessage());
    }

    @Test
    void negativeAddIsRejectedOnEveryPath() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.add(-1));
        assertTrue(e.getMessage().contains("-1") && e.getMessage().contains("'c'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.localView().add(Long.MIN_VALUE));
        c.add(0);
        assertEquals(0, r.collect().counter("c"));
    }

    @Test
    void registryCapIsEnforcedWithAClearError() {
        StatRegistry r = StatRegistry.builder().maxStats(3).build();
        assertEquals(3, r.maxStats());
        r.counter("a");
        r.gauge("b");
        r.counter("c");
        r.counter("a"); // existing: fine
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r.gauge("d"));
        assertTrue(e.getMessage().contains("'d'") && e.getMessage().contains("3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().maxStats(0));
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().maxStats(10_000_001));
        assertEquals(StatRegistry.DEFAULT_MAX_STATS, StatRegistry.create().maxStats());
        assertTrue(StatRegistry.DEFAULT_MAX_STATS >= 100_000);
    }

    @Test
    void defaultCapHoldsOneHundredThousandStats() {
        StatRegistry r = StatRegistry.create();
        for (int i = 0; i < StatRegistry.DEFAULT_MAX_STATS; i++) {
            r.counter("c" + i);
        }
        assertThrows(IllegalArgumentException.class, () -> r.counter("one_more"));
        r.counter("c99999").add(5);
        assertEquals(5, r.collect().counter("c99999"));
    }

    @Test
    void snapshotLookupsFailClearly() {
        StatRegistry r = StatRegistry.create();
        r.counter("c");
        r.gauge("g");
        Snapshot s = r.collect();
        assertThrows(IllegalArgumentException.class, () -> s.counter("nope"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.gauge("c"));
        assertTrue(e.getMessage().contains("counter"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.counter("g"));
    }

    @Test
    void emptyGaugeIntervalIsDocumentedShape() {
        StatRegistry r = StatRegistry.create();
        r.gauge("g");
        GaugeValue g = r.collect().gauge("g");
        assertEquals(0, g.count());
        assertEquals(0, g.sum());
        assertEquals(0, g.min());
        assertEquals(0, g.max());
        assertTrue(Double.isNaN(g.mean()));
        assertTrue(g.isEmpty());
    }

    @Test
    void intervalsChainAndIterateInRegistrationOrder() {
        StatRegistry r = StatRegistry.create();
        r.counter("b").add(2);
        r.gauge("a").report(7);
        r.counter("c");
        Snapshot s1 = r.collect();
        Snapshot s2 = r.collect();
        assertEquals(s1.end(), s2.start());
        assertFalse(s1.end().isBefore(s1.start()));
        List<String> names = new ArrayList<>();
        for (StatValue v : s1) {
            names.add(v.name());
        }
        assertEquals(List.of("b", "a", "c"), names);
        assertEquals(2, s1.counter("b"));
        GaugeValue a = s1.gauge("a");
        assertEquals(1, a.count());
        assertEquals(7, a.min());
        assertEquals(7.0, a.mean());
        assertEquals(0, s2.counter("b"));
        assertEquals(2, s2.counterValue("b").total());
        assertTrue(s1.toString().contains("b 2"), s1.toString());
    }

    @Test
    void localViewFromAnotherThreadStillCounts() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        Gauge g = r.gauge("g");
        Counter lc = c.localView();
        Gauge lg = g.localView();
        Thread t = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                lc.add();
                lg.report(i);
            }
        });
        t.start();
        lc.add(5);
        lg.report(-3);
        t.join();
        Snapshot s = r.collect();
        assertEquals(1005, s.counter("c"));
        assertEquals(1001, s.gauge("g").count());
        assertEquals(-3, s.gauge("g").min());
        assertEquals(999, s.gauge("g").max());
    }
}
