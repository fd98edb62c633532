package dev.statvar.lab.kit;

import java.util.ArrayList;
import java.util.List;

/** What the studies run on: the CPU ({@link CpuInfo}), cores, JDK, the CPUs' topology, and the default thread counts. */
public final class Machine {
    private Machine() {
    }

    /** The CPU's model name from /proc/cpuinfo, or the architecture when it does not say. */
    public static String cpuModel() {
        return cpuModel(cpuInfo());
    }

    /** {@code cpu}'s model name, or the architecture when /proc/cpuinfo does not say. */
    static String cpuModel(CpuInfo cpu) {
        return cpu.modelName().equals(CpuInfo.UNKNOWN) ? System.getProperty("os.arch") + " (model unknown)" : cpu.modelName();
    }

    /** The CPU precisely: vendor, family, model, stepping, model name, MHz ({@link CpuInfo}). */
    public static CpuInfo cpuInfo() {
        return CpuInfo.here();
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
