package dev.statvar;

import java.time.Instant;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshot's text form (one line per kind of stat), registration times, and GaugeValue's own methods.
 */
class SnapshotTest {

    @Test
    void toStringHasOneLinePerStatInItsKindsFormat() {
        StatRegistry r = StatRegistry.create();
        r.counter("c").add(5);
        Gauge g = r.gauge("g");
        g.report(3);
        g.report(4);
        r.histogramFamily("lat", "", HistogramPrecision.DEFAULT, "m").labels("GET").record(1000); // bucket 1000..1007
        Snapshot s = r.collect();
        String[] lines = s.toString().split("\n");
        assertEquals(4, lines.length, s.toString());
        assertTrue(lines[0].startsWith("interval " + s.start() + " .. " + s.end() + " ("), lines[0]);
        assertTrue(lines[0].endsWith(s.duration().toMillis() + " ms)"), lines[0]);
        assertEquals("  c 5 (total 5)", lines[1]);
        assertEquals("  g count=2 sum=7 min=3 max=4" + String.format(" mean=%.2f", 3.5), lines[2]);
        assertEquals("  lat{m=\"GET\"} count=1 sum=1000 min=1000 mean=" + String.format("%.1f", 1000.0)
                + " p50=1000 p90=1000 p99=1000 p99.9=1000 max=1000", lines[3]);
    }

    @Test
    void createdIsTheRegistrationTimeOfTheStatsOfTheSnapshotOnly() {
        StatRegistry r = StatRegistry.create();
        r.counter("c").add();
        r.gaugeFamily("g", "", "k").labels("v").report(1);
        Snapshot s = r.collect();
        for (StatValue v : s) {
            Instant created = s.created(v);
            assertNotNull(created, v.name());
            assertEquals(r.registered().created(v), created, "the same time in every snapshot");
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> s.created(new CounterValue("other", "", 0, 0)));
        assertEquals("no stat named 'other' in this snapshot", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> s.created(new GaugeValue("g", "", Labels.of("k", "w"), 0, 0, 0, 0, 0, 0)));
        assertEquals("no stat named 'g{k=\"w\"}' in this snapshot", e.getMessage());
    }

    @Test
    void gaugeValueMeanEmptinessAndExactness() {
        GaugeValue two = new GaugeValue("g", "", 2, 7, 3, 4, 2, 7);
        assertEquals(3.5, two.mean());
        assertFalse(two.isEmpty());
        assertTrue(two.isMinMaxExact());
        GaugeValue none = new GaugeValue("g", "", 0, 0, 0, 0, 0, 0);
        assertTrue(none.isEmpty());
        assertTrue(Double.isNaN(none.mean()));
        // a report racing the switch: its value already in this sum, its count in the next interval
        GaugeValue raced = new GaugeValue("g", "", Labels.EMPTY, 0, 5, 5, 5, 1, 5, false);
        assertTrue(Double.isNaN(raced.mean()), "no count: no mean, whatever the sum");
        assertFalse(raced.isEmpty());
        assertFalse(raced.isMinMaxExact());
        assertFalse(raced.minMaxExact());
        assertFalse(new GaugeValue("g", "", 0, 0, -2, 0, 0, 0).isEmpty(), "a min alone");
        assertFalse(new GaugeValue("g", "", 0, 0, 0, 2, 0, 0).isEmpty(), "a max alone");
        assertFalse(new GaugeValue("g", "", 3, 0, 0, 0, 3, 0).isEmpty(), "three reports of 0");
    }
}
