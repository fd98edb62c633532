/**
 * The lab's kit: what every study shares, and nothing study-specific.
 * <ul>
 *   <li>{@link dev.statvar.lab.kit.Machine} and {@link dev.statvar.lab.kit.Topology}: the CPU,
 *       cores, JDK and whether the CPUs are separate cores or SMT siblings, for every report;</li>
 *   <li>{@link dev.statvar.lab.kit.CommonOptions}: the options every measuring study takes
 *       ({@code --quick --threads --repeats --warmups --out}) and their checks;</li>
 *   <li>{@link dev.statvar.lab.kit.ResultsFolder}, {@link dev.statvar.lab.kit.Progress},
 *       {@link dev.statvar.lab.kit.Json};</li>
 *   <li>{@link dev.statvar.lab.kit.ChildProcess}: a fresh JVM per implementation or case (no JIT
 *       profile carried over), or a native program;</li>
 *   <li>{@link dev.statvar.lab.kit.Disturbance}: when a run counts as disturbed by the host and
 *       is made again.</li>
 * </ul>
 * The kit depends on no study and not on the root command. Charts and published seed figures stay
 * with the study whose format they have until a second study needs them.
 */
package dev.statvar.lab.kit;
