package dev.statvar.spring.boot;

import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code management.statvar.metrics.export.*}: the properties of {@link StatvarMetricsExportAutoConfiguration}.
 * Bound once by Boot at start-up, read by the auto-configuration's bean methods on the same thread.
 */
@ConfigurationProperties("management.statvar.metrics.export")
public class StatvarProperties {
    /** A step Boot's push registries would also accept, long enough that a collect is cheap, short
     *  enough to be below Prometheus' usual 15 s to 1 min scrape intervals. */
    static final Duration DEFAULT_STEP = Duration.ofSeconds(10);

    /**
     * Whether the application's Micrometer meters record into statvar (a StatRegistry, a StatvarMeterRegistry,
     * a collector and the statvar and prometheus Actuator endpoints). Read by Boot's
     * ConditionalOnEnabledMetricsExport("statvar"); management.defaults.metrics.export.enabled when unset.
     */
    private boolean enabled = true;

    /**
     * How often statvar's collector closes an interval. A scrape shows the last closed interval, so keep it no
     * longer than the scrape interval.
     */
    private Duration step = DEFAULT_STEP;

    /**
     * Whether Boot's observations (e.g. http.server.requests) are turned into meters by statvar's
     * StatvarObservationHandler (the same meters as Micrometer's DefaultMeterObservationHandler, looked up
     * once per tag set) instead of Micrometer's handler. Not installed when Micrometer Tracing is on the class
     * path (Boot's tracing-aware handler then stays).
     */
    private boolean observationHandler = true;

    /**
     * Whether the export is enabled.
     *
     * @return the value of {@code management.statvar.metrics.export.enabled} (default true)
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Sets whether the export is enabled.
     *
     * @param enabled false switches statvar's auto-configuration off
     */
    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /**
     * Whether statvar's observation handler replaces Micrometer's.
     *
     * @return the value of {@code management.statvar.metrics.export.observation-handler} (default true)
     */
    public boolean isObservationHandler() {
        return observationHandler;
    }

    /**
     * Sets whether statvar's observation handler replaces Micrometer's.
     *
     * @param observationHandler false leaves Boot's DefaultMeterObservationHandler in charge
     */
    public void setObservationHandler(boolean observationHandler) {
        this.observationHandler = observationHandler;
    }

    /**
     * The collector's interval.
     *
     * @return the value of {@code management.statvar.metrics.export.step} (default 10 s)
     */
    public Duration getStep() {
        return step;
    }

    /**
     * Sets the collector's interval.
     *
     * @param step the interval, positive
     * @throws NullPointerException     if {@code step} is null
     * @throws IllegalArgumentException if {@code step} is zero or negative
     */
    public void setStep(Duration step) {
        Objects.requireNonNull(step, "management.statvar.metrics.export.step");
        if (step.isZero() || step.isNegative()) {
            throw new IllegalArgumentException("management.statvar.metrics.export.step must be positive, was " + step);
        }
        this.step = step;
    }
}
