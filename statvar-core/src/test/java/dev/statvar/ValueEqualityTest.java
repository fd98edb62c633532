package dev.statvar;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The explicit equals/hashCode/toString of the value records (explicit so that they do not pin
 * statvar's class loader): equal exactly when every component is, equal values hash alike and
 * values differing in one component hash apart here, and toString shows every component.
 */
class ValueEqualityTest {

    /** {@code base} equals {@code twin}; each of {@code others} (one component changed) differs from it. */
    private static void equalByValue(Object base, Object twin, List<?> others) {
        equalByValue(base, twin, others, true);
    }

    private static void equalByValue(Object base, Object twin, List<?> others, boolean distinctHashes) {
        assertEquals(base, twin);
        assertEquals(base.hashCode(), twin.hashCode());
        assertNotEquals(base, null);
        assertNotEquals(base, "not a value");
        Set<Integer> hashes = new HashSet<>();
        hashes.add(base.hashCode());
        for (Object o : others) {
            assertNotEquals(base, o, o.toString());
            assertNotEquals(o, base, o.toString());
            assertTrue(!distinctHashes || hashes.add(o.hashCode()), "hash of " + o + " collides");
        }
    }

    @Test
    void counterValues() {
        Labels l = Labels.of("k", "v");
        CounterValue c = new CounterValue("c", "help", l, 5, 9);
        equalByValue(c, new CounterValue("c", "help", Labels.of("k", "v"), 5, 9), List.of(
                new CounterValue("d", "help", l, 5, 9),
                new CounterValue("c", "other", l, 5, 9),
                new CounterValue("c", "help", Labels.EMPTY, 5, 9),
                new CounterValue("c", "help", l, 6, 9),
                new CounterValue("c", "help", l, 5, 10)));
        assertEquals("CounterValue[name=c, help=help, labels={k=\"v\"}, value=5, total=9]", c.toString());
        assertEquals(new CounterValue("c", "h", Labels.EMPTY, 1, 2), new CounterValue("c", "h", 1, 2));
    }

    @Test
    void gaugeValues() {
        Labels l = Labels.of("k", "v");
        GaugeValue g = new GaugeValue("g", "help", l, 2, 10, 3, 7, 4, 20, true);
        equalByValue(g, new GaugeValue("g", "help", Labels.of("k", "v"), 2, 10, 3, 7, 4, 20), List.of(
                new GaugeValue("h", "help", l, 2, 10, 3, 7, 4, 20, true),
                new GaugeValue("g", "other", l, 2, 10, 3, 7, 4, 20, true),
                new GaugeValue("g", "help", Labels.EMPTY, 2, 10, 3, 7, 4, 20, true),
                new GaugeValue("g", "help", l, 1, 10, 3, 7, 4, 20, true),
                new GaugeValue("g", "help", l, 2, 11, 3, 7, 4, 20, true),
                new GaugeValue("g", "help", l, 2, 10, 2, 7, 4, 20, true),
                new GaugeValue("g", "help", l, 2, 10, 3, 8, 4, 20, true),
                new GaugeValue("g", "help", l, 2, 10, 3, 7, 5, 20, true),
                new GaugeValue("g", "help", l, 2, 10, 3, 7, 4, 21, true),
                new GaugeValue("g", "help", l, 2, 10, 3, 7, 4, 20, false)));
        assertEquals("GaugeValue[name=g, help=help, labels={k=\"v\"}, count=2, sum=10, min=3, max=7, totalCount=4,"
                + " totalSum=20, minMaxExact=true]", g.toString());
        assertEquals(new GaugeValue("g", "h", Labels.EMPTY, 1, 2, 2, 2, 1, 2), new GaugeValue("g", "h", 1, 2, 2, 2, 1, 2));
    }

    @Test
    void histogramPrecisions() {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(4);
        equalByValue(p, new HistogramPrecision(4), List.of(HistogramPrecision.ofSubBucketBits(3),
                HistogramPrecision.ofSubBucketBits(5), HistogramPrecision.DEFAULT));
        assertEquals("HistogramPrecision[subBucketBits=4]", p.toString());
    }

    @Test
    void buckets() {
        HistogramValue.Bucket b = new HistogramValue.Bucket(8, 9, 3);
        equalByValue(b, new HistogramValue.Bucket(8, 9, 3), List.of(new HistogramValue.Bucket(7, 9, 3),
                new HistogramValue.Bucket(8, 10, 3), new HistogramValue.Bucket(8, 9, 4)));
        assertEquals("Bucket[lowerBound=8, upperBound=9, count=3]", b.toString());
        // As an exporter sees it.
        HistogramValue h = new HistogramValue("h", "", HistogramPrecision.ofSubBucketBits(2), 17, 8, 9, 8, new long[] {2});
        assertEquals(List.of(new HistogramValue.Bucket(8, 9, 2)), h.buckets());
    }

    /** HistogramValue is a class with the same contract; its hash leaves out help, labels and exactness. */
    @Test
    void histogramValues() {
        HistogramPrecision p = HistogramPrecision.ofSubBucketBits(2);
        HistogramPrecision q = HistogramPrecision.ofSubBucketBits(3);
        Labels l = Labels.of("k", "v");
        HistogramValue h = new HistogramValue("h", "help", l, p, 9, 1, 8, 1, new long[] {1, 0, 2}, true);
        equalByValue(h, new HistogramValue("h", "help", Labels.of("k", "v"), p, 9, 1, 8, 0, new long[] {0, 1, 0, 2, 0}),
                List.of(new HistogramValue("i", "help", l, p, 9, 1, 8, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "other", l, p, 9, 1, 8, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", Labels.EMPTY, p, 9, 1, 8, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", l, q, 9, 1, 8, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", l, p, 10, 1, 8, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", l, p, 9, 0, 8, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", l, p, 9, 1, 9, 1, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", l, p, 9, 1, 8, 1, new long[] {1, 0, 2}, false),
                        new HistogramValue("h", "help", l, p, 9, 1, 8, 2, new long[] {1, 0, 2}, true),
                        new HistogramValue("h", "help", l, p, 9, 1, 8, 1, new long[] {1, 1, 1}, true)),
                false);
    }

    /** The measurement the environment tests bound: a collect that read something held its lock for some time. */
    @Test
    void aCollectReportsItsLongestLockHold() {
        StatRegistry r = StatRegistry.create();
        for (int i = 0; i < 100; i++) {
            r.counter("c" + i).add(i);
        }
        assertEquals(0, TestAccess.lastCollectLongestHoldNanos(r), "no collect yet");
        r.collect();
        assertTrue(TestAccess.lastCollectLongestHoldNanos(r) > 0);
    }
}
