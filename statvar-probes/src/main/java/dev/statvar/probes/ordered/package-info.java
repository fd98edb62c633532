/**
 * An executor, not a probe: {@link dev.statvar.probes.ordered.OrderedScheduler} runs tasks one at a
 * time in ticket order on the threads that hand them in (Jean-Philippe Bempel, "Ordered Scheduler",
 * 28 August 2015), and counts what it does into an optional {@link dev.statvar.StatRegistry}.
 *
 * <p>It lives apart from {@code dev.statvar.probes} because that package's "drop-in" policy (a probe
 * replaces or wraps a JDK type without changing its semantics) cannot hold for it: it decides which
 * thread runs a task and when. It keeps that package's other policies: exact counts through statvar's
 * cells, bounded spinning then parking, never {@code Thread.yield}, and misuse failing on the misuser's
 * thread. Its threading contract is in the class javadoc.
 */
package dev.statvar.probes.ordered;
