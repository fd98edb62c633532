package dev.statvar.lab.counters;

import dev.statvar.lab.LabMainAccess;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code --quick}-sized run of both studies end to end (forked JVMs, tables, CSV, JSON,
 * charts), cut down to seconds: few implementations, 30 ms runs.
 */
@Tag("thorough")
class LabSmokeTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

    @Test
    void countersEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.commandLine().execute("lab", "counters", "--impl", "statvar,TrivialCounter",
                "--threads", "1,2", "--delays", "0,10", "--run-ms", "30", "--repeats", "2", "--out", dir.toString());
        assertEquals(0, rc);
        List<String> csv = Files.readAllLines(dir.resolve("counters.csv"));
        assertTrue(csv.get(0).endsWith(",redone,phase,after_base_ns,bad_intervals,min_seen,max_seen"), csv.get(0));
        assertEquals(3 * 4 * 2, csv.stream().filter(r -> r.contains(",measured,")).count(),
                "3 implementations (with the base) x 4 cells x 2 repeats");
        assertTrue(csv.stream().filter(r -> r.contains(",warmup,")).count() >= 3 * 4, "every run is written, warm-ups too");
        int statvarRows = 0;
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            assertTrue(Double.parseDouble(f[4]) > 0, row);             // ns_per_op
            assertTrue(Double.parseDouble(f[5]) >= 0, row);            // base_ns
            if (f[0].equals("\"statvar\"")) {
                statvarRows++;
                assertEquals(f[7], f[6], "statvar counts exactly: " + row);
                assertTrue(Long.parseLong(f[7]) > 0, row);
            }
        }
        assertTrue(statvarRows >= 12, "statvar's measured and warm-up rows, each judged: " + statvarRows);
        JsonNode json = new ObjectMapper().readTree(dir.resolve("counters.json").toFile());
        assertEquals("counters", json.get("study").asText());
        assertEquals(12, json.get("cells").size());
        assertEquals(csv.size() - 1, json.get("repeats").size());
        JsonNode statvarCell = json.get("cells").get(8); // statvar, delay 0, 1 thread
        assertEquals("statvar", statvarCell.get("implementation").asText());
        assertEquals(0, statvarCell.get("exactness_per_run").get("inexact_runs").asInt());
        assertTrue(statvarCell.get("exactness_per_run").get("runs_judged").asInt() >= 3, "measured and warm-up runs");
        assertTrue(statvarCell.get("noise_floor_ns").isNumber());
        assertTrue(statvarCell.get("paired_ns_per_op_minus_base").get("q3").isNumber());
        assertTrue(json.get("machine").get("topology").asText().startsWith("topology: "));
        LabMainAccess.assertMachineFacts(json.get("machine"));
        assertTrue(json.get("protocol").get("regime").asText().contains("the article's ratio") || json.get("protocol")
                .get("regime").asText().contains("The article's ratio"));
        JsonNode trivial = json.get("cells").get(4); // TrivialCounter, delay 0, 1 thread
        assertEquals("TrivialCounter", trivial.get("implementation").asText());
        assertTrue(trivial.get("article").get("ns_per_op_minus_base_1_thread").isNumber(), "the article's figure is beside it");
        assertCharts(dir, "counters", List.of(0, 10), List.of(1, 2));

        // lab report: the same study, read back from its JSON, gives the same CSV and charts again
        String before = Files.readString(dir.resolve("counters.csv"));
        Files.delete(dir.resolve("counters-delay-0.png"));
        assertEquals(0, LabMainAccess.commandLine().execute("lab", "report", dir.toString()));
        assertEquals(before, Files.readString(dir.resolve("counters.csv")));
        assertCharts(dir, "counters", List.of(0, 10), List.of(1, 2));
        assertEquals(2, LabMainAccess.commandLine().execute("lab", "report", dir.resolve("nothing-here").toString()));
    }

    /** 200 ms a run: each thread must report both 0 and 1023 (its values cycle 0 .. 1023), 1,024 updates even on a loaded machine (30 ms fell short at load 10). */
    @Test
    void gaugesEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.commandLine().execute("lab", "gauges", "--impl", "statvar localView,Compound Lazy",
                "--threads", "2", "--delays", "0", "--run-ms", "200", "--repeats", "1", "--out", dir.toString());
        assertEquals(0, rc);
        JsonNode json = new ObjectMapper().readTree(dir.resolve("gauges.json").toFile());
        LabMainAccess.assertMachineFacts(json.get("machine"));
        assertEquals(3, json.get("cells").size());
        for (JsonNode c : json.get("cells")) {
            if (c.get("implementation").asText().startsWith("statvar")) {
                assertEquals(0, c.get("difference").asLong());
                assertEquals(0, c.get("sum_difference").asLong());
                assertTrue(c.get("correct_sum").asLong() > 0);
            }
        }
        List<String> csv = Files.readAllLines(dir.resolve("gauges.csv"));
        assertEquals(3, csv.stream().filter(r -> r.contains(",measured,")).count());
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            if (f[0].startsWith("\"statvar") || f[0].equals("\"Compound Lazy\"")) {
                assertEquals("0", f[16], "no impossible min or max: " + row);
                assertEquals("0", f[17], "every run reports 0: " + row);
                assertEquals("1023", f[18], "and 1023: " + row);
            }
        }
        assertCharts(dir, "gauges", List.of(0), List.of(2));
    }

    private static void assertCharts(Path dir, String study, List<Integer> delays, List<Integer> threads) throws Exception {
        int cores = Runtime.getRuntime().availableProcessors();
        boolean over = threads.stream().anyMatch(t -> t > cores);
        for (int d : delays) {
            Path png = dir.resolve(study + "-delay-" + d + ".png");
            assertTrue(Files.size(png) > 10_000, png + " is a drawn chart");
            byte[] head = new byte[4];
            System.arraycopy(Files.readAllBytes(png), 0, head, 0, 4);
            assertArrayEquals(PNG, head);
            assertEquals(over, Files.exists(dir.resolve(study + "-delay-" + d + "-cpu.png")));
        }
    }
}
