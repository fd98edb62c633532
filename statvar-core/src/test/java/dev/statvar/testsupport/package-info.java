/**
 * Helpers shared by statvar-core's tests: {@link dev.statvar.testsupport.OnThread} (test code on a new
 * platform thread), {@link dev.statvar.testsupport.LogCapture} (what statvar logs). Test-only; the engine's private state is reached through
 * {@code dev.statvar.internal.EngineProbe}, which must live in the engine's package.
 */
package dev.statvar.testsupport;
