package dev.statvar.lab.kit;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.io.PrintStream;
import java.util.Locale;

/**
 * The machine a study ran on, as one value ({@link Machine}'s facts read once): for the report's
 * header lines and the JSON's {@code machine} object, in a fixed order (the same run gives the same
 * file). Every study prints and writes its machine through this record, so that every report and
 * result names the CPU precisely ({@link CpuInfo}) and a finished run read back prints the same
 * header, with "not recorded" for what an older result lacks.
 *
 * <p>Its JSON object ({@link Json}'s binding, in component order): {@code cpu}, {@code cpuinfo}
 * ({@link CpuInfo}), {@code cores}, {@code jdk}, {@code vm}, {@code topology}, {@code latency}. A
 * study's {@code machine} or {@code info} object holds these beside its own keys (a study's record
 * declares the facts {@code @JsonUnwrapped}), so reading the facts alone ignores the other keys. A
 * cpuinfo, topology or latency an older result lacks is null to the constructor, which records it
 * as not recorded. Immutable.
 *
 * @param cpu      the CPU's model name (or the architecture when /proc/cpuinfo does not say)
 * @param cpuinfo  vendor, family, model, stepping, model name and MHz ({@link CpuInfo})
 * @param topology the CPUs' topology ({@link Topology})
 * @param latency  what decides latency here ({@link LatencyFacts})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record MachineFacts(String cpu, CpuInfo cpuinfo, int cores, String jdk, String vm, String topology, String latency) {
    /** "Not recorded" for each of cpuinfo, topology and latency that is null (absent from the JSON it was read from). */
    public MachineFacts {
        cpuinfo = cpuinfo == null ? new CpuInfo(null, null, null, null, null, null) : cpuinfo;
        topology = topology == null ? "topology: not recorded" : topology;
        latency = latency == null ? "latency facts: not recorded" : latency;
    }

    /** This machine. */
    public static MachineFacts here() {
        CpuInfo c = Machine.cpuInfo();
        return new MachineFacts(Machine.cpuModel(c), c, Machine.cores(), Machine.jdk(), Machine.vm(), Machine.topology(),
                Machine.latencyFacts());
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
}
