package dev.statvar.lab.spin;

import dev.statvar.lab.kit.CpuInfo;
import dev.statvar.lab.kit.MachineFacts;
import dev.statvar.lab.kit.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpinReportTest {

    @Test
    void resultLinesParse() {
        SpinResult r = SpinResult.parse("RESULT ACQUIRE 4 100000 2 OK 1000 2000000000 300 9000 12000 5000000 7000000 3 40 0.25".replace(" 0.25", " 250 1"));
        assertEquals(BarrierDesign.ACQUIRE, r.design());
        assertEquals(4, r.threads());
        assertEquals(100_000, r.work());
        assertEquals(2, r.run());
        assertEquals(500.0, r.episodesPerSecond(), 1e-9);
        assertEquals(2000.0, r.usPerEpisode(), 1e-9);
        assertEquals(0.25, r.otherLoad(), 1e-9);
        assertEquals(1, r.redone());
        SpinResult h = SpinResult.parse("RESULT PLAIN_LOCAL 2 0 1 HUNG spin-w0 did not stop within 3000 ms after episode 7");
        assertTrue(h.hung());
        assertEquals("spin-w0 did not stop within 3000 ms after episode 7", h.why());
        assertEquals(Double.POSITIVE_INFINITY, h.usPerEpisode());
    }

    private static SpinResult ok(BarrierDesign d, int threads, int run, long episodes) {
        return new SpinResult(d, threads, 0, run, false, "", episodes, 1_000_000_000L, 1, 2, 3, 4, 5, 6, 7, 0, 0);
    }

    @Test
    void aCellShowsItsMedianRunOrThatItHung() {
        Map<String, SpinReport.Cell> cells = SpinReport.cells(List.of(ok(BarrierDesign.PARK, 2, 1, 300), ok(BarrierDesign.PARK, 2, 2, 100),
                ok(BarrierDesign.PARK, 2, 3, 200), ok(BarrierDesign.ACQUIRE, 2, 1, 1000),
                SpinResult.hung(BarrierDesign.ACQUIRE, 2, 0, 2, "stuck")));
        assertEquals(200, cells.get("PARK:2:0").shown().episodes());
        assertEquals(3, cells.get("PARK:2:0").runs());
        assertTrue(cells.get("ACQUIRE:2:0").shown().hung(), "one hung run makes the cell HUNG");
        assertEquals(1, cells.get("ACQUIRE:2:0").hungRuns());
        assertEquals(1e6 / 200, SpinReport.best(cells, 2, 0), 1e-9, "the best of the cells that did not hang");
    }

    @Test
    void theInnermostLoopIsTheShortestBackwardJump() {
        List<String> code = List.of(
                "  7f00:\tmov    %rsi,%rdx",
                "  7f03:\tmovzbl 0x10(%rdx),%r10d",
                "  7f08:\tcmp    %r10d,%ecx",
                "  7f0b:\tjne    0x7f20",
                "  7f10:\tmov    0x348(%r15),%r9",
                "  7f17:\ttest   %eax,(%r9)",
                "  7f1a:\tjmp    0x7f10",
                "  7f20:\tjmp    0x7f00",
                "  7f25:\tret");
        assertEquals(code.subList(4, 7), SpinReport.innermostLoop(code));
        assertTrue(SpinReport.innermostLoop(List.of("  10:\tjmp    0x20", "  20:\tret")).isEmpty(), "forward jumps are no loop");
    }

    @Test
    void verdictsFollowTheData() {
        MachineFacts m = new MachineFacts("cpu", CpuInfo.parse(""), 2, "17", "vm", "topo", "latency facts: l");
        SpinReport.Info info = new SpinReport.Info(m, List.of(2, 4), List.of(100), 1, 0, 100, 1000, "6.1");
        List<SpinResult> rs = List.of(
                new SpinResult(BarrierDesign.ACQUIRE, 2, 100, 1, false, "", 1000, 1_000_000_000L, 1, 2, 3, 4, 5, 6, 7, 0, 0),
                new SpinResult(BarrierDesign.ACQUIRE, 4, 100, 1, false, "", 200, 1_000_000_000L, 1, 2, 3, 4, 5, 6, 7, 0, 0),
                new SpinResult(BarrierDesign.YIELD, 4, 100, 1, false, "", 900, 1_000_000_000L, 1, 2, 3, 4, 5, 6, 7, 0, 0),
                SpinResult.hung(BarrierDesign.PLAIN_LOCAL, 2, 100, 1, "stuck"),
                new SpinResult(BarrierDesign.PLAIN_LOCAL, 4, 100, 1, false, "", 5, 1_000_000_000L, 1, 2, 3, 4, 5, 6, 7, 0, 0));
        List<String> v = Verdicts.of(info, SpinReport.cells(rs), null, null, null);
        assertTrue(v.get(0).startsWith("within noise: ") && v.get(0).contains("hung in 1 of 2")
                && v.get(0).contains("2 threads: confirmed (1 of 1 runs hung)") && v.get(0).contains("4 threads: refuted (0 of 1"), v.get(0));
        assertTrue(v.get(1).startsWith("confirmed: spinning barriers") && v.get(1).contains("ACQUIRE 5.0x"), v.get(1));
        assertTrue(v.get(2).startsWith("refuted: ") && v.get(2).contains("4 threads 1.0x"), v.get(2));
        assertTrue(v.get(3).startsWith("confirmed: ") && v.get(3).contains("kernel") && v.get(3).contains("4 threads 56 % system"), v.get(3));
        assertFalse(v.stream().anyMatch(s -> s.contains("hands the CPU")), "no yield probe, no verdict on it");
        for (String s : v) {
            assertTrue(Verdict.leading(s) != null && s.startsWith(Verdict.leading(s) + ": "), "begins with the scheme's word: " + s);
        }
    }
}
