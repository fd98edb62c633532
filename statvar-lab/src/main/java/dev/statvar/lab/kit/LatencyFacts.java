package dev.statvar.lab.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What decides latency on this machine besides the CPU model (Jean-Philippe Bempel, 2015, "Why BIOS settings
 * matter"): the clock source behind {@code System.nanoTime}, the CPU idle states and their exit
 * latency, the frequency governor, turbo, and isolated CPUs; read from Linux's {@code /sys}, each
 * "unknown" where the machine does not say (a virtual machine often exposes no idle states and no
 * frequency control: its vCPUs idle and run at the host's will).
 */
public final class LatencyFacts {
    private LatencyFacts() {
    }

    /** This machine's line ({@code /sys}). */
    public static String describe() {
        return describe(Path.of("/sys/devices/system"));
    }

    /**
     * {@code latency facts: clocksource ...; idle states ...; frequency governor ...; turbo ...;
     * isolated CPUs ...}, read under {@code sys} ({@code /sys/devices/system}).
     */
    public static String describe(Path sys) {
        Path cpu = sys.resolve("cpu");
        String clock = read(sys.resolve("clocksource/clocksource0/current_clocksource"));
        String clocks = read(sys.resolve("clocksource/clocksource0/available_clocksource"));
        String clockText = clock == null ? "unknown" : clock + (clocks == null || clocks.equals(clock) ? "" : " (available: " + clocks + ")");
        return String.format(Locale.ROOT, "latency facts: clocksource %s; idle states %s; frequency governor %s; turbo %s;"
                + " isolated CPUs %s", clockText, idleStates(cpu), governor(cpu), turbo(cpu), isolated(cpu));
    }

    /** cpu0's idle states with their exit latency, and the cpuidle driver; "unknown" without cpuidle. */
    static String idleStates(Path cpu) {
        String driver = read(cpu.resolve("cpuidle/current_driver"));
        Path states = cpu.resolve("cpu0/cpuidle");
        List<String> found = new ArrayList<>();
        for (int i = 0; Files.isDirectory(states.resolve("state" + i)); i++) {
            Path s = states.resolve("state" + i);
            String name = read(s.resolve("name"));
            String latency = read(s.resolve("latency"));
            String disabled = read(s.resolve("disable"));
            found.add(String.format(Locale.ROOT, "%s %s us%s", name == null ? "state" + i : name,
                    latency == null ? "?" : latency, "1".equals(disabled) ? " (disabled)" : ""));
        }
        if (found.isEmpty()) {
            return driver == null ? "unknown (no cpuidle in /sys)" : "none exposed (cpuidle driver: " + driver + ")";
        }
        return String.join(", ", found) + " (exit latency; cpu0" + (driver == null ? "" : ", driver " + driver) + ")";
    }

    /** cpu0's cpufreq scaling governor, or unknown. */
    static String governor(Path cpu) {
        String g = read(cpu.resolve("cpu0/cpufreq/scaling_governor"));
        return g == null ? "unknown (no cpufreq)" : g;
    }

    /** Turbo on or off: intel_pstate's no_turbo, or cpufreq's boost; unknown when neither exists. */
    static String turbo(Path cpu) {
        String noTurbo = read(cpu.resolve("intel_pstate/no_turbo"));
        if (noTurbo != null) {
            return noTurbo.equals("0") ? "on" : "off";
        }
        String boost = read(cpu.resolve("cpufreq/boost"));
        if (boost != null) {
            return boost.equals("1") ? "on" : "off";
        }
        return "unknown";
    }

    /** The isolated CPUs (isolcpus), "none", or unknown. */
    static String isolated(Path cpu) {
        String iso = read(cpu.resolve("isolated"));
        return iso == null ? "unknown" : iso.isEmpty() ? "none" : iso;
    }

    private static String read(Path p) {
        try {
            return Files.isReadable(p) ? Files.readString(p).trim() : null;
        } catch (IOException e) {
            return null;
        }
    }
}
