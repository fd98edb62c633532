/**
 * The implementations of counters and gauges from "Statistical variables in Java: not quite legal
 * but very fast" (blog "Experiments in program optimisation", 2017), written as the article describes them, <b>bugs included</b>: their wrong sums
 * (lost or extra counts) and their data races are part of the experiment the lab re-runs. They
 * are not for production use; statvar-core is.
 *
 * <p>The interfaces are the article's: the client side ({@link dev.statvar.lab.counters.baseline.Counter},
 * {@link dev.statvar.lab.counters.baseline.Gauge}) and the server side that collects and resets
 * ({@link dev.statvar.lab.counters.baseline.ServerCounter#getAndReset()},
 * {@link dev.statvar.lab.counters.baseline.ServerGauge#getAndReset()}), plus the indirect ("lazy
 * retrieval") counters whose value object is fetched on one half-interval and used on the next.
 */
package dev.statvar.lab.counters.baseline;
