package dev.statvar;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * StatRegistry's API: registration and its checks, the builder's limits at both ends, registered(), the
 * per-thread storage count, and HistogramPrecision's index checks.
 */
class StatRegistryTest {

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


    @Test
    void builderAcceptsEachLimitAtBothEndsAndNothingBeyond() {
        assertEquals(1, StatRegistry.builder().maxStats(1).build().maxStats());
        assertEquals(10_000_000, StatRegistry.builder().maxStats(10_000_000).build().maxStats());
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().maxStats(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StatRegistry.builder().maxStats(10_000_001));
        assertEquals("maxStats must be in 1..10000000, was 10000001", e.getMessage());

        assertEquals(1, StatRegistry.builder().maxSeriesPerFamily(1).build().maxSeriesPerFamily());
        assertEquals(1_000_000, StatRegistry.builder().maxSeriesPerFamily(1_000_000).build().maxSeriesPerFamily());
        assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().maxSeriesPerFamily(0));
        e = assertThrows(IllegalArgumentException.class, () -> StatRegistry.builder().maxSeriesPerFamily(1_000_001));
        assertEquals("maxSeriesPerFamily must be in 1..1000000, was 1000001", e.getMessage());

        assertEquals(StatRegistry.DEFAULT_MAX_SERIES_PER_FAMILY, StatRegistry.create().maxSeriesPerFamily());
        assertEquals(StatRegistry.DEFAULT_MAX_STATS, StatRegistry.create().maxStats());
    }

    @Test
    void theSeriesCapOfTheBuilderIsTheFamiliesCap() {
        StatRegistry r = StatRegistry.builder().maxSeriesPerFamily(2).build();
        StatFamily<Counter> f = r.counterFamily("f", "", "k");
        assertEquals(2, f.maxSeries());
        f.labels("a");
        f.labels("b");
        f.labels("c");
        assertEquals(2, f.size());
        assertEquals(1, f.overflowCount(), "the third value is folded into the overflow series");
    }

    @Test
    void registeredListsEveryStatEmptyWithoutClosingTheInterval() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c", "a counter");
        r.gauge("g");
        r.histogram("h", "", HistogramPrecision.ofSubBucketBits(4));
        r.counterFamily("f", "", "k").labels("v");
        c.add(5);
        Snapshot reg = r.registered();
        assertEquals(reg.start(), reg.end());
        assertEquals(4, reg.values().size());
        assertEquals(new CounterValue("c", "a counter", 0, 0), reg.counterValue("c"));
        assertTrue(reg.gauge("g").isEmpty());
        HistogramValue h = reg.histogram("h");
        assertTrue(h.isEmpty());
        assertEquals(HistogramPrecision.ofSubBucketBits(4), h.precision());
        assertTrue(h.totals().isEmpty());
        assertEquals(0, reg.counter("f", Labels.of("k", "v")));
        assertEquals(5, r.collect().counter("c"), "registered() closed no interval");
    }

    @Test
    void theChangeCountMovesWithEveryRegistrationAndRemovalAndSnapshotsCarryIt() {
        StatRegistry r = StatRegistry.create();
        long start = r.changeCount();
        r.counter("c");
        r.counter("c"); // the existing one: no change
        r.gauge("g");
        r.histogram("h");
        r.counterFamily("f", "", "k").labels("a");
        assertEquals(start + 4, r.changeCount(), "three stats and a family's series");
        Snapshot s = r.collect();
        assertEquals(r.changeCount(), s.changeCount(), "a snapshot read after them all holds them all");
        assertTrue(r.remove("g"));
        assertEquals(start + 5, r.changeCount(), "a removal");
        assertEquals(s.changeCount() + 1, r.registered().changeCount());
        assertEquals(r.changeCount(), r.collect().changeCount());
    }

    @Test
    void aThreadThatUpdatedHoldsStorageUntilItEnds() {
        StatRegistry r = StatRegistry.create();
        assertEquals(0, r.threadBlocks());
        r.counter("c").add();
        assertTrue(r.threadBlocks() >= 1, "this thread's cells");
        assertEquals(1, r.collect().counter("c"));
        assertTrue(r.threadBlocks() >= 1, "a live thread keeps its cells after a collect");
    }

    @Test
    void bucketIndexChecksNameTheValidRange() {
        HistogramPrecision p = HistogramPrecision.DEFAULT;
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> p.lowerBound(-1));
        assertEquals("bucket index -1 outside 0..3711", e.getMessage());
        e = assertThrows(IndexOutOfBoundsException.class, () -> p.middle(3712));
        assertEquals("bucket index 3712 outside 0..3711", e.getMessage());
        assertEquals(Long.MAX_VALUE, p.upperBound(3711));
    }
}
