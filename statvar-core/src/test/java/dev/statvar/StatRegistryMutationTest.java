package dev.statvar;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * StatRegistry's builder limits at both ends, registered(), the per-thread storage count, and
 * HistogramPrecision's index checks. Written against PIT's surviving mutants (docs/RELIABILITY.md,
 * "Mutation testing").
 */
class StatRegistryMutationTest {

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
