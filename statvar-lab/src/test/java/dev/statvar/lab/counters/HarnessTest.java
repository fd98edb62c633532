package dev.statvar.lab.counters;

import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The harness's arithmetic and parsing, and the CLI's argument errors. */
class HarnessTest {

    @Test
    void summaryDiscardsTheTwoSlowestAndAveragesTheRest() {
        Summary s = Summary.of(List.of(5.0, 1.0, 9.0, 3.0, 2.0));
        assertEquals(2.0, s.mean(), 1e-12); // 9 and 5 discarded: (1 + 2 + 3) / 3
        assertEquals(1.0, s.min());
        assertEquals(9.0, s.max()); // the spread covers every run
        assertEquals(3, s.kept());
        assertEquals(2, s.discarded());
        Summary two = Summary.of(List.of(4.0, 2.0));
        assertEquals(2.0, two.mean()); // one discarded, one kept
        assertEquals(7.0, Summary.of(List.of(7.0)).mean());
        assertThrows(IllegalArgumentException.class, () -> Summary.of(List.of()));
    }

    @Test
    void resultLinesRoundTrip() {
        CellRunner.Result r = new CellRunner.Result(3.25, 3.5, 1.0e8, 1000, 1002, 1000, 1002, 2, 0, 1023);
        CellRunner.Result base = new CellRunner.Result(1.125, 1.25, 2.0e8, 0, 2000, 0, 2000, 0, -1, -1);
        Forker.Repeat p = Forker.parse(r.line(50, 2, 3, base, 1.5, 1, "warmup"));
        assertEquals(50, p.delay());
        assertEquals(2, p.threads());
        assertEquals(3, p.repeat());
        assertEquals(3.25, p.wallNsPerOp(), 1e-9);
        assertEquals(3.5, p.cpuNsPerOp(), 1e-9);
        assertEquals(1000, p.counted());
        assertEquals(1002, p.correct());
        assertEquals(1.125, p.baseWallNsPerOp(), 1e-9);
        assertEquals(1.25, p.baseCpuNsPerOp(), 1e-9);
        assertEquals(1, p.redone());
        assertEquals("warmup", p.phase());
        assertFalse(p.measured());
        assertEquals(1.5, p.afterBaseWallNsPerOp(), 1e-9);
        assertEquals(2, p.badIntervals());
        assertEquals(0, p.minSeen());
        assertEquals(1023, p.maxSeen());
        // a line from before the probe and the per-run judgment: a measured run, nothing known of min and max
        Forker.Repeat old = Forker.parse("RESULT delay=0 threads=1 repeat=0 wall_ns_per_op=1 cpu_ns_per_op=1 ops_per_sec=1"
                + " counted=5 correct=5 counted_sum=5 correct_sum=5 base_wall_ns_per_op=0.5 base_cpu_ns_per_op=0.5 redone=0");
        assertTrue(old.measured());
        assertTrue(Double.isNaN(old.afterBaseWallNsPerOp()));
        assertEquals(Forker.Repeat.UNKNOWN, old.maxSeen());
    }

    @Test
    void aBaseRunningSlowerThanWithOneThreadIsDisturbed() {
        assertTrue(CellRunner.checked(100, 2, 2));
        assertFalse(CellRunner.checked(0, 2, 2), "at delay 0 the base loop does no delay work to time");
        assertFalse(CellRunner.checked(100, 1, 2), "one thread is the reference");
        assertFalse(CellRunner.checked(100, 4, 2), "oversubscribed: the threads share cores by design");
        assertFalse(CellRunner.disturbed(130, 127));
        assertTrue(CellRunner.disturbed(250, 127), "both vCPUs on one core: the base doubles");
    }

    @Test
    void aRealCellCountsExactlyWithAnExactImplementation() throws Exception {
        var impl = Catalog.find(Catalog.Kind.COUNTERS, "statvar");
        CellRunner.Result r = CellRunner.runOnce(Catalog.Kind.COUNTERS, impl, 10, 2, 200, 40);
        assertTrue(r.correct() > 0);
        assertEquals(r.correct(), r.counted(), "statvar never loses a count");
        assertTrue(r.wallNsPerOp() > 0 && r.cpuNsPerOp() > 0);
        var gauge = Catalog.find(Catalog.Kind.GAUGES, "statvar localView");
        CellRunner.Result g = CellRunner.runOnce(Catalog.Kind.GAUGES, gauge, 0, 2, 200, 40);
        assertEquals(g.correct(), g.counted());
        assertEquals(g.correctSum(), g.countedSum());
    }

    @Test
    void badArgumentsFailWithAClearMessageAndNonZeroExit() {
        for (String[] args : List.of(
                new String[]{"lab", "counters", "--threads", "0"},
                new String[]{"lab", "counters", "--delays", "-1"},
                new String[]{"lab", "counters", "--impl", "NoSuchCounter"},
                new String[]{"lab", "counters", "--quick", "--full"},
                new String[]{"lab", "counters", "--threads", "x"},
                new String[]{"lab", "counters", "--threads", "2,2"},
                new String[]{"lab", "gauges", "--run-ms", "5"},
                new String[]{"lab", "gauges", "--run-ms", "100", "--interval-ms", "200"},
                new String[]{"lab", "gauges", "--repeats", "0"},
                new String[]{"lab", "counters", "--bogus"},
                new String[]{"lab", "nosuchstudy"})) {
            StringWriter err = new StringWriter();
            CommandLine cl = LabMainAccess.commandLine();
            cl.setErr(new PrintWriter(err));
            int rc = cl.execute(args);
            assertNotEquals(0, rc, String.join(" ", args));
            assertTrue(err.toString().startsWith("statvar: ") && err.toString().contains("--help"),
                    "a message for " + String.join(" ", args) + ": " + err);
        }
    }
}
