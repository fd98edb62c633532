package dev.statvar.lab.signals;

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

/** {@code lab signals} end to end, cut down to seconds: every mechanism at 1 and 2 pairs, 200 signals each. */
@Tag("thorough")
class SignalSmokeTest {

    @Test
    void signalsEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.execute("lab", "signals", "--pairs", "1,2", "--signals", "200", "--warmup-signals", "20",
                "--out", dir.toString());
        assertEquals(0, rc);
        List<String> csv = Files.readAllLines(dir.resolve("signals.csv"));
        assertTrue(csv.get(0).startsWith("mechanism,pairs,latency,status,count,p50,p90,p95,p99,p99_9,max,mean,"), csv.get(0));
        assertEquals(1 + 4 * 2 * 2, csv.size(), "4 mechanisms x 2 pair counts x 2 latencies:\n" + String.join("\n", csv));
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            Mechanism.valueOf(f[0]);
            assertEquals("ok", f[3], row);
            assertEquals(200L * Integer.parseInt(f[1]), Long.parseLong(f[4]), "count: " + row);
            long p50 = Long.parseLong(f[5]);
            long p99 = Long.parseLong(f[8]);
            long max = Long.parseLong(f[10]);
            assertTrue(p50 > 0 && p50 <= p99 && p99 <= max, "0 < p50 <= p99 <= max: " + row);
            assertEquals("0", f[13], "no missed signal: " + row);
            assertEquals("true", f[18], "the HdrHistogram check: " + row);
        }
        JsonNode json = new ObjectMapper().readTree(dir.resolve("signals.json").toFile());
        assertEquals("signals", json.get("study").asText());
        LabMainAccess.assertMachineFacts(json.get("info"));
        assertEquals(16, json.get("cells").size());
        assertEquals(2, json.get("article").size(), "the article's 16 and 256 pairs");
        for (JsonNode c : json.get("cells")) {
            assertTrue(c.has("mechanism") && c.has("pairs") && c.has("latency"), c.toString());
            assertTrue(c.get("clock_granularity_ns").asDouble() > 0, c.toString());
        }

        String doc = new SignalDoc().tables(json);
        for (Mechanism m : Mechanism.values()) {
            assertTrue(doc.contains("| " + m + " | 2 |"), "a row for " + m + ":\n" + doc);
        }
        assertTrue(doc.contains("| Bempel, notify(), Linux | 16 | 1.53 |"), doc);

        LabMainAccess.assertReportRewritesSameJson("signals", dir, 0);
    }

    @Test
    void badOptionsAreRefused() {
        LabMainAccess.assertRefused("signals",
                "--threads 2",
                "--repeats 2",
                "--pairs 0",
                "--pairs 1,1",
                "--signals 0",
                "--mechanisms PARK,PARK",
                "--mechanisms YIELD",
                "--report /nonexistent");
    }
}
