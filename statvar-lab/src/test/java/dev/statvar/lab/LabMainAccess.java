package dev.statvar.lab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.CpuInfo;
import dev.statvar.lab.kit.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the lab's command line from tests in other packages, and the checks every study's smoke test makes. */
public final class LabMainAccess {
    private LabMainAccess() {
    }

    public static int execute(String... args) {
        return LabMain.commandLine().execute(args);
    }

    /** The lab's command line, as {@code ./statvar} builds it. */
    public static picocli.CommandLine commandLine() {
        return LabMain.commandLine();
    }

    /**
     * Asserts that each of {@code options} ({@code "--name value"}, split at spaces) makes
     * {@code lab <study>} refuse to run with the usage-error exit code 2.
     */
    public static void assertRefused(String study, String... options) {
        for (String o : options) {
            List<String> args = new ArrayList<>(List.of("lab", study));
            args.addAll(Arrays.asList(o.split(" ")));
            assertEquals(2, execute(args.toArray(String[]::new)), "refused with exit code 2: lab " + study + " " + o);
        }
    }

    /**
     * Asserts that {@code lab <study> --report <dir>} exits with {@code rc} and writes
     * {@code <dir>/<study>.json} again byte for byte: the report reads the data, it does not change it.
     */
    public static void assertReportRewritesSameJson(String study, Path dir, int rc) throws IOException {
        Path json = dir.resolve(study + ".json");
        String before = Files.readString(json);
        assertEquals(rc, execute("lab", study, "--report", dir.toString()));
        assertEquals(before, Files.readString(json), "the report written again is the same file");
    }

    /**
     * Asserts that a result's machine object (a study's {@code machine}, or the {@code info} that
     * holds its facts) names this machine's CPU precisely: vendor_id, cpu family, model, stepping,
     * model name and cpu MHz as /proc/cpuinfo gives them ({@link CpuInfo}), beside the cpu and cores.
     */
    public static void assertMachineFacts(JsonNode machine) {
        JsonNode c = machine.path("cpuinfo");
        for (String key : List.of("vendor_id", "cpu_family", "model", "stepping", "model_name", "cpu_mhz")) {
            assertTrue(c.path(key).isTextual() && !c.path(key).asText().isEmpty(), key + " in " + machine);
        }
        CpuInfo here = CpuInfo.here();
        CpuInfo written = Json.convert(c, CpuInfo.class);
        assertEquals(List.of(here.vendor(), here.family(), here.model(), here.stepping(), here.modelName()), List.of(written.vendor(),
                written.family(), written.model(), written.stepping(), written.modelName()), "this machine's /proc/cpuinfo"
                + " (cpu MHz may change between reads)");
        assertTrue(machine.path("cpu").isTextual() && machine.path("cores").asInt() > 0, machine.toString());
        assertTrue(machine.path("topology").asText().startsWith("topology: "), machine.toString());
        assertTrue(machine.path("latency").asText().startsWith("latency facts: "), machine.toString());
    }
}
