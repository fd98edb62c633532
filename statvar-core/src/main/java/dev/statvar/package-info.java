/**
 * statvar: always-on counters, gauges and histograms for the JVM. What an update costs, beside a
 * plain field and {@code LongAdder}, is measured per machine by statvar-jmh's CounterBenchmark,
 * GaugeBenchmark and HistogramBenchmark (docs/PERFORMANCE.md); memory per (stat, thread) is in
 * {@link dev.statvar.StatRegistry} ("Memory").
 *
 * <h2>Quick use</h2>
 * <pre>{@code
 * StatRegistry stats = StatRegistry.create();
 * Counter requests = stats.counter("requests", "requests accepted");
 * Gauge queue = stats.gauge("queue_length");
 * Histogram latency = stats.histogram("latency_ns");
 * requests.add();
 * queue.report(q.size());
 * latency.record(System.nanoTime() - t0);
 * try (AutoCloseable engine = stats.startCollector(Duration.ofSeconds(10), System.out::println)) { ... }
 * }</pre>
 *
 * <h2>Project-wide policies</h2>
 * <ul>
 *   <li><b>Exact.</b> Counts, sums and histogram buckets are never lost or counted twice, whatever the timing: an
 *       update racing {@link dev.statvar.StatRegistry#collect()} lands in one of the two
 *       adjacent intervals. There is no cool-down period and no timing assumption.</li>
 *   <li><b>No locked instruction on the update path of a platform thread.</b> No CAS, no
 *       {@code getAndAdd}, no {@code synchronized}, no volatile store. Each platform thread
 *       writes only its own cells: a plain read and an opaque (or release) store. The only
 *       locks are on slow paths that run once per thread per registry layout change (first
 *       use, growth) and on the shared cells used by virtual threads and by threads not yet hot
 *       for a gauge or histogram ({@link dev.statvar.StatRegistry.Builder#hotAfter}).</li>
 *   <li><b>Legal under the Java Memory Model.</b> No plain-field data race between threads:
 *       every cross-thread access uses a {@link java.lang.invoke.VarHandle} mode (opaque,
 *       release/acquire, volatile) or is guarded by a lock, and a comment at each such access
 *       names the access it pairs with.</li>
 *   <li><b>Any thread.</b> Platform threads from anywhere; terminated threads (their counts kept,
 *       their storage released at the next collect); virtual threads (exact, with no storage
 *       per virtual thread).</li>
 *   <li><b>Never spin without bound, never rely on {@code Thread.yield}.</b> Waiting parks.</li>
 *   <li><b>Layout.</b> One documented constant, the cache line size
 *       ({@code dev.statvar.internal.Layout}), decides all padding; per-thread data is a flat,
 *       strided {@code long[]}, no padding class hierarchies, no {@code sun.misc.Unsafe}.</li>
 *   <li><b>Bad input fails loudly</b> with an {@link java.lang.IllegalArgumentException} naming
 *       the offending value. Nothing is silently dropped.</li>
 *   <li><b>Java 17 baseline.</b> Newer JDK features (virtual threads) are detected at run time.</li>
 * </ul>
 */
package dev.statvar;
