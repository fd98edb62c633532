package dev.statvar.lab.throughput;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The timeline's parsing: /proc's stat line and the per-second lines a child prints. */
class TimelineTest {
    @Test
    void theProcessorFieldIsCountedFromTheLastParenthesis() {
        // a real line (cat's), its name made awkward: field 38 is the exit signal (17), field 39 the processor (1)
        String stat = "2721 (tp (x) y) R 2717 2717 1689 0 -1 4194304 100 0 0 0 0 0 0 0 20 0 1 0 32833 3133440 412"
                + " 18446744073709551615 94331405791232 94331405811113 140721085721088 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0"
                + " 94331405827120 94331405828736 94332428738560 140721085725411 140721085725431 140721085725431"
                + " 140721085726699 0";
        assertEquals(1, ThreadCpus.processorField(stat));
        assertEquals(0, ThreadCpus.processorField(stat.replace(" 17 1 ", " 17 0 ")));
    }

    @Test
    void aSecondSurvivesItsLine() {
        TimelineSecond s = new TimelineSecond(3, true, 123_456_789L, 124_456_289L, 999.5, new long[] {7, 9}, 9, 12, 1, 2.5, new int[] {0, -1},
                new int[] {1, 0}, 0.25);
        String line = s.toLine("SECOND", Map.of("run", "ring"));
        assertEquals("ring", TimelineSecond.fields(line).get("run"));
        TimelineSecond t = TimelineSecond.parse(line);
        assertEquals(s.second(), t.second());
        assertEquals(s.partial(), t.partial());
        assertEquals(s.startNanos(), t.startNanos());
        assertEquals(s.endNanos(), t.endNanos());
        assertEquals(s.millis(), t.millis(), 1e-9);
        assertArrayEquals(s.ops(), t.ops());
        assertEquals(s.total(), t.total());
        assertEquals(s.compilations(), t.compilations());
        assertEquals(s.osr(), t.osr());
        assertEquals(s.gcPauseMillis(), t.gcPauseMillis(), 1e-9);
        assertArrayEquals(s.migrations(), t.migrations());
        assertArrayEquals(s.cpus(), t.cpus());
        assertEquals(s.sharedCpu(), t.sharedCpu(), 1e-9);
        assertEquals(9 * 1000 / 999.5, t.rate(), 1e-9);
    }
}
