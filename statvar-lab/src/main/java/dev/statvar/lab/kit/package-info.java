/**
 * The lab's kit: what two or more studies use, and nothing one study alone uses (that lives in the
 * study's package; {@code KitContentsTest} checks it on the compiled classes).
 * <ul>
 *   <li>{@link dev.statvar.lab.kit.Machine}, {@link dev.statvar.lab.kit.CpuInfo},
 *       {@link dev.statvar.lab.kit.Topology} and {@link dev.statvar.lab.kit.LatencyFacts}: the CPU
 *       precisely (vendor, family, model, stepping, model name, MHz), cores, JDK, whether the CPUs
 *       are separate cores or SMT siblings, and what decides latency (clock source, idle states,
 *       governor, turbo, isolated CPUs); {@link dev.statvar.lab.kit.MachineFacts}: all of it as
 *       one value, for a report's header lines and its JSON. Every study prints and writes its
 *       machine through them;</li>
 *   <li>{@link dev.statvar.lab.kit.LoadAverage}: how busy the machine was before and after a
 *       study's runs (/proc/loadavg); {@link dev.statvar.lab.kit.CpuStalls}: what kept runnable threads
 *       off a CPU around a child JVM (the hypervisor's steal, the cgroup's throttling, CPU pressure);</li>
 *   <li>{@link dev.statvar.lab.kit.Verdict}: the one verdict scheme every study's claims use;</li>
 *   <li>{@link dev.statvar.lab.kit.StudyOptions}: the options every study takes
 *       ({@code --quick --out --report}); {@link dev.statvar.lab.kit.SweepOptions}: those of the
 *       studies that sweep thread counts and repeat runs ({@code --threads --repeats --warmups}),
 *       with their checks; {@link dev.statvar.lab.kit.Usage}: the one way a study reports a usage
 *       error;</li>
 *   <li>{@link dev.statvar.lab.kit.ResultsFolder}, {@link dev.statvar.lab.kit.Progress},
 *       {@link dev.statvar.lab.kit.Json}: where results go, the progress line, the JSON files;</li>
 *   <li>{@link dev.statvar.lab.kit.ChildProcess}: a fresh JVM per implementation or case (no JIT
 *       profile carried over), or a native program, optionally killed at a time limit;</li>
 *   <li>{@link dev.statvar.lab.kit.HostSlowdown}: when the host slowed a run down, so that the run
 *       counts as disturbed and is made again;</li>
 *   <li>{@link dev.statvar.lab.kit.JitCode}: the machine code the JIT made of a method;</li>
 *   <li>{@link dev.statvar.lab.kit.JfrStream}: a JFR stream stopped once every event up to a
 *       moment has been handed to its actions;</li>
 *   <li>{@link dev.statvar.lab.kit.LogChart}: a line chart on a log scale;</li>
 *   <li>{@link dev.statvar.lab.kit.StudyResults}: what a study registers for {@code lab report}
 *       and docs/LAB.md (its name, its data file, its report again, its tables), found through
 *       {@link java.util.ServiceLoader} so that the report command names no study's files.</li>
 * </ul>
 * The kit depends on no study and not on the root command. One study's tools stay with it: the
 * throughput study's per-second timeline ({@code Timeline}, {@code Steadiness}), the counter
 * study's charts and an article's published figures.
 */
package dev.statvar.lab.kit;
