package dev.statvar.lab.kit;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class ChildProcessTest {

    @Test
    void aChildPastItsLimitIsKilledAndItsOutputKept() throws Exception {
        assumeTrue(ChildProcess.onPath("sh"), "needs sh");
        List<String> seen = new ArrayList<>();
        long t0 = System.nanoTime();
        ChildProcess.Output o = ChildProcess.run(List.of("sh", "-c", "echo started; exec sleep 30"), null, seen::add,
                Duration.ofMillis(500));
        double s = (System.nanoTime() - t0) / 1e9;
        assertTrue(o.timedOut());
        assertEquals(List.of("started"), o.lines());
        assertEquals(List.of("started"), seen, "lines are handed over as they come");
        assertTrue(s < 10, "killed at the limit, not after the child's 30 s: " + s);
    }

    @Test
    void aChildWithinItsLimitIsNotKilled() throws Exception {
        assumeTrue(ChildProcess.onPath("sh"), "needs sh");
        ChildProcess.Output o = ChildProcess.run(List.of("sh", "-c", "echo a; exit 3"), null, l -> { }, Duration.ofSeconds(30));
        assertFalse(o.timedOut());
        assertEquals(3, o.exitCode());
        assertEquals("a", o.text());
    }
}
