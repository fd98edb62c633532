/**
 * Cliff Click's "A Pair of (somebody else's) Concurrency Bugs" (Azul Systems blog), first half: the Java Grande LUFact
 * barrier, {@code ./statvar lab spin}.
 *
 * <p><b>Protocol</b>: N worker threads do a share of the article's work ({@code A[i] = fcn(A[i])})
 * and meet at a barrier, episode after episode, for a warm-up and then a measured window. Nine
 * {@link dev.statvar.lab.spin.BarrierDesign}s, each in a fresh JVM
 * ({@link dev.statvar.lab.spin.SpinRunner}), at 1 .. cores threads and 2, 4, 8 x cores, with work
 * and without. Each run reports episodes, the barrier waits (a statvar histogram, its warm-up
 * interval dropped), the workers' user and system CPU (ThreadMXBean) and context switches
 * ({@code /proc/self/task/<tid>/status}, workers picked out by thread name). A run without an
 * episode for {@code --hang-ms} is HUNG: its JVM halts itself (or is killed at its time limit)
 * and the remaining cells go on in a fresh one. {@link dev.statvar.lab.spin.YieldProbe} measures
 * {@code Thread.yield()} on one CPU; the JIT's code of the plain spin loop is printed
 * ({@link dev.statvar.lab.kit.JitCode}).
 *
 * <p><b>Outputs</b>: the console tables with the article's figure beside the oversubscribed rows and
 * its claims classified ({@link dev.statvar.lab.spin.Verdicts}), {@code spin.csv} (every run),
 * {@code spin.json}, {@code spin-work-<n>.png} (time per episode against threads, log scale) and
 * {@code spin-plain-loop.txt}.
 */
package dev.statvar.lab.spin;
