package dev.statvar.lab.kit;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    /** The child's half of the RESULT protocol prints one line, however nested the value; the parent's half reads it back. */
    @Test
    void aResultPrintedByTheChildIsOneLineTheParentReads() throws Exception {
        assumeTrue(ChildProcess.onPath("sh"), "needs sh");
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("cell", Map.of("p99_ns", 1234));
        value.put("ok", List.of(true, false));
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            ChildProcess.printResult(value);
        } finally {
            System.setOut(saved);
        }
        String printed = buf.toString(StandardCharsets.UTF_8);
        assertEquals(1, printed.lines().count(), printed);
        assertTrue(printed.startsWith("RESULT {"), printed);
        ChildProcess.JsonResult r = ChildProcess.runForJson(List.of("sh", "-c", "echo 'PROGRESS 1'; printf '%s' \"$0\"", printed),
                Duration.ofSeconds(30));
        assertEquals(Json.tree(value), r.json(), r.why());
    }
}
