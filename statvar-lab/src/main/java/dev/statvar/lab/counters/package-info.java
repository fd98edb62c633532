/**
 * The study of "Statistical variables in Java: not quite legal but very fast" (blog "Experiments
 * in program optimisation", 2017; docs/ARTICLES.md): {@code ./statvar lab counters},
 * and {@code lab gauges}; {@code lab report} prints their runs again through
 * {@link dev.statvar.lab.counters.CountersDoc}.
 *
 * <p><b>Protocol</b> ({@link dev.statvar.lab.counters.CellRunner}): every implementation of the
 * article ({@link dev.statvar.lab.counters.baseline}) and statvar's, each in a fresh JVM; per cell
 * (delay factor x threads) warm-up and measured runs, each after a run of the base loop in the same
 * JVM and before a probe of it; the collector retrieving every interval (the lazy ones with the
 * article's cool-down). <b>Method</b>: paired differences ({@link dev.statvar.lab.counters.Paired}),
 * two levels ({@link dev.statvar.lab.counters.Levels}), the empty implementation's noise floor,
 * counts judged per run ({@link dev.statvar.lab.counters.CellStats}).
 *
 * <p><b>Outputs</b>: the console tables with the article's figures beside them, {@code counters.csv}
 * / {@code gauges.csv} (one row per run), the JSON, PNG charts; and docs/LAB.md's generated tables
 * ({@link dev.statvar.lab.counters.CountersDoc}), their figures checked by the root's {@code LabDoc}.
 */
package dev.statvar.lab.counters;
