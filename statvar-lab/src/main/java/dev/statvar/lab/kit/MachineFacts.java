package dev.statvar.lab.kit;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The machine a study ran on, as one value ({@link Machine}'s facts read once): for the report's
 * first line and the JSON's {@code machine} object, in a fixed order (the same run gives the same
 * file).
 */
public record MachineFacts(String cpu, int cores, String jdk, String vm, String topology, String latency) {
    /** This machine. */
    public static MachineFacts here() {
        return new MachineFacts(Machine.cpuModel(), Machine.cores(), Machine.jdk(), Machine.vm(), Machine.topology(), Machine.latencyFacts());
    }

    /** The facts as {@link #json()} wrote them into {@code n} (a report read again); a missing latency line says so. */
    public static MachineFacts of(com.fasterxml.jackson.databind.JsonNode n) {
        return new MachineFacts(n.path("cpu").asText(), n.path("cores").asInt(), n.path("jdk").asText(), n.path("vm").asText(),
                n.path("topology").asText(), n.path("latency").asText("latency facts: not recorded"));
    }

    /** {@code machine: <cpu>, <n> cores; JDK <version> (<vm>)}. */
    public String line() {
        return String.format(Locale.ROOT, "machine: %s, %d cores; JDK %s (%s)", cpu, cores, jdk, vm);
    }

    /** The JSON object: cpu, cores, jdk, vm, topology, latency ({@link LatencyFacts}). */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpu);
        m.put("cores", cores);
        m.put("jdk", jdk);
        m.put("vm", vm);
        m.put("topology", topology);
        m.put("latency", latency);
        return m;
    }
}
