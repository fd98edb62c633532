package dev.statvar.spring.boot;

import dev.statvar.StatRegistry;
import dev.statvar.export.MetricsSource;
import dev.statvar.export.StatExporter;
import dev.statvar.prometheus.StatvarCollector;
import io.micrometer.core.instrument.MeterRegistry;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.DuplicateLabelsException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusOutputFormat;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /**
     * docs/PROMETHEUS.md's bean, as written there, in a Boot application without statvar-spring-boot's
     * auto-configuration (statvar-core and statvar-prometheus only): a StatvarCollector registered on the
     * PrometheusRegistry of Boot's own Prometheus export shows statvar's stats on Boot's
     * {@code /actuator/prometheus}, in the text and the protobuf formats, beside Boot's Micrometer meters.
     */
    @Test
    void aStatvarCollectorRegisteredOnBootsPrometheusRegistryShowsOnBootsEndpoint() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(PrometheusMetricsExportAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, MetricsAutoConfiguration.class,
                        EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=prometheus")
                .withUserConfiguration(UsersCollectorBean.class).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(PrometheusScrapeEndpoint.class)
                            .hasSingleBean(StatvarCollector.class);
                    StatRegistry stats = context.getBean(StatRegistry.class);
                    stats.counter("jobs_done").add(3);
                    dev.statvar.Histogram latency = stats.histogram("job_nanoseconds");
                    for (int i = 1; i <= 100; i++) {
                        latency.record(1_000L * i);
                    }
                    context.getBean(MeterRegistry.class).counter("orders.placed").increment(2);
                    context.getBean(StatExporter.class).accept(stats.collect()); // the interval the scrape shows
                    PrometheusScrapeEndpoint endpoint = context.getBean(PrometheusScrapeEndpoint.class);
                    String text = new String(endpoint.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null).getBody(),
                            StandardCharsets.UTF_8);
                    assertThat(text).contains("jobs_done_total 3.0\n").contains("job_seconds_count 100\n")
                            .contains("orders_placed_total 2.0\n"); // Micrometer's meters are still there
                    Map<String, Metrics.MetricFamily> protobuf = families(
                            endpoint.scrape(PrometheusOutputFormat.CONTENT_TYPE_PROTOBUF, null).getBody());
                    assertThat(protobuf.get("jobs_done_total").getMetric(0).getCounter().getValue()).isEqualTo(3.0);
                    Metrics.Histogram job = protobuf.get("job_seconds").getMetric(0).getHistogram();
                    assertThat(job.getSampleCount()).isEqualTo(100);
                    assertThat(job.getPositiveSpanCount()).as("native buckets").isPositive();
                    assertThat(protobuf.get("orders_placed_total").getMetric(0).getCounter().getValue()).isEqualTo(2.0);
                });
    }

    /**
     * The same bean beside statvar-spring-boot with Boot's Prometheus export on: Micrometer's meters are then
     * in Boot's PrometheusMeterRegistry and, through StatvarMeterRegistry, in the StatRegistry the collector
     * shows, so the PrometheusRegistry holds two families of one name and client_java refuses the scrape. As
     * docs/PROMETHEUS.md says: with statvar-spring-boot, turn Boot's Prometheus export off instead (then
     * statvar serves /actuator/prometheus, {@link #withoutBootsPrometheusExportStatvarServesBothEndpoints}).
     */
    @Test
    void withStatvarSpringBootAndBootsPrometheusExportTheCollectorBeanDuplicatesMicrometersMeters() {
        runner.withUserConfiguration(UsersCollectorBean.class).run(context -> {
            assertThat(context).hasNotFailed();
            context.getBean(MeterRegistry.class).counter("orders.placed").increment(2);
            PrometheusScrapeEndpoint endpoint = context.getBean(PrometheusScrapeEndpoint.class);
            assertThatThrownBy(() -> endpoint.scrape(PrometheusOutputFormat.CONTENT_TYPE_004, null))
                    .isInstanceOf(DuplicateLabelsException.class).hasMessageContaining("orders_placed");
        });
    }

    /** Every family of a length-delimited protobuf exposition, by name. */
    private static Map<String, Metrics.MetricFamily> families(byte[] body) throws IOException {
        Map<String, Metrics.MetricFamily> out = new HashMap<>();
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        Metrics.MetricFamily f;
        while ((f = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
            out.put(f.getName(), f);
        }
        return out;
    }

    /** The user's beans of docs/PROMETHEUS.md's "With client_java (and Spring Boot)". */
    @Configuration(proxyBeanMethods = false)
    static class UsersCollectorBean {
        @Bean
        StatRegistry stats() {
            return StatRegistry.create();
        }

        @Bean
        StatExporter exporter(StatRegistry stats) {
            return StatExporter.of(stats);
        }

        @Bean
        StatvarCollector statvarCollector(PrometheusRegistry prometheus, StatRegistry stats, StatExporter exporter) {
            StatvarCollector c = StatvarCollector.of(stats, exporter);
            prometheus.register(c);
            return c;
        }
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
