package dev.statvar.lab.locks;

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

/** {@code lab locks} end to end, cut down to seconds: 2 worker threads for 1 s, JFR at its default threshold. */
@Tag("thorough")
class LocksSmokeTest {

    @Test
    void locksEndToEnd(@TempDir Path dir) throws Exception {
        assertEquals(0, LabMainAccess.execute("lab", "locks", "--threads", "2", "--seconds", "1", "--out", dir.toString()),
                "statvar's counts equal the workload's and the per-thread locks never contend");
        List<String> csv = Files.readAllLines(dir.resolve("locks.csv"));
        assertTrue(csv.get(0).startsWith("threads,section,mode,acquired,contended,contended_pct,"), csv.get(0));
        assertEquals(1 + 6, csv.size(), "5 sections, the read-write one in 2 modes:\n" + String.join("\n", csv));
        JsonNode json = new ObjectMapper().readTree(dir.resolve("locks.json").toFile());
        assertEquals("locks", json.get("study").asText());
        LabMainAccess.assertMachineFacts(json.get("info"));
        for (JsonNode c : json.get("cells")) {
            assertTrue(c.get("acquired").asLong() > 0, "every section ran: " + c);
            assertEquals(c.get("own_count").asLong(), c.get("statvar_acquired").asLong(), "exact: " + c);
            assertEquals(c.get("contended").asLong(), c.get("waits").asLong(), "a wait recorded per contended attempt: " + c);
            assertTrue(c.get("site").asText().startsWith(LockWorkload.class.getName() + ".<init>:"), c.toString());
            assertTrue(c.has("jfr_events"), "JFR ran: " + c);
        }
        String format = Files.readString(dir.resolve("locks-article-format.txt"));
        assertTrue(format.contains("creating lock 5\n\tat ") && format.contains("\n1=0\n"), "the article's format, QUIET first with 0:\n" + format);
        String doc = new LocksDoc().tables(json);
        for (Section s : Section.values()) {
            assertTrue(doc.contains("| " + s + " |"), "a row for " + s + ":\n" + doc);
        }
        LabMainAccess.assertReportRewritesSameJson("locks", dir, 0);
    }

    @Test
    void badOptionsAreRefused() {
        LabMainAccess.assertRefused("locks",
                "--threads 0",
                "--threads 2,2",
                "--seconds 0.1",
                "--jfr-threshold-ms -2",
                "--repeats 2",
                "--report /nonexistent");
    }
}
