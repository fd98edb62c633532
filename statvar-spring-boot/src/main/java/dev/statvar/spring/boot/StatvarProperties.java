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
