package dev.statvar.lab.kit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyFactsTest {

    private static void write(Path p, String text) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text + "\n");
    }

    @Test
    void aBareMetalMachineSaysWhatItHas(@TempDir Path sys) throws Exception {
        write(sys.resolve("clocksource/clocksource0/current_clocksource"), "tsc");
        write(sys.resolve("clocksource/clocksource0/available_clocksource"), "tsc hpet acpi_pm");
        write(sys.resolve("cpu/cpuidle/current_driver"), "intel_idle");
        write(sys.resolve("cpu/cpu0/cpuidle/state0/name"), "POLL");
        write(sys.resolve("cpu/cpu0/cpuidle/state0/latency"), "0");
        write(sys.resolve("cpu/cpu0/cpuidle/state1/name"), "C6");
        write(sys.resolve("cpu/cpu0/cpuidle/state1/latency"), "133");
        write(sys.resolve("cpu/cpu0/cpuidle/state1/disable"), "1");
        write(sys.resolve("cpu/cpu0/cpufreq/scaling_governor"), "performance");
        write(sys.resolve("cpu/intel_pstate/no_turbo"), "1");
        write(sys.resolve("cpu/isolated"), "2-3");
        assertEquals("latency facts: clocksource tsc (available: tsc hpet acpi_pm); idle states POLL 0 us, C6 133 us (disabled)"
                + " (exit latency; cpu0, driver intel_idle); frequency governor performance; turbo off; isolated CPUs 2-3",
                LatencyFacts.describe(sys));
    }

    @Test
    void whatTheMachineDoesNotSayIsUnknown(@TempDir Path sys) throws Exception {
        assertEquals("latency facts: clocksource unknown; idle states unknown (no cpuidle in /sys); frequency governor unknown"
                + " (no cpufreq); turbo unknown; isolated CPUs unknown", LatencyFacts.describe(sys));
        write(sys.resolve("cpu/cpuidle/current_driver"), "none");
        write(sys.resolve("cpu/isolated"), "");
        write(sys.resolve("cpu/cpufreq/boost"), "1");
        String d = LatencyFacts.describe(sys);
        assertTrue(d.contains("idle states none exposed (cpuidle driver: none)") && d.contains("isolated CPUs none")
                && d.contains("turbo on"), d);
    }
}
