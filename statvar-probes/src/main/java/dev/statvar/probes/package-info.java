/**
 * Always-on probes that record into a {@link dev.statvar.StatRegistry}: what a production service
 * wants to see on its dashboard about waiting, without a profiler attached.
 *
 * <h2>Project-wide policies (in addition to {@code dev.statvar}'s)</h2>
 * <ul>
 *   <li><b>Drop-in.</b> A probe replaces or wraps a JDK type without changing its semantics
 *       (a {@code ContendedLock} is a {@link java.util.concurrent.locks.ReentrantLock}); the
 *       statistics are a side effect, never a behaviour change.</li>
 *   <li><b>Exact where it counts, cheap where it does not.</b> Contended events are counted
 *       exactly through statvar's per-thread cells; the uncontended fast path adds at most a
 *       stat update, never a lock of its own or a locked instruction.</li>
 *   <li><b>Bounded.</b> Label values come from a bounded set (creation sites, class names); past a
 *       family's series cap they fold into {@code "other"}, never an exception in the service.</li>
 *   <li><b>Never spin without bound, never rely on {@code Thread.yield}.</b> Waiting spins a
 *       bounded number of times, then parks.</li>
 *   <li><b>Closeable.</b> A probe with a thread or a JFR stream is started by a static
 *       {@code start(...)} returning an {@link java.lang.AutoCloseable}; closing it stops the
 *       thread or stream and waits for it.</li>
 * </ul>
 */
package dev.statvar.probes;
