package dev.statvar.lab.hiccups;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code lab hiccups} end to end, cut down: IDLE and GC, 1 s each. */
@Tag("thorough")
class HiccupsSmokeTest {

    @Test
    void hiccupsEndToEnd(@TempDir Path dir) throws Exception {
        assertEquals(0, LabMainAccess.execute("lab", "hiccups", "--disturbances", "IDLE,GC", "--seconds", "1", "--out", dir.toString()),
                "the meter saw the longest pause JFR reports");
        assertEquals(3, Files.readAllLines(dir.resolve("hiccups.csv")).size());
        JsonNode json = new ObjectMapper().readTree(dir.resolve("hiccups.json").toFile());
        assertEquals("hiccups", json.get("study").asText());
        LabMainAccess.assertMachineFacts(json.get("info"));
        JsonNode idle = json.get("cells").get(0);
        JsonNode gc = json.get("cells").get(1);
        assertTrue(idle.get("count").asLong() >= 100, "about one value per ms for a second: " + idle);
        assertTrue(gc.get("jfr_gc_pauses").asLong() >= 1, "System.gc() paused the JVM: " + gc);
        assertTrue(gc.get("max_ns").asLong() > 0 && gc.get("p50_ns").asLong() <= gc.get("max_ns").asLong(), gc.toString());
        assertTrue(gc.get("steal_ms").asDouble() >= 0 && gc.get("cpu_pressure_ms").asDouble() >= 0
                && gc.get("throttled_periods").asLong() >= 0 && gc.has("cgroup_cpu_quota"), "the stalls around its JVM (Linux): " + gc);
        assertTrue(new HiccupsDoc().tables(json).contains("| GC |"));
        LabMainAccess.assertReportRewritesSameJson("hiccups", dir, 0);
    }

    @Test
    void badOptionsAreRefused() {
        LabMainAccess.assertRefused("hiccups",
                "--disturbances IDLE,IDLE",
                "--disturbances NOPE",
                "--seconds 0.5",
                "--resolution-ms 0",
                "--threads 2",
                "--report /nonexistent");
    }
}
