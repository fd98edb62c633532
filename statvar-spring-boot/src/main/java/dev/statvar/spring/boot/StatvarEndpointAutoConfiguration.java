package dev.statvar.spring.boot;

import org.springframework.beans.factory.ObjectProvider;
import dev.statvar.micrometer.StatvarMeterRegistry;

import dev.statvar.export.MetricsSource;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.ConditionalOnEnabledMetricsExport;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring Boot auto-configuration of the Actuator endpoints that serve the {@link MetricsSource} bean
 * ({@link StatvarMetricsExportAutoConfiguration}): {@link StatvarEndpoint} ({@code statvar}: statvar's own
 * exposition of the whole {@code StatRegistry}) and, when statvar-prometheus is on the class path and Boot's
 * {@code PrometheusScrapeEndpoint} is not defined, {@link StatvarPrometheusEndpoint} ({@code prometheus}: the
 * application's Micrometer meters as {@code PrometheusMeterRegistry} shows them,
 * {@link StatvarMeterRegistry#metricsSource()}). Ordered after Boot's Prometheus export, whose endpoint
 * wins when it is active. Each endpoint is defined only when available (Boot's
 * {@code management.endpoints.web.exposure.include} and {@code management.endpoint.ID.access}). Boot calls the
 * bean methods on the thread that refreshes the context.
 */
@AutoConfiguration(after = {StatvarMetricsExportAutoConfiguration.class, PrometheusMetricsExportAutoConfiguration.class})
@ConditionalOnClass(ConditionalOnAvailableEndpoint.class)
@ConditionalOnEnabledMetricsExport("statvar")
@ConditionalOnBean(MetricsSource.class)
public final class StatvarEndpointAutoConfiguration {
    /** Created by Boot. */
    public StatvarEndpointAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(StatvarEndpoint.class)
    StatvarEndpoint statvarEndpoint(MetricsSource source) {
        return new StatvarEndpoint(source);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "dev.statvar.prometheus.StatvarCollector")
    @ConditionalOnMissingBean(type = "org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint")
    static class PrometheusEndpointConfiguration {
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint(StatvarPrometheusEndpoint.class)
        StatvarPrometheusEndpoint statvarPrometheusEndpoint(ObjectProvider<StatvarMeterRegistry> registry, MetricsSource source) {
            // the Micrometer meters as PrometheusMeterRegistry's endpoint shows them; statvar's own exposition
            // only when the application brought its own registry and no StatvarMeterRegistry
            StatvarMeterRegistry r = registry.getIfUnique();
            return new StatvarPrometheusEndpoint(r != null ? r.metricsSource() : source);
        }
    }
}
