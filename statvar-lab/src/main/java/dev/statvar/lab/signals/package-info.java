/**
 * Jean-Philippe Bempel's "Notify... oh, wait! I have a signal." (2015): what a thread pays to wake another,
 * {@code ./statvar lab signals}.
 *
 * <p><b>Protocol</b>: N pairs of threads (1, cores, 16 and the article's 16 and 256); in each pair a
 * critical thread signals its flushing partner 1,000 times (after 200 unmeasured signals), one
 * signal at a time, each sent when the partner waits for it ({@link dev.statvar.lab.signals.SignalRunner}).
 * Four {@link dev.statvar.lab.signals.Mechanism}s: the article's {@code wait}/{@code notify},
 * {@code Lock}/{@code Condition.signal}, {@code LockSupport.park}/{@code unpark}, and a spin hand-off
 * (bounded {@code onSpinWait} spin, then park) for contrast; each mechanism x pair count in a fresh
 * JVM with a time limit. Two latencies per signal in statvar histograms: the signal's cost to the
 * critical thread, and the wake-up latency from a System.nanoTime taken just before the signal
 * (published to the partner with it) until the partner runs. Missed signals (never seen, or seen
 * only when a 2 s wait ran out; a signal the critical thread did not send within those 2 s is
 * counted apart, as abandoned) and spurious wake-ups are counted; the clock's granularity and
 * cost are probed in every JVM; statvar's percentiles are checked against HdrHistogram fed the same
 * samples ({@link dev.statvar.lab.signals.PercentileCheck}), a failing check failing the run.
 *
 * <p><b>Outputs</b>: the console tables with Bempel's Linux notify() figures beside the cost table
 * ({@link dev.statvar.lab.signals.SignalReport}), {@code signals.csv} (a row per cell and latency),
 * {@code signals.json} ({@code "study": "signals"}, {@code cells} keyed by mechanism, pairs and
 * latency, for docs/LAB.md's links), {@code signals-<latency>-<pairs>-pairs.png} (percentile spectra,
 * log axes), and the docs tables ({@link dev.statvar.lab.signals.SignalDoc}).
 */
package dev.statvar.lab.signals;
