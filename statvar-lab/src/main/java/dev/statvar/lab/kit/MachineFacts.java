package dev.statvar.lab.kit;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The machine a study ran on, as one value ({@link Machine}'s facts read once): for the report's
 * header lines and the JSON's {@code machine} object, in a fixed order (the same run gives the same
 * file). Every study prints and writes its machine through this record, so that every report and
 * result names the CPU precisely ({@link CpuInfo}) and a finished run read back prints the same
 * header, with "not recorded" for what an older result lacks.
 *
 * @param cpu      the CPU's model name (or the architecture when /proc/cpuinfo does not say)
 * @param cpuinfo  vendor, family, model, stepping, model name and MHz ({@link CpuInfo})
 * @param topology the CPUs' topology ({@link Topology})
 * @param latency  what decides latency here ({@link LatencyFacts})
 */
public record MachineFacts(String cpu, CpuInfo cpuinfo, int cores, String jdk, String vm, String topology, String latency) {
    /** This machine. */
    public static MachineFacts here() {
        CpuInfo c = Machine.cpuInfo();
        return new MachineFacts(Machine.cpuModel(c), c, Machine.cores(), Machine.jdk(), Machine.vm(), Machine.topology(),
                Machine.latencyFacts());
    }

    /** The facts {@link #json()} wrote into {@code n}; what a result from before them lacks says "not recorded". */
    public static MachineFacts of(JsonNode n) {
        return new MachineFacts(n.path("cpu").asText(), CpuInfo.of(n.path("cpuinfo")), n.path("cores").asInt(), n.path("jdk").asText(),
                n.path("vm").asText(), n.path("topology").asText("topology: not recorded"),
                n.path("latency").asText("latency facts: not recorded"));
    }

    /** The report's header lines: {@link #line()}, the CPU's, the topology and the latency facts. */
    public void print(PrintStream out) {
        print(out, "");
    }

    /** As {@link #print(PrintStream)}, with {@code more} (e.g. {@code ", kernel 6.1"}) at the end of the first line. */
    public void print(PrintStream out, String more) {
        out.println(header(more));
    }

    /** The header lines {@link #print(PrintStream, String)} prints, as one string (no line separator at its end). */
    public String header(String more) {
        return String.join(System.lineSeparator(), line() + more, cpuinfo.line(), topology, latency);
    }

    /** {@code machine: <cpu>, <n> cores; JDK <version> (<vm>)}. */
    public String line() {
        return String.format(Locale.ROOT, "machine: %s, %d cores; JDK %s (%s)", cpu, cores, jdk, vm);
    }

    /** The CPU for a document's table: model name, vendor, family, model, stepping, MHz ({@link CpuInfo#precise}). */
    public String precise() {
        return cpuinfo.precise(cpu);
    }

    /** The JSON object: cpu, cpuinfo ({@link CpuInfo#json()}), cores, jdk, vm, topology, latency ({@link LatencyFacts}). */
    public Map<String, Object> json() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu", cpu);
        m.put("cpuinfo", cpuinfo.json());
        m.put("cores", cores);
        m.put("jdk", jdk);
        m.put("vm", vm);
        m.put("topology", topology);
        m.put("latency", latency);
        return m;
    }
}
