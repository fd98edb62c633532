package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.LabMainAccess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link MachineFacts}: this machine's facts in the header and the JSON, read back unchanged; a
 * result written before the CPU's facts (docs/lab's committed data) printed again with "not recorded".
 */
class MachineFactsTest {
    private static final Path LAB = Path.of("..", "docs", "lab");
    private static final String NOT_RECORDED = "cpu: vendor_id, cpu family, model, stepping, model name, cpu MHz: not recorded";

    @Test
    void thisMachinesFactsNameTheCpuInTheHeaderAndTheJson() {
        MachineFacts here = MachineFacts.here();
        JsonNode json = Json.tree(here);
        LabMainAccess.assertMachineFacts(json);
        assertEquals(here, Json.convert(json, MachineFacts.class), "read back unchanged");
        String[] header = here.header(", kernel k").split(System.lineSeparator());
        assertEquals(4, header.length);
        assertTrue(header[0].startsWith("machine: " + here.cpu() + ", ") && header[0].endsWith(", kernel k"), header[0]);
        assertEquals(here.cpuinfo().line(), header[1]);
        assertTrue(header[1].startsWith("cpu: vendor_id "), header[1]);
        assertTrue(header[2].startsWith("topology: ") && header[3].startsWith("latency facts: "), String.join("\n", header));
    }

    @Test
    void anOlderResultSaysNotRecordedForWhatItLacks() throws Exception {
        JsonNode old = Json.read(LAB.resolve("counters-quick/counters.json")).path("machine");
        MachineFacts m = Json.convert(old, MachineFacts.class);
        assertTrue(m.cpuinfo().notRecorded());
        assertEquals("AMD EPYC (model not recorded)", m.precise());
        assertTrue(m.header("").contains(System.lineSeparator() + NOT_RECORDED + System.lineSeparator()), m.header(""));
        assertTrue(m.header("").endsWith("latency facts: not recorded"), "the counter study's data predates them too");
    }

    @Test
    void reportsOfCommittedResultsPrintNotRecordedAndDoNotFail(@TempDir Path dir) throws Exception {
        Path counters = copy("counters-quick", "counters.json", dir);
        String out = stdout(0, "lab", "report", counters.toString());
        assertTrue(out.contains("machine: AMD EPYC, 2 cores; JDK 17.0.15") && out.contains("\n" + NOT_RECORDED + "\n"), out);

        Path signals = copy("signals-quick", "signals.json", dir);
        out = stdout(0, "lab", "signals", "--report", signals.toString());
        assertTrue(out.contains("machine: Intel(R) Xeon(R) Processor, 2 cores; JDK 17.0.15") && out.contains("\n" + NOT_RECORDED + "\n"), out);

        Path stores = copy("stores-quick", "stores.json", dir);
        out = stdout(0, "lab", "stores", "--report", stores.toString());
        assertTrue(out.startsWith("machine: Intel(R) Xeon(R) Processor, 2 cores; JDK 17.0.15") && out.contains("\n" + NOT_RECORDED + "\n"), out);
    }

    /** A folder in {@code dir} holding a copy of the committed {@code docs/lab/<run>/<json>}: a report rewrites its folder's files. */
    private static Path copy(String run, String json, Path dir) throws Exception {
        Path to = Files.createDirectories(dir.resolve(run));
        Files.copy(LAB.resolve(run).resolve(json), to.resolve(json));
        return to;
    }

    private static String stdout(int rc, String... args) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        int got;
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            got = LabMainAccess.execute(args);
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
        assertEquals(rc, got, out);
        return out;
    }
}
