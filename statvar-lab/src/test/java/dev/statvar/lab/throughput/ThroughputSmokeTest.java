package dev.statvar.lab.throughput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code lab throughput} end to end, cut down to 3 s a run (both implementations, the pitfalls;
 * the self-check has its own test): the files are there and every run's seconds add up to what
 * its workers counted.
 */
@Tag("thorough")
class ThroughputSmokeTest {
    @Test
    void throughputEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.execute("lab", "throughput", "--seconds", "3", "--no-self-check", "--out", dir.toString());
        assertEquals(0, rc);
        List<String> csv = Files.readAllLines(dir.resolve("throughput.csv"));
        assertEquals(ThroughputFiles.CSV_HEADER, csv.get(0));
        Map<String, long[]> summed = new HashMap<>();
        Map<String, Integer> rows = new HashMap<>();
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            String[] ops = f[6].split(";");
            long[] s = summed.computeIfAbsent(f[0], k -> new long[ops.length]);
            for (int w = 0; w < ops.length; w++) {
                s[w] += Long.parseLong(ops[w]);
            }
            rows.merge(f[0], 1, Integer::sum);
        }
        JsonNode json = new ObjectMapper().readTree(dir.resolve("throughput.json").toFile());
        assertEquals("throughput", json.get("study").asText());
        assertTrue(json.get("machine").get("topology").asText().startsWith("topology: "));
        LabMainAccess.assertMachineFacts(json.get("machine"));
        List<String> expected = List.of("queue", "ring", "together-queue-ring/queue", "together-queue-ring/ring",
                "together-ring-queue/ring", "together-ring-queue/queue", "osr-loop", "method-loop");
        JsonNode cells = json.get("cells");
        for (int i = 0; i < expected.size(); i++) {
            JsonNode run = cells.get(i);
            String label = run.get("run").asText();
            assertEquals(expected.get(i), label);
            assertTrue(run.get("exact").asBoolean(), label);
            // 3 full seconds and the partial one after them; on a loaded machine the sampler may close one more full
            // second while the workers are being stopped (seen: 5 rows with other studies running beside)
            assertTrue(rows.get(label) == 4 || rows.get(label) == 5, "3 or 4 full seconds and a partial one: " + label + " " + rows.get(label));
            for (int w = 0; w < run.get("own_counts").size(); w++) {
                long own = run.get("own_counts").get(w).asLong();
                assertTrue(own > 0, label);
                assertEquals(own, summed.get(label)[w], "the CSV's seconds add up to worker " + w + "'s count: " + label);
            }
        }
        // a placement cell per implementation that had a full second with both threads on one CPU or on two; a
        // short run whose seconds all fell between (CI's JDK 25 run once: 13 cells) has none for that implementation
        int placements = cells.size() - (expected.size() + 2 + 1 + 1);
        assertTrue(placements >= 0 && placements <= 2, "the runs, 2 pollution cells, the sum, OSR, 0 to 2 placements: " + cells.size());
        assertEquals("profile_pollution", cells.get(expected.size()).get("pitfall").asText());
        JsonNode sum = cells.get(expected.size() + 2);
        assertEquals("summed", sum.get("pitfall").asText());
        double q = 1 / sum.get("queue_mops").asDouble();
        double r = 1 / sum.get("ring_mops").asDouble();
        assertEquals(100 * q / (q + r), sum.get("queue_share_percent").asDouble(), 1e-6, "the queue's share of the summed time");
        assertEquals(2 / (q + r), sum.get("summed_mops").asDouble(), 1e-6, "the article's figure: 2N over both times");
        for (int i = expected.size() + 4; i < cells.size(); i++) {
            JsonNode p = cells.get(i);
            assertTrue(p.has("placement"), p.toString());
            assertTrue(p.get("one_cpu_seconds").asInt() + p.get("two_cpus_seconds").asInt() <= 2 + 2 + 2, "seconds 1 and 2 of 3 runs at most");
        }
        JsonNode osr = cells.get(expected.size() + 3);
        assertTrue(osr.get("loop_osr_compilations_osr_run").asLong() >= 1, "the huge loop can only have been compiled as OSR code");
        assertTrue(Files.size(dir.resolve("throughput.png")) > 0);
    }

    @Test
    void optionsThatDoNotApplyAreRefused() {
        LabMainAccess.assertRefused("throughput",
                "--threads 2",
                "--repeats 2",
                "--seconds 1",
                "--impl NOPE",
                "--impl ring,ring",
                "--rate 5");
    }
}
