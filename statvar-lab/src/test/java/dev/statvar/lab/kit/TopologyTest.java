package dev.statvar.lab.kit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link Topology} from a made-up /sys/devices/system/cpu and /proc/cpuinfo. */
class TopologyTest {

    @Test
    void topologySaysSeparateCoresOrSmtSiblingsAndWhenAHypervisorHidesTheHost(@TempDir Path dir) throws Exception {
        Path info = dir.resolve("cpuinfo");
        cpu(dir, 0, 0, "0");
        cpu(dir, 1, 1, "1");
        Files.writeString(info, "model name\t: X\nflags\t\t: fpu sse2 hypervisor avx\n");
        String sep = Topology.describe(dir, info);
        assertTrue(sep.contains("2 CPUs on 2 separate cores"), sep);
        assertTrue(sep.contains("not visible"), sep);
        cpu(dir, 0, 0, "0,1");
        cpu(dir, 1, 0, "0,1");
        Files.writeString(info, "flags\t\t: fpu sse2 avx\n");
        String smt = Topology.describe(dir, info);
        assertTrue(smt.contains("2 CPUs on 1 cores; SMT siblings: cpu0 (siblings 0,1), cpu1 (siblings 0,1)"), smt);
        assertFalse(smt.contains("not visible"), smt);
        assertTrue(Topology.describe(dir.resolve("none"), info).contains("unknown"));
    }

    private static void cpu(Path dir, int cpu, int core, String siblings) throws Exception {
        Path t = Files.createDirectories(dir.resolve("cpu" + cpu).resolve("topology"));
        Files.writeString(t.resolve("core_id"), core + "\n");
        Files.writeString(t.resolve("physical_package_id"), "0\n");
        Files.writeString(t.resolve("thread_siblings_list"), siblings + "\n");
    }
}
