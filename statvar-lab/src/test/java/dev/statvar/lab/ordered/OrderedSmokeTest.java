package dev.statvar.lab.ordered;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code lab ordered} end to end, cut down to seconds: every design at 1 and 3 streams, 2 and 4 workers, 3,000 tasks. */
@Tag("thorough")
class OrderedSmokeTest {

    @Test
    void orderedEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.execute("lab", "ordered", "--streams", "1,3", "--workers", "2,4", "--tasks", "3000",
                "--warmup-tasks", "600", "--work", "50", "--out", dir.toString());
        assertEquals(0, rc);
        List<String> csv = Files.readAllLines(dir.resolve("ordered.csv"));
        assertEquals(String.join(",", OrderedReport.COLUMNS), csv.get(0));
        assertEquals(1 + 3 * 2 * 2, csv.size(), "3 designs x 2 stream counts x 2 worker counts:\n" + String.join("\n", csv));
        JsonNode json = new ObjectMapper().readTree(dir.resolve("ordered.json").toFile());
        assertEquals("ordered", json.get("study").asText());
        LabMainAccess.assertMachineFacts(json.get("info"));
        assertEquals(12, json.get("cells").size());
        for (JsonNode c : json.get("cells")) {
            Design d = Design.valueOf(c.get("design").asText());
            assertEquals("ok", c.get("status").asText(), c.toString());
            assertEquals(0, c.get("out_of_order").asLong(), c.toString());
            assertTrue(c.get("checksums_ok").asBoolean(), "the same ordered output as every design: " + c);
            assertEquals(3000, c.get("latency_count").asLong(), "one latency per measured task: " + c);
            assertTrue(c.get("tasks_per_s").asDouble() > 0 && c.get("p50_ns").asLong() <= c.get("p99_ns").asLong(), c.toString());
            int expectedThreads = c.get("workers").asInt() + (d == Design.QUEUE_CONSUMER ? c.get("streams").asInt() : 0);
            assertEquals(expectedThreads, c.get("threads").asInt(), c.toString());
            if (d == Design.SCHEDULER) {
                assertEquals(3000, c.get("in_place").asLong() + c.get("left_behind").asLong(), c.toString());
            }
        }
        String doc = new OrderedDoc().tables(json);
        for (Design d : Design.values()) {
            assertTrue(doc.contains("| " + d + " | 3 | 4 |"), "a row for " + d + ":\n" + doc);
        }
        LabMainAccess.assertReportRewritesSameJson("ordered", dir, 0);
    }

    @Test
    void theExpectedChecksumIsTheFoldOfTheResultsInOrder() {
        assertEquals((17 * 31 + Sink.result(2, 0)) * 31 + Sink.result(2, 1), Sink.expectedChecksum(2, 2));
    }

    @Test
    void badOptionsAreRefused() {
        LabMainAccess.assertRefused("ordered",
                "--threads 2",
                "--streams 0",
                "--streams 1,1",
                "--workers 0",
                "--workers 2,2",
                "--tasks 5 --streams 10",
                "--warmup-tasks 0",
                "--work -1",
                "--designs SCHEDULER,SCHEDULER",
                "--designs DISRUPTOR",
                "--report /nonexistent");
    }
}
