package dev.statvar.spring.boot;

import dev.statvar.export.MetricsSource;
import dev.statvar.prometheus.StatvarCollector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Which endpoint serves what: statvar's own, and the prometheus endpoint beside Boot's Prometheus export. */
@Timeout(60)
class StatvarEndpointAutoConfigurationTest {
    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StatvarEndpointAutoConfiguration.class,
                    PrometheusMetricsExportAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, StatvarMetricsExportAutoConfiguration.class,
                    MetricsAutoConfiguration.class, EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
            .withPropertyValues("management.endpoints.web.exposure.include=statvar,prometheus");

    @Test
    void withoutBootsPrometheusExportStatvarServesBothEndpoints() {
        runner.withPropertyValues("management.prometheus.metrics.export.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(StatvarEndpoint.class)
                    .hasSingleBean(StatvarPrometheusEndpoint.class).doesNotHaveBean(PrometheusScrapeEndpoint.class);
            // statvar: statvar's own exposition of the registry; prometheus: the Micrometer meters as
            // PrometheusMeterRegistry shows them (a scrape closes an interval, so the count is current)
            MetricsSource source = context.getBean(MetricsSource.class);
            assertThat(context.getBean(StatvarEndpoint.class).scrape(StatvarOutputFormat.PROMETHEUS_TEXT).getBody())
                    .isEqualTo(source.prometheusText().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            context.getBean(dev.statvar.micrometer.StatvarMeterRegistry.class).counter("orders.placed").increment(2);
            String prometheus = new String(context.getBean(StatvarPrometheusEndpoint.class)
                    .scrape(StatvarOutputFormat.PROMETHEUS_TEXT).getBody(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(prometheus).contains("# TYPE orders_placed_total counter\norders_placed_total 2.0\n")
                    .isEqualTo(context.getBean(dev.statvar.micrometer.StatvarMeterRegistry.class).scrape());
        });
    }

    @Test
    void bootsPrometheusExportKeepsItsEndpoint() {
        runner.run(context -> assertThat(context).hasNotFailed().hasSingleBean(StatvarEndpoint.class)
                .hasSingleBean(PrometheusScrapeEndpoint.class).doesNotHaveBean(StatvarPrometheusEndpoint.class));
    }

    @Test
    void withoutStatvarPrometheusThereIsNoStatvarPrometheusEndpoint() {
        runner.withPropertyValues("management.prometheus.metrics.export.enabled=false")
                .withClassLoader(new FilteredClassLoader(StatvarCollector.class))
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(StatvarEndpoint.class)
                        .doesNotHaveBean(StatvarPrometheusEndpoint.class));
    }

    @Test
    void anEndpointNotExposedIsNotDefined() {
        runner.withPropertyValues("management.prometheus.metrics.export.enabled=false",
                        "management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(StatvarEndpoint.class)
                        .doesNotHaveBean(StatvarPrometheusEndpoint.class));
    }

    @Test
    void disabledStatvarHasNoEndpoint() {
        runner.withPropertyValues("management.statvar.metrics.export.enabled=false",
                        "management.prometheus.metrics.export.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(StatvarEndpoint.class)
                        .doesNotHaveBean(StatvarPrometheusEndpoint.class).doesNotHaveBean(MetricsSource.class));
    }
}
