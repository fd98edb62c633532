/**
 * The lab's kit: what every study shares, and nothing study-specific.
 * <ul>
 *   <li>{@link dev.statvar.lab.kit.Machine}, {@link dev.statvar.lab.kit.CpuInfo},
 *       {@link dev.statvar.lab.kit.Topology} and {@link dev.statvar.lab.kit.LatencyFacts}: the CPU
 *       precisely (vendor, family, model, stepping, model name, MHz), cores, JDK, whether the CPUs
 *       are separate cores or SMT siblings, and what decides latency (clock source, idle states,
 *       governor, turbo, isolated CPUs), for every report;</li>
 *   <li>{@link dev.statvar.lab.kit.StudyOptions}: the options every study takes
 *       ({@code --quick --out --report}); {@link dev.statvar.lab.kit.SweepOptions}: those of the
 *       studies that sweep thread counts and repeat runs ({@code --threads --repeats --warmups}),
 *       with their checks; {@link dev.statvar.lab.kit.Usage}: the one way a study reports a usage
 *       error;</li>
 *   <li>{@link dev.statvar.lab.kit.ResultsFolder}, {@link dev.statvar.lab.kit.Progress},
 *       {@link dev.statvar.lab.kit.Json};</li>
 *   <li>{@link dev.statvar.lab.kit.ChildProcess}: a fresh JVM per implementation or case (no JIT
 *       profile carried over), or a native program, optionally killed at a time limit;</li>
 *   <li>{@link dev.statvar.lab.kit.JitCode}: the machine code the JIT made of a method;</li>
 *   <li>{@link dev.statvar.lab.kit.LogChart}: a line chart on a log scale;</li>
 *   <li>{@link dev.statvar.lab.kit.StudyResults}: what a study registers for {@code lab report}
 *       and docs/LAB.md (its name, its data file, its report again, its tables), found through
 *       {@link java.util.ServiceLoader} so that the report command names no study's files;</li>
 *   <li>{@link dev.statvar.lab.kit.Disturbance}: when a run counts as disturbed by the host and
 *       is made again.</li>
 *   <li>{@link dev.statvar.lab.kit.MachineFacts}: the machine as one value, for a report's header
 *       lines and its JSON; every study prints and writes its machine through it;</li>
 *   <li>{@link dev.statvar.lab.kit.Timeline}: a run second by second (as in Cliff Click's "A Pair of (somebody else's) Concurrency Bugs"): each worker's ops
 *       from a statvar counter collected every second, with the second's JIT and OSR compilations
 *       and GC pauses ({@link dev.statvar.lab.kit.JitGcEvents}, JFR) and each worker's CPU
 *       migrations ({@link dev.statvar.lab.kit.ThreadCpus}, /proc), as
 *       {@link dev.statvar.lab.kit.TimelineSecond}s; {@link dev.statvar.lab.kit.Steadiness}: the
 *       first steady second, the steady seconds' spread, and whether they sit at two levels.</li>
 * </ul>
 * The kit depends on no study and not on the root command. The counter study's charts and
 * published figures of an article stay with it: they have its format.
 */
package dev.statvar.lab.kit;
