package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The window between two readings of the stall counters, and a reading on this machine. */
class CpuStallsTest {
    @Test
    void aWindowIsTheDifferenceInMillisecondsAndMinusOneWhereACounterIsMissing() {
        CpuStalls.Snapshot a = new CpuStalls.Snapshot(100, 5_000, 3, 40_000, "none");
        CpuStalls.Snapshot b = new CpuStalls.Snapshot(112, 1_005_000, 5, 90_000, "none");
        CpuStalls.Window w = a.until(b);
        assertEquals(120.0, w.stealMs(), 1e-9, "12 ticks of 10 ms");
        assertEquals(1000.0, w.pressureMs(), 1e-9);
        assertEquals(2, w.throttledPeriods());
        assertEquals(50.0, w.throttledMs(), 1e-9);
        assertEquals("steal 120.0 ms, CPU pressure 1000.0 ms, cgroup throttled 2 periods (50.0 ms; quota none)", w.line());
        CpuStalls.Window missing = new CpuStalls.Snapshot(-1, -1, -1, -1, "unknown").until(b);
        assertEquals(-1, missing.stealMs());
        assertEquals(-1, missing.throttledPeriods());
        assertTrue(missing.line().startsWith("steal n/a, CPU pressure n/a, cgroup throttled n/a"), missing.line());
    }

    @Test
    void aWindowReadBackFromJsonDescribesTheSame() throws Exception {
        CpuStalls.Window w = new CpuStalls.Window(10, 250.5, 0, 0, "none", 10, 99.5);
        var node = new ObjectMapper().readTree(new ObjectMapper().writeValueAsString(w));
        assertEquals(w.line(), CpuStalls.describe(node));
        assertTrue(w.line().contains("(at most 99.5 ms in one 100 ms window)"), w.line());
    }

    @Test
    void thisLinuxMachineHasStealAndAWatchEnds() throws Exception {
        CpuStalls.Snapshot now = CpuStalls.now();
        assertTrue(now.stealTicks() >= 0, "/proc/stat has steal on Linux: " + now);
        CpuStalls.Watch watch = CpuStalls.watch();
        Thread.sleep(250);
        CpuStalls.Window w = watch.stop();
        assertTrue(w.stealMs() >= 0 && w.peakStealMs() >= 0 && w.peakStealMs() <= w.stealMs() + 1e-9, w.toString());
    }
}
