/**
 * {@code ./statvar lab soak}: statvar itself, not an article, under thread churn, virtual threads, a
 * collector and concurrent scrapes; every count must be accounted for (lost = 0) and the heap
 * bounded. Outputs: a progress line per interval and a verdict.
 * <ul>
 *   <li>{@link dev.statvar.lab.soak.Soak}: the command (options and their checks), the run's order,
 *       the account and the heap bound;</li>
 *   <li>{@link dev.statvar.lab.soak.SoakWorkload}: the workers, the slots that churn platform
 *       threads and the spawner of virtual ones; {@link dev.statvar.lab.soak.SoakStats}: the stats
 *       they update; {@link dev.statvar.lab.soak.SoakCounts}: what they counted themselves;</li>
 *   <li>{@link dev.statvar.lab.soak.VirtualThreads}: {@code Thread.startVirtualThread} by
 *       reflection (the lab is compiled for Java 17);</li>
 *   <li>{@link dev.statvar.lab.soak.IntervalSums}: the collector's sink, every interval summed;</li>
 *   <li>{@link dev.statvar.lab.soak.Scraper}: a thread scraping {@code /metrics};
 *       {@link dev.statvar.lab.soak.PrometheusText}: its reader of the Prometheus text format.</li>
 * </ul>
 */
package dev.statvar.lab.soak;
