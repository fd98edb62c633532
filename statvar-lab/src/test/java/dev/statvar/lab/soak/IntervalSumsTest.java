package dev.statvar.lab.soak;

import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The collector's sink: every interval summed, a gap counted, a stranger stat refused by name. */
@Timeout(10)
class IntervalSumsTest {

    @Test
    void sumsEveryIntervalAndCountsAGap() {
        StatRegistry r = StatRegistry.create();
        SoakStats s = SoakStats.register(r);
        IntervalSums sums = new IntervalSums();
        s.ops().add();
        s.bytes().add(10);
        s.queue().report(-5);
        s.latency().record(7);
        s.requests().labels("virtual", "3").add();
        Snapshot first = r.collect();
        sums.accept(first);
        s.ops().add();
        s.bytes().add(20);
        s.queue().report(9);
        s.latency().record(1L << 40);
        s.requests().labels("platform", "0").add();
        sums.accept(r.collect());
        SoakCounts c = sums.c;
        assertEquals(2, c.ops);
        assertEquals(30, c.bytes);
        assertEquals(2, c.gaugeCount);
        assertEquals(4, c.gaugeSum);
        assertEquals(-5, c.gaugeMin);
        assertEquals(9, c.gaugeMax);
        assertEquals(2, c.histCount);
        assertEquals(7 + (1L << 40), c.histSum);
        long[] series = new long[c.series.length];
        series[SoakStats.seriesIndex(Labels.of("thread", "virtual", "shard", "3"))] = 1;
        series[0] = 1;
        assertArrayEquals(series, c.series);
        assertEquals(2, sums.intervals);
        assertEquals(2, sums.opsSoFar);
        assertEquals(0, sums.gaps, "the second interval starts where the first ended");
        sums.accept(first); // starts before the last one ended
        assertEquals(1, sums.gaps);
    }

    @Test
    void aStatOutsideTheSoaksIsRefusedByName() {
        StatRegistry r = StatRegistry.create();
        r.counter("other_total", "not the soak's").add();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new IntervalSums().accept(r.collect()));
        assertEquals("unexpected stat other_total", e.getMessage());
    }

    @Test
    void theFamilySeriesKeyIsWhatTheExpositionWrites() {
        int i = SoakStats.seriesIndex(Labels.of("thread", "virtual", "shard", "15"));
        assertEquals(2 * SoakStats.SHARDS - 1, i);
        assertEquals("soak_requests_total{thread=\"virtual\",shard=\"15\"}", SoakStats.seriesKey(i));
    }
}
