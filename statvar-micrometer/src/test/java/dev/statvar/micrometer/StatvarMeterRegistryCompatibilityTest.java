package dev.statvar.micrometer;

import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.tck.MeterRegistryCompatibilityKit;

import java.time.Duration;

/**
 * Micrometer's own compatibility kit (micrometer-test, the version of micrometer-core), run on statvar's
 * registry: all 57 tests (9 top-level, 48 in nested classes; Surefire files the top-level ones under the
 * last nested class's report, TimerTck). MockClock: the kit moves time by {@link #step()}.
 */
class StatvarMeterRegistryCompatibilityTest extends MeterRegistryCompatibilityKit {
    @Override
    public MeterRegistry registry() {
        return new StatvarMeterRegistry(StatRegistry.create(), new MockClock());
    }

    @Override
    public Duration step() {
        return Duration.ofMinutes(1);
    }
}
