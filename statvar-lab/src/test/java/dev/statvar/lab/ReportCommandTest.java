package dev.statvar.lab;

import dev.statvar.lab.kit.StudyResults;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code lab report} at the root: it finds a study only through what the study registers
 * ({@link StudyResults}) and prints a finished run of every registered study again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReportCommandTest {
    private static final Path DATA = Path.of("..", "docs", "lab");

    @TempDir
    Path tmp;

    /** Every study registers itself but throughput (whose data has no reader yet), under its command's name. */
    @Test
    void everyStudyButThroughputRegistersItsResults() {
        Set<String> registered = new TreeSet<>();
        for (StudyResults s : StudyResults.all()) {
            registered.add(s.study());
            assertEquals(s.study() + ".json", s.json());
        }
        Set<String> expected = new TreeSet<>(StudyOptionsTest.STUDIES);
        expected.remove("throughput");
        assertEquals(expected, registered);
    }

    /** The committed run of each study (docs/lab/FOLDER), copied, printed again: exit code 0 and a report. */
    @ParameterizedTest
    @ValueSource(strings = {"counters-quick", "gauges", "atomics", "spin-quick", "signals-quick", "stores-quick", "locks-quick",
            "hiccups-quick", "ordered-quick"})
    void reportPrintsAFinishedRunOfEveryRegisteredStudyAgain(String folder) throws IOException {
        Path dir = copy(DATA.resolve(folder));
        CommandLine cl = LabMain.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.out;
        int rc;
        System.setOut(new java.io.PrintStream(out, true));
        try {
            rc = cl.execute("lab", "report", dir.toString());
        } finally {
            System.setOut(was);
        }
        assertEquals(0, rc, "lab report " + folder + ": " + err);
        assertTrue(out.size() > 500, "a report was printed for " + folder + ": " + out);
    }

    /** A study's own --report reads the same folder: the studies that gained it (counters, gauges, atomics). */
    @ParameterizedTest
    @ValueSource(strings = {"counters:counters-quick", "gauges:gauges", "atomics:atomics"})
    void theStudysOwnReportOptionPrintsItToo(String studyAndFolder) throws IOException {
        String[] sf = studyAndFolder.split(":");
        Path dir = copy(DATA.resolve(sf[1]));
        java.io.PrintStream was = System.out;
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(out, true));
        String[] r;
        try {
            r = StudyOptionsTest.run("lab", sf[0], "--report", dir.toString());
        } finally {
            System.setOut(was);
        }
        assertEquals("0", r[0], r[1]);
        assertTrue(out.size() > 500, "a report was printed: " + out);
    }

    /**
     * Throughput registers nothing (no full reader of its JSON yet): lab report refuses its folder (exit 2); its own
     * --report judges the pitfalls' verdicts again from the rates in the data, in the scheme's words, and leaves the
     * rest of the file as it was.
     */
    @Test
    void aThroughputRunIsJudgedAgainNotMisread() throws IOException {
        Path dir = copy(DATA.resolve("throughput-quick"));
        com.fasterxml.jackson.databind.JsonNode before = dev.statvar.lab.kit.Json.read(dir.resolve("throughput.json"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) before.get("cells").get(9)).put("verdict", "not reproduced (old words)");
        dev.statvar.lab.kit.Json.write(dir.resolve("throughput.json"), before);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.PrintStream was = System.out;
        System.setOut(new java.io.PrintStream(out, true));
        String[] own;
        try {
            own = StudyOptionsTest.run("lab", "throughput", "--report", dir.toString());
        } finally {
            System.setOut(was);
        }
        assertEquals("0", own[0], own[1]);
        assertTrue(out.toString().contains("profile pollution, queue second: 0.95x alone: within noise (within 10 %)"), out.toString());
        com.fasterxml.jackson.databind.JsonNode after = dev.statvar.lab.kit.Json.read(dir.resolve("throughput.json"));
        assertEquals("profile_pollution", after.get("cells").get(9).get("pitfall").asText());
        assertEquals("within noise (within 10 %)", after.get("cells").get(9).get("verdict").asText());
        ((com.fasterxml.jackson.databind.node.ObjectNode) before.get("cells").get(9)).put("verdict", "within noise (within 10 %)");
        assertEquals(before, after, "nothing else changed");
        String[] report = StudyOptionsTest.run("lab", "report", dir.toString());
        assertEquals("2", report[0]);
        assertTrue(report[1].startsWith("statvar: no study's data in " + dir), report[1]);
    }

    @Test
    void aFolderWithoutAnyStudysDataNamesTheFilesItLookedFor() {
        String[] r = StudyOptionsTest.run("lab", "report", tmp.toString());
        assertEquals("2", r[0]);
        assertTrue(r[1].startsWith("statvar: no study's data in " + tmp + " (one of counters.json, gauges.json, atomics.json"), r[1]);
    }

    @Test
    void aRuleIsRefusedForAStudyReportedOneWayOnly() throws IOException {
        Path dir = copy(DATA.resolve("locks-quick"));
        String[] r = StudyOptionsTest.run("lab", "report", dir.toString(), "--rule", "article");
        assertEquals(List.of("2", "statvar: --rule: a locks run is reported one way only"), List.of(r[0], r[1].lines().findFirst().orElse("")));
    }

    private Path copy(Path from) throws IOException {
        Path to = Files.createDirectories(tmp.resolve(from.getFileName()));
        try (Stream<Path> files = Files.list(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return to;
    }
}
