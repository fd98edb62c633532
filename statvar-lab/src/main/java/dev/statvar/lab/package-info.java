/**
 * {@code ./statvar}: the root command. It registers the studies ({@code lab counters}, {@code lab
 * gauges}, {@code lab report}, {@code lab atomics}, {@code lab spin}, {@code lab soak}, {@code lab throughput}) and the {@code demo}, and
 * holds nothing else: no study and no part of the kit depends on this package
 * ({@code LabLayoutTest} checks the compiled classes).
 *
 * <p>The lab's shape: {@link dev.statvar.lab.kit} is what every study shares (machine and
 * topology, common options, results folder, progress, child processes, the disturbance rule,
 * JSON); each study is a package of its own that depends on the kit only, never on another study
 * or on this root.
 */
package dev.statvar.lab;
