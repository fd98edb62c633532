/**
 * Cliff Click's "A Pair of (somebody else's) Concurrency Bugs" (Azul Systems blog), its second half: the Disruptor's
 * throughput harness): {@code ./statvar lab throughput}.
 *
 * <p><b>Protocol</b>: a producer thread hands consecutive values to a consumer thread through an
 * {@code ArrayBlockingQueue} ({@link dev.statvar.lab.throughput.QueueHandoff}) and through a
 * Disruptor-like single-producer single-consumer ring
 * ({@link dev.statvar.lab.throughput.RingHandoff}: bounded spin, then {@code parkNanos}; never
 * {@code Thread.yield}), each in a fresh JVM ({@link dev.statvar.lab.throughput.HandoffRunner}),
 * for a number of full seconds. {@link dev.statvar.lab.throughput.Timeline} counts each
 * second's ops per worker (statvar counters collected every second: exact), the second's JIT and
 * OSR compilations and GC pauses (JFR) and each worker's CPU migrations (/proc);
 * {@link dev.statvar.lab.throughput.Steadiness} finds the first steady second and flags two levels. The
 * two implementations are never summed. A self-check ({@link dev.statvar.lab.throughput.SelfCheck})
 * holds the producer to a known rate and requires that rate within 1 % in every steady second
 * the producer was on schedule at both ends of (at least 3) and the seconds' counts to add up
 * exactly. The pitfalls ({@link dev.statvar.lab.throughput.Pitfalls}):
 * both implementations in one JVM through the same call sites (profile pollution), the article's sum
 * of their times, and the work as an OSR-only loop ({@link dev.statvar.lab.throughput.OsrRunner})
 * against a method called again and again.
 *
 * <p><b>Outputs</b>: the console report (every implementation's seconds, the self-check's PASS or
 * FAIL, the pitfalls beside the honest way), {@code throughput.csv} (one row per run and second),
 * {@code throughput.json}, {@code throughput.png} and {@code throughput-pitfalls.png}.
 */
package dev.statvar.lab.throughput;
