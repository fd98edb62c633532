/**
 * Martin Thompson's "Adventures with AtomicLong" (2011) and "Further Adventures With CAS
 * Instructions And Micro Benchmarking" (2013): {@code ./statvar lab atomics}.
 *
 * <p><b>Protocol</b>: N threads increment one shared counter in six ways
 * ({@link dev.statvar.lab.atomics.AtomicCase}), in Java (a fresh JVM per case,
 * {@link dev.statvar.lab.atomics.AtomicsRunner}) and in C ({@code atomics.c}, compiled here),
 * with and without work between increments; each run's shares and sampled values give Jain's
 * fairness index and the mean run length, and a probe after each run checks for disturbance.
 *
 * <p><b>Outputs</b>: the console tables beside the articles' figures, {@code atomics.csv},
 * {@code atomics.json}, a chart per case, and the locked instructions of every loop
 * ({@link dev.statvar.lab.atomics.Disassembly}).
 */
package dev.statvar.lab.atomics;
