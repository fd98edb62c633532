package dev.statvar.spring.boot;

import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.export.MetricsSource;
import dev.statvar.export.StatExporter;
import dev.statvar.micrometer.StatvarMeterRegistry;
import dev.statvar.micrometer.StatvarObservationHandler;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.ConditionalOnEnabledMetricsExport;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;

import java.util.function.Consumer;

/**
 * Spring Boot auto-configuration: the application's Micrometer meters record into statvar. Ordered as Boot's own
 * metrics exports (after {@link MetricsAutoConfiguration}, before {@link SimpleMetricsExportAutoConfiguration},
 * which then backs off, and before {@link CompositeMeterRegistryAutoConfiguration}); active unless
 * {@code management.statvar.metrics.export.enabled=false} (or {@code management.defaults.metrics.export.enabled=false}
 * without it). Each bean backs off when the application defines one of its type:
 * <ul>
 * <li>{@link StatRegistry}: the registry the meters record into;</li>
 * <li>{@link StatvarMeterRegistry}: the application's {@code MeterRegistry} (with Boot's Micrometer
 *     {@link Clock}); Boot applies its customizers, filters and binders to it;</li>
 * <li>{@link MetricsSource}: what the {@code statvar} endpoint serves, statvar's own exposition of the registry
 *     (the {@code prometheus} endpoint serves {@link StatvarMeterRegistry#metricsSource()};
 *     {@link StatvarEndpointAutoConfiguration});</li>
 * <li>{@link StatvarObservationHandler}: turns Boot's observations into the meters Micrometer's
 *     {@code DefaultMeterObservationHandler} makes, first in Boot's meter handler group (unless
 *     {@code management.statvar.metrics.export.observation-handler=false} or Micrometer Tracing is present);</li>
 * <li>{@link StatCollector}: the collector on {@code management.statvar.metrics.export.step} (default 10 s),
 *     closed when the context closes (it then delivers the last, partial interval). A registry admits one
 *     collector: an application that starts its own on the {@code StatRegistry} bean defines it as a bean.</li>
 * </ul>
 *
 * <h2>Threading contract</h2>
 * Boot calls the bean methods on the thread that refreshes the context. The beans are thread-safe: meters are
 * updated from any thread, the collector's daemon thread closes the intervals and hands each to the source, the
 * endpoints read the source from the server's request threads.
 */
@AutoConfiguration(before = {CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class},
        after = MetricsAutoConfiguration.class)
@ConditionalOnBean(Clock.class)
@ConditionalOnClass(StatvarMeterRegistry.class)
@ConditionalOnEnabledMetricsExport("statvar")
@EnableConfigurationProperties(StatvarProperties.class)
public final class StatvarMetricsExportAutoConfiguration {
    /** Created by Boot. */
    public StatvarMetricsExportAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    StatRegistry statvarStatRegistry() {
        return StatRegistry.create();
    }

    @Bean
    @ConditionalOnMissingBean
    StatvarMeterRegistry statvarMeterRegistry(StatRegistry stats, Clock clock) {
        return new StatvarMeterRegistry(stats, clock);
    }

    /** What the {@code statvar} endpoint serves and the collector feeds: statvar's own exposition of the registry. */
    @Bean
    @ConditionalOnMissingBean
    MetricsSource statvarMetricsSource(StatRegistry stats) {
        return StatExporter.of(stats);
    }

    /**
     * Boot's meter observation handler group (MetricsAutoConfiguration's ObservationHandlerGroup of
     * MeterObservationHandler) lets the first handler in order handle each observation: this one, ordered
     * first, takes over from Boot's DefaultMeterObservationHandler with the same meters (in the application's
     * MeterRegistry, as Boot's handler) and Boot's ignored meters. Not with Micrometer Tracing on the class path,
     * whose tracing-aware handler adds exemplars.
     */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    @ConditionalOnMissingBean(StatvarObservationHandler.class)
    @ConditionalOnClass(name = "io.micrometer.observation.ObservationHandler")
    @ConditionalOnMissingClass("io.micrometer.tracing.Tracer")
    @ConditionalOnBooleanProperty(name = "management.statvar.metrics.export.observation-handler", matchIfMissing = true)
    StatvarObservationHandler statvarObservationHandler(ObjectProvider<MeterRegistry> meters, StatvarMeterRegistry statvar,
                                                        MetricsProperties properties) {
        boolean longTaskTimers = !properties.getObservations().getIgnoredMeters()
                .contains(DefaultMeterObservationHandler.IgnoredMeters.LONG_TASK_TIMER);
        return new StatvarObservationHandler(meters.getIfAvailable(() -> statvar), longTaskTimers);
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    StatCollector statvarStatCollector(StatRegistry stats, MetricsSource source, StatvarProperties properties) {
        return stats.startCollector(properties.getStep(), intervalsFor(source));
    }

    /** The collector's sink: a source that renders the intervals it is handed gets them, another nothing. */
    static Consumer<Snapshot> intervalsFor(MetricsSource source) {
        if (source instanceof StatExporter exporter) {
            return exporter;
        }
        return snapshot -> {
        };
    }
}
