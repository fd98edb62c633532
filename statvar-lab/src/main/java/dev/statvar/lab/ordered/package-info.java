/**
 * Jean-Philippe Bempel's "Ordered Scheduler" (2015): keeping the output of parallel tasks in order without a thread of
 * its own, {@code ./statvar lab ordered}.
 *
 * <p><b>Protocol</b>: W worker threads compute the tasks of S independent streams (1, 10, 100);
 * each stream's results must come out in ticket order. Three {@link dev.statvar.lab.ordered.Design}s,
 * each with one instance per stream: statvar-probes' {@code OrderedScheduler} (the article's), a
 * {@code synchronized} section in which a worker waits for its turn, and a consumer thread fed by a
 * queue that reorders (the Disruptor-style design the article avoids). Every cell (design x streams x
 * workers) in a fresh JVM ({@link dev.statvar.lab.ordered.OrderedRunner}) with a warm-up phase; every
 * stream's output checked for order and by a checksum that every design must reproduce
 * ({@link dev.statvar.lab.ordered.Sink}).
 *
 * <p><b>Outputs</b>: the console tables ({@link dev.statvar.lab.ordered.OrderedReport}), {@code ordered.csv},
 * {@code ordered.json} ({@code "study": "ordered"}, {@code cells} keyed by design, streams and workers,
 * for docs/LAB.md's links), {@code ordered-throughput.png} and {@code ordered-p99.png}, and the docs
 * tables ({@link dev.statvar.lab.ordered.OrderedDoc}).
 */
package dev.statvar.lab.ordered;
