package dev.statvar.lab.atomics;

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

/**
 * {@code lab atomics} end to end, cut down to seconds: 100,000 increments, 1 and 2 threads,
 * delays 0 and 10. The native reference and the disassembly run where gcc and objdump are
 * installed (.ci/run installs both).
 */
@Tag("thorough")
class AtomicsSmokeTest {
    private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G'};

    @Test
    void atomicsEndToEnd(@TempDir Path dir) throws Exception {
        int rc = LabMainAccess.execute("lab", "atomics", "--count", "100000", "--threads", "1,2", "--delays", "0,10",
                "--repeats", "2", "--warmups", "0", "--out", dir.toString());
        assertEquals(0, rc);
        boolean gcc = dev.statvar.lab.kit.ChildProcess.onPath("gcc");
        boolean objdump = dev.statvar.lab.kit.ChildProcess.onPath("objdump");
        int impls = gcc ? 2 : 1;
        List<String> csv = Files.readAllLines(dir.resolve("atomics.csv"));
        assertTrue(csv.get(0).startsWith("case,impl,threads,count,ns_per_op,ops_per_sec,fairness,mean_run,"), csv.get(0));
        assertEquals(1 + 6 * impls * 2 * 2, csv.size(), "6 cases x impls x 2 delays x 2 thread counts");
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",", -1);
            AtomicCase c = AtomicCase.valueOf(f[0]);
            int threads = Integer.parseInt(f[2]);
            long count = Long.parseLong(f[3]);
            long ops = Long.parseLong(f[9]);
            assertEquals(f[8].equals("0") ? 100_000 : AtomicsStudy.countAt(100_000, 10), count, row);
            // the loop of Martin Thompson's "Further Adventures With CAS Instructions And Micro Benchmarking" (2013) as written does not look at the count inside its inner loop, so a thread may pass it by a few
            long late = c == AtomicCase.CAS_VAL_SEED ? Math.max(threads, count / 100) : threads;
            assertTrue(ops >= count && ops < count + late, "every increment counted, few late ones: " + row);
            assertTrue(Double.parseDouble(f[4]) > 0 && Double.parseDouble(f[5]) > 0, row);
            double fairness = Double.parseDouble(f[6]);
            assertTrue(fairness >= 1.0 / threads - 1e-9 && fairness <= 1 + 1e-9, row);
            if (c == AtomicCase.LOCK_ADD) {
                assertEquals("", f[7], "no values to sample: " + row);
                assertEquals(1.0, fairness, 1e-9, "equal shares by construction: " + row);
            } else {
                double meanRun = Double.parseDouble(f[7]);
                assertTrue(meanRun >= 1 && meanRun <= Fairness.WINDOW, row);
                if (threads == 1) {
                    assertTrue(meanRun > Fairness.WINDOW - 2, "one thread: one run per window: " + row);
                }
            }
            assertEquals(threads, f[14].split(";").length, row);
            assertTrue(Integer.parseInt(f[16]) >= 0 && Integer.parseInt(f[16]) <= 2 * 3, "redone, at most 3 per run: " + row);
            assertEquals(Long.parseLong(f[9]) * Double.parseDouble(f[4]) / 1e6, Double.parseDouble(f[15]),
                    Double.parseDouble(f[15]) * 1e-3 + 1e-3, "duration = ops x ns/op: " + row);
        }
        assertEquals(gcc, csv.stream().anyMatch(r -> r.contains(",native,")), "native rows exactly when gcc is there");

        JsonNode json = new ObjectMapper().readTree(dir.resolve("atomics.json").toFile());
        assertEquals("atomics", json.get("study").asText());
        assertTrue(json.get("machine").get("topology").asText().startsWith("topology: "), "the CPUs' topology is reported");
        LabMainAccess.assertMachineFacts(json.get("machine"));
        assertEquals(csv.size() - 1, json.get("cells").size());
        assertEquals(2 * (csv.size() - 1), json.get("runs").size(), "every measured repeat");
        for (AtomicCase c : AtomicCase.values()) {
            byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(dir.resolve("atomics-" + c.name().toLowerCase() + ".png")), 4);
            assertEquals(new String(PNG, java.nio.charset.StandardCharsets.ISO_8859_1),
                    new String(head, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
        if (objdump) {
            // the JIT's code of every Java loop has its locked instruction
            JsonNode locked = json.get("locked_instructions");
            for (AtomicCase c : AtomicCase.values()) {
                String java = locked.get(c.name()).get("java").toString();
                assertTrue(java.contains(c == AtomicCase.CAS_BOOL || c == AtomicCase.CAS_VAL || c == AtomicCase.CAS_VAL_SEED ? "lock cmpxchg" : "lock "), c + ": " + java);
                if (gcc) {
                    String nat = locked.get(c.name()).get("native").toString();
                    assertTrue(nat.contains(switch (c) {
                        case ATOMICLONG, CAS_BOOL, CAS_VAL, CAS_VAL_SEED -> "lock cmpxchg";
                        case LOCK_ADD -> "lock add";
                        case LOCK_XADD -> "lock xadd";
                    }), c + ": " + nat);
                }
            }
            assertTrue(Files.readString(dir.resolve("asm-java.txt")).contains(">> "));
        }
    }

    @Test
    void badArgumentsAreRefusedWithAMessage() {
        LabMainAccess.assertRefused("atomics",
                "--threads 0",
                "--count 5",
                "--cases NOPE",
                "--delays 0,0",
                "--repeats 0");
    }
}
