/**
 * {@code ./statvar}: the root command; it registers every command, one line each here.
 * <ul>
 *   <li>{@code ./statvar demo [--port N] [--seconds N]}: the export endpoint over a small multi-threaded workload;</li>
 *   <li>{@code ./statvar lab counters [--quick]}: the counters of "Statistical variables in Java: not quite legal but very fast" (2017), each in its own JVM;</li>
 *   <li>{@code ./statvar lab gauges [--quick]}: that article's gauges;</li>
 *   <li>{@code ./statvar lab atomics [--quick]}: Martin Thompson's "Adventures with AtomicLong" (2011) and "Further Adventures With CAS Instructions And Micro Benchmarking" (2013);</li>
 *   <li>{@code ./statvar lab spin [--quick]}: the barrier of Cliff Click's "A Pair of (somebody else's) Concurrency Bugs", oversubscribed;</li>
 *   <li>{@code ./statvar lab throughput [--quick]}: that article's Disruptor harness made honest, second by second;</li>
 *   <li>{@code ./statvar lab signals [--quick]}: Jean-Philippe Bempel's "Notify... oh, wait! I have a signal." (2015);</li>
 *   <li>{@code ./statvar lab stores [--quick]}: Bempel's "Volatile and memory barriers" (2015): each kind of store and its barrier;</li>
 *   <li>{@code ./statvar lab locks [--quick]}: Jean-Philippe Bempel's lock contention profiler ("Measuring contention on locks", 2015), made of statvar-probes' locks;</li>
 *   <li>{@code ./statvar lab hiccups [--quick]}: statvar-probes' HiccupMeter through four disturbances;</li>
 *   <li>{@code ./statvar lab ordered [--quick]}: Bempel's "Ordered Scheduler" (2015) against a synchronized section and a consumer thread;</li>
 *   <li>{@code ./statvar lab report DIR [--doc docs/LAB.md]}: a finished run of any study printed again; a document's tables regenerated;</li>
 *   <li>{@code ./statvar lab verdicts [--lab docs/lab] [--doc docs/LAB.md]}: the articles' claims decided from the committed runs and their repeats, in the one verdict scheme;</li>
 *   <li>{@code ./statvar lab soak [--minutes N]}: statvar itself under thread churn, virtual threads and concurrent scrapes;</li>
 *   <li>{@code ./statvar example [--seconds N] [--threads N] [--interval-ms N]}: the usage example (examples/Example.java);</li>
 *   <li>{@code ./statvar boot-example [--server.port=N]}: the Spring Boot example (examples/spring-boot).</li>
 * </ul>
 * Where to start, as the footer says: {@code ./statvar lab counters --quick}.
 * Every study takes {@code --quick}, {@code --out DIR} and {@code --report DIR}
 * ({@link dev.statvar.lab.kit.StudyOptions}); those that sweep thread counts and repeat runs also
 * {@code --threads}, {@code --repeats}, {@code --warmups} ({@link dev.statvar.lab.kit.SweepOptions}).
 * The root holds the commands, {@code lab report} ({@code ReportCommand}), the claims and their
 * verdict table ({@code LabClaims}, {@code Claim}, {@code VerdictTable}, {@code lab verdicts}) and the
 * document check ({@code LabDoc}), which find a study's files only through what it registers
 * ({@link dev.statvar.lab.kit.StudyResults}). No study and no part of the kit depends on this
 * package or names another study's files ({@code LabLayoutTest} checks the compiled classes).
 *
 * <p>The lab's shape: {@link dev.statvar.lab.kit} is what every study shares (machine and
 * topology, common options, the usage error, results folder, progress, child processes, JSON);
 * each study is a package of its own that depends on the kit only, never on another study or on
 * this root.
 */
package dev.statvar.lab;
