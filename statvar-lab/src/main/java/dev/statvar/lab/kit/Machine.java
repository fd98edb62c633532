package dev.statvar.lab.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What the studies run on: CPU model, cores, JDK, the CPUs' topology, and the default thread counts. */
public final class Machine {
    private Machine() {
    }

    /** The CPU's model name from /proc/cpuinfo, or the architecture when it cannot be read. */
    public static String cpuModel() {
        Path ci = Path.of("/proc/cpuinfo");
        try {
            if (Files.isReadable(ci)) {
                for (String l : Files.readAllLines(ci)) {
                    if (l.startsWith("model name")) {
                        return l.substring(l.indexOf(':') + 1).trim();
                    }
                }
            }
        } catch (IOException ignored) {
            // fall through
        }
        return System.getProperty("os.arch") + " (model unknown)";
    }

    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }

    public static String jdk() {
        return System.getProperty("java.version");
    }

    public static String vm() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version");
    }

    /** The CPUs' topology line ({@link Topology}). */
    public static String topology() {
        return Topology.describe();
    }

    /** What decides latency here besides the CPU: clock source, idle states, governor, turbo, isolated CPUs ({@link LatencyFacts}). */
    public static String latencyFacts() {
        return LatencyFacts.describe();
    }

    /** The studies' default thread counts: 1 .. cores, then 2 x cores (oversubscribed). */
    public static List<Integer> defaultThreads() {
        int cores = cores();
        List<Integer> th = new ArrayList<>();
        for (int i = 1; i <= cores; i++) {
            th.add(i);
        }
        th.add(2 * cores);
        return th;
    }
}
