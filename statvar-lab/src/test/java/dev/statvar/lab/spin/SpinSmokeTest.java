package dev.statvar.lab.spin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code lab spin} end to end, cut down to seconds: three designs, 1 and 2 threads, little work. */
@Tag("thorough")
class SpinSmokeTest {

    @Test
    void spinEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.execute("lab", "spin", "--designs", "PLAIN_LOCAL,ACQUIRE,PARK", "--threads", "1,2",
                "--work", "1000", "--repeats", "1", "--warm-ms", "100", "--measure-ms", "200", "--hang-ms", "1000", "--out", dir.toString());
        assertEquals(0, rc);
        List<String> csv = Files.readAllLines(dir.resolve("spin.csv"));
        assertTrue(csv.get(0).startsWith("design,threads,work,run,status,episodes,nanos,"), csv.get(0));
        assertEquals(1 + 3 * 2, csv.size(), "3 designs x 2 thread counts x 1 run:\n" + String.join("\n", csv));
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            BarrierDesign d = BarrierDesign.valueOf(f[0]);
            int threads = Integer.parseInt(f[1]);
            if (d != BarrierDesign.PLAIN_LOCAL || threads == 1) {
                assertEquals("ok", f[4], "only the plain spin can hang, and not alone: " + row);
                assertTrue(Long.parseLong(f[5]) > 0 && Long.parseLong(f[6]) > 0, row);
                long p50 = Long.parseLong(f[9]);
                long max = Long.parseLong(f[11]);
                assertTrue(p50 >= 0 && p50 <= Long.parseLong(f[10]) && Long.parseLong(f[10]) <= max, "p50 <= p99 <= max: " + row);
                assertTrue(Long.parseLong(f[12]) >= 0 && Long.parseLong(f[13]) >= 0, row);
                assertTrue(Integer.parseInt(f[17]) <= SpinRunner.MAX_REDO, row);
            } else if (f[4].equals("HUNG")) {
                assertTrue(f[18].contains("ms") && f[18].contains("episode"), "a hang says where: " + row);
            }
        }
        JsonNode json = new ObjectMapper().readTree(dir.resolve("spin.json").toFile());
        LabMainAccess.assertMachineFacts(json.get("info"));
        int designCells = 0;
        int probeRows = 0;
        for (JsonNode c : json.get("cells")) {
            designCells += c.has("design") ? 1 : 0;
            probeRows += c.has("probe") ? 1 : 0;
        }
        assertEquals(6, designCells);
        assertEquals(1 + 7, probeRows, "the yield cost and its 7 shares, for docs/LAB.md's links");
        assertTrue(json.get("verdicts").size() >= 4, json.get("verdicts").toString());
        assertTrue(json.get("yield").get("nsPerCall").asDouble() > 0, "a yield takes time");
        assertEquals(7, json.get("yield").get("shares").size(), "alone, 3 kinds x 1 and 7");
        for (JsonNode c : json.get("cells")) {
            if (c.path("probe").asText().equals("yield")) {
                assertTrue(c.get("share_min").asDouble() <= c.get("share").asDouble()
                        && c.get("share").asDouble() <= c.get("share_max").asDouble(), "lowest <= median <= highest: " + c);
            }
        }
        assertNotEquals(0, json.get("plain_loop_where").asText().length());
        assertTrue(Files.exists(dir.resolve("spin-plain-loop.txt")));
        assertTrue(json.get("plain_compilations").toString().contains("PlainLocal::waitFor"), "the JIT's decisions are kept");
        // around each design's JVM: the CPU stalls; for PLAIN_LOCAL the JIT's events from JFR, tagged with the cell
        Set<String> designs = new HashSet<>();
        boolean plainCompiled = false;
        for (JsonNode j : json.get("jvms")) {
            designs.add(j.get("design").asText());
            assertTrue(j.get("stalls").get("steal_ms").asDouble() >= -1 && j.get("stalls").has("throttled_periods"), j.toString());
            for (JsonNode e : j.get("jit")) {
                assertEquals("PLAIN_LOCAL", j.get("design").asText(), "JIT events are watched for PLAIN_LOCAL only: " + j);
                assertTrue(e.asText().matches("[12] 1000 1 \\+\\d+ ms (compiled|deoptimized) FlagBarrier.*"), e.asText());
                plainCompiled |= e.asText().contains("compiled FlagBarrier$PlainLocal::waitFor");
            }
        }
        assertEquals(Set.of("PLAIN_LOCAL", "ACQUIRE", "PARK"), designs, json.get("jvms").toString());
        assertTrue(plainCompiled, "JFR saw the JIT compile the plain spin loop: " + json.get("jvms"));

        String doc = new SpinDoc().tables(json);
        for (String d : List.of("PLAIN_LOCAL", "ACQUIRE", "PARK")) {
            assertTrue(doc.contains("| " + d + " |"), "a row for " + d + ":\n" + doc);
        }
        assertTrue(doc.contains("**Thread.yield**"), doc);

        LabMainAccess.assertReportRewritesSameJson("spin", dir, 0);
    }

    @Test
    void badOptionsAreRefused() {
        LabMainAccess.assertRefused("spin",
                "--warmups 1",
                "--work -1",
                "--threads 0",
                "--designs ACQUIRE,ACQUIRE",
                "--hang-ms 10",
                "--report /nonexistent");
    }
}
