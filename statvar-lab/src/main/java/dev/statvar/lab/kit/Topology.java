package dev.statvar.lab.kit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the CPUs the workers run on are, from {@code /sys/devices/system/cpu/cpu*}{@code /topology}:
 * separate cores, or SMT siblings of one core (which share its execution units and L1/L2, so
 * that two threads on them contend differently from two on separate cores). Under a hypervisor
 * ({@code hypervisor} in /proc/cpuinfo's flags) this is the topology the guest is shown; the
 * host's cores behind the vCPUs are not visible, and a claim that needs two separate physical
 * cores cannot be confirmed here.
 */
public final class Topology {
    private Topology() {
    }

    /** One line for the reports, read from this machine. */
    public static String describe() {
        return describe(Path.of("/sys/devices/system/cpu"), Path.of("/proc/cpuinfo"));
    }

    public static String describe(Path cpuDir, Path cpuinfo) {
        Map<String, String> siblings = new TreeMap<>(); // cpu -> thread_siblings_list
        Map<String, String> coreOf = new TreeMap<>();   // cpu -> package:core
        try (var dirs = Files.list(cpuDir)) {
            for (Path c : dirs.filter(p -> p.getFileName().toString().matches("cpu\\d+")).toList()) {
                Path t = c.resolve("topology");
                if (Files.isReadable(t.resolve("core_id"))) {
                    String cpu = c.getFileName().toString();
                    coreOf.put(cpu, read(t.resolve("physical_package_id")) + ":" + read(t.resolve("core_id")));
                    siblings.put(cpu, read(t.resolve("thread_siblings_list")));
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return "topology: unknown (" + cpuDir + " cannot be read)";
        }
        if (coreOf.isEmpty()) {
            return "topology: unknown (no " + cpuDir + "/cpu*/topology)";
        }
        int cores = new TreeSet<>(coreOf.values()).size();
        List<String> smt = new ArrayList<>();
        for (var e : siblings.entrySet()) {
            if (e.getValue().contains(",") || e.getValue().contains("-")) {
                smt.add(e.getKey() + " (siblings " + e.getValue() + ")");
            }
        }
        String shape = smt.isEmpty()
                ? String.format("%d CPUs on %d separate cores (no SMT siblings)", coreOf.size(), cores)
                : String.format("%d CPUs on %d cores; SMT siblings: %s", coreOf.size(), cores, String.join(", ", smt));
        String flags = CpuInfo.fields(CpuInfo.text(cpuinfo)).getOrDefault("flags", "");
        boolean hypervisor = (" " + flags + " ").contains(" hypervisor "); // no flags: say nothing about a hypervisor
        return "topology: " + shape + (hypervisor ? ", as a virtual machine shows them: whether the host's cores behind"
                + " the vCPUs are separate or SMT siblings (or shared with other guests) is not visible" : "");
    }

    private static String read(Path p) {
        try {
            return Files.readString(p).trim();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
