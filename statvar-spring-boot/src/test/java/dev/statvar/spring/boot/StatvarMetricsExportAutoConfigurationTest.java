package dev.statvar.spring.boot;

import dev.statvar.CollectListener;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.export.MetricsSource;
import dev.statvar.export.StatExporter;
import dev.statvar.micrometer.StatvarMeterRegistry;
import dev.statvar.micrometer.StatvarObservationHandler;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration in a context of Boot's metrics auto-configurations (Simple and Composite listed first:
 * Boot orders them by their annotations, not by this list).
 */
@Timeout(60)
class StatvarMetricsExportAutoConfigurationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SimpleMetricsExportAutoConfiguration.class,
                    CompositeMeterRegistryAutoConfiguration.class, StatvarMetricsExportAutoConfiguration.class,
                    MetricsAutoConfiguration.class));

    @Test
    void statvarIsTheApplicationsMeterRegistryAndItsMetersReachTheSource() {
        runner.withPropertyValues("management.statvar.metrics.export.step=20ms").run(context -> {
            assertThat(context).hasNotFailed()
                    .hasSingleBean(StatRegistry.class).hasSingleBean(StatvarMeterRegistry.class)
                    .hasSingleBean(StatCollector.class).hasSingleBean(MetricsSource.class)
                    .doesNotHaveBean(SimpleMeterRegistry.class);
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(meters).isSameAs(context.getBean(StatvarMeterRegistry.class));
            assertThat(context.getBean(StatvarMeterRegistry.class).statRegistry()).isSameAs(context.getBean(StatRegistry.class));

            meters.counter("orders.placed", "region", "eu").increment(3);
            awaitCollects(context.getBean(StatRegistry.class), 3);
            assertThat(context.getBean(MetricsSource.class).prometheusText())
                    .contains("orders_placed_total{region=\"eu\"} 3\n");
        });
    }

    /** Starts and stops one observation through the context's ObservationRegistry; returns its context. */
    private static Observation.Context observe(org.springframework.context.ApplicationContext context) {
        Observation.Context c = new Observation.Context();
        Observation.createNotStarted("orders", () -> c, context.getBean(ObservationRegistry.class))
                .lowCardinalityKeyValue("region", "eu").start().stop();
        return c;
    }

    @Test
    void bootsObservationsAreTurnedIntoMetersByStatvarsHandler() {
        runner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class)).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(StatvarObservationHandler.class)
                    .hasSingleBean(DefaultMeterObservationHandler.class); // Boot's, defined unconditionally, second in the group
            Observation.Context c = observe(context);
            assertThat((Object) c.get(Timer.Sample.class)).as("Micrometer's handler would have put a Timer.Sample").isNull();
            assertThat((Object) c.get(LongTaskTimer.Sample.class)).as("statvar's handler keeps the long task").isNotNull();
            StatvarMeterRegistry meters = context.getBean(StatvarMeterRegistry.class);
            assertThat(meters.get("orders").tags("region", "eu", "error", "none").timer().count()).isEqualTo(1);
            assertThat(meters.get("orders.active").tags("region", "eu").longTaskTimer().activeTasks()).isZero();
        });
    }

    @Test
    void statvarsObservationHandlerCanBeSwitchedOffAndHonoursBootsIgnoredMeters() {
        runner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withPropertyValues("management.statvar.metrics.export.observation-handler=false").run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(StatvarObservationHandler.class);
                    assertThat((Object) observe(context).get(Timer.Sample.class)).as("Micrometer's handler").isNotNull();
                });
        runner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
                .withPropertyValues("management.metrics.observations.ignored-meters=long-task-timer").run(context -> {
                    assertThat(context).hasSingleBean(StatvarObservationHandler.class);
                    assertThat((Object) observe(context).get(LongTaskTimer.Sample.class)).isNull();
                    StatvarMeterRegistry meters = context.getBean(StatvarMeterRegistry.class);
                    assertThat(meters.find("orders.active").meters()).isEmpty();
                    assertThat(meters.get("orders").timer().count()).isEqualTo(1);
                });
    }

    @Test
    void bootsMeterFiltersAndCustomizersApplyToStatvarsRegistry() {
        runner.withBean(MeterFilter.class, () -> MeterFilter.commonTags(Tags.of("app", "shop")))
                .withBean(MeterRegistryCustomizer.class, () -> (MeterRegistryCustomizer<MeterRegistry>)
                        r -> r.config().meterFilter(MeterFilter.denyNameStartsWith("denied")))
                .run(context -> {
                    MeterRegistry meters = context.getBean(StatvarMeterRegistry.class);
                    assertThat(meters.counter("orders.placed").getId().getTag("app")).isEqualTo("shop");
                    meters.counter("denied.calls");
                    assertThat(meters.find("denied.calls").meters()).isEmpty();
                });
    }

    @Test
    void withBootsPrometheusExportOnTooEveryMeterGoesToBothThroughAComposite() {
        runner.withConfiguration(AutoConfigurations.of(PrometheusMetricsExportAutoConfiguration.class)).run(context -> {
            assertThat(context).hasSingleBean(StatvarMeterRegistry.class).hasSingleBean(PrometheusMeterRegistry.class);
            MeterRegistry app = context.getBean(MeterRegistry.class);
            assertThat(app).isInstanceOf(CompositeMeterRegistry.class);
            app.counter("orders.placed").increment();
            assertThat(context.getBean(StatvarMeterRegistry.class).find("orders.placed").counter().count()).isEqualTo(1);
            assertThat(context.getBean(PrometheusMeterRegistry.class).find("orders.placed").counter().count()).isEqualTo(1);
        });
    }

    @Test
    void aStatRegistryWhoseCollectorIsNotABeanFailsTheStartNamingTheCause() {
        StatRegistry stats = StatRegistry.create();
        try (StatCollector own = stats.startCollector(Duration.ofSeconds(10), s -> { })) {
            runner.withBean(StatRegistry.class, () -> stats).run(context -> {
                assertThat(context).hasFailed();
                assertThat(rootCause(context.getStartupFailure())).isInstanceOf(IllegalStateException.class)
                        .hasMessage("a collector is already running on this registry; close it first");
            });
        }
    }

    @Test
    void eachBeanBacksOffForTheApplicationsOwn() {
        runner.withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(StatRegistry.class).hasSingleBean(StatvarMeterRegistry.class)
                    .hasSingleBean(MetricsSource.class).hasSingleBean(StatCollector.class);
            OwnBeans own = context.getBean(OwnBeans.class);
            assertThat(context.getBean(StatRegistry.class)).isSameAs(own.stats);
            assertThat(context.getBean(StatvarMeterRegistry.class)).isSameAs(own.meters);
            assertThat(context.getBean(MetricsSource.class)).isSameAs(own.source);
            assertThat(context.getBean(StatCollector.class)).isSameAs(own.collector);
        });
    }

    @Test
    void enabledFalseSwitchesEverythingOffAndBootsSimpleRegistryTakesOver() {
        for (String off : new String[] {"management.statvar.metrics.export.enabled=false",
                "management.defaults.metrics.export.enabled=false"}) {
            runner.withPropertyValues(off).run(context -> {
                assertThat(context).hasNotFailed().doesNotHaveBean(StatRegistry.class)
                        .doesNotHaveBean(StatvarMeterRegistry.class).doesNotHaveBean(StatCollector.class)
                        .doesNotHaveBean(MetricsSource.class).doesNotHaveBean(StatvarProperties.class);
            });
        }
        runner.withPropertyValues("management.statvar.metrics.export.enabled=false").run(context ->
                assertThat(context.getBean(MeterRegistry.class)).isInstanceOf(SimpleMeterRegistry.class));
        // statvar's own flag wins over the default, as for Boot's exports
        runner.withPropertyValues("management.defaults.metrics.export.enabled=false",
                "management.statvar.metrics.export.enabled=true").run(context ->
                assertThat(context).hasSingleBean(StatvarMeterRegistry.class));
    }

    @Test
    void theCollectorIsClosedWithTheContext() {
        StatRegistry stats = StatRegistry.create();
        runner.withBean(StatRegistry.class, () -> stats).run(context -> {
            assertThat(context).hasSingleBean(StatCollector.class);
            // the context's collector holds the registry's one collector slot
            org.assertj.core.api.Assertions.assertThatIllegalStateException()
                    .isThrownBy(() -> stats.startCollector(Duration.ofSeconds(1), s -> { }))
                    .withMessageContaining("already running");
        });
        // closed with the context: the slot is free again
        stats.startCollector(Duration.ofSeconds(1), s -> { }).close();
    }

    @Test
    void aStepThatIsNotPositiveFailsTheStartNamingTheProperty() {
        for (String step : new String[] {"0s", "-1s"}) {
            runner.withPropertyValues("management.statvar.metrics.export.step=" + step).run(context -> {
                assertThat(context).hasFailed();
                assertThat(rootCause(context.getStartupFailure()))
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessage("management.statvar.metrics.export.step must be positive, was "
                                + Duration.parse("PT" + step.toUpperCase(java.util.Locale.ROOT)));
            });
        }
    }

    @Test
    void theCollectorSinkFeedsAStatExporterAndNothingElse() {
        StatExporter exporter = StatExporter.of(StatRegistry.create());
        assertThat(StatvarMetricsExportAutoConfiguration.intervalsFor(exporter)).isSameAs(exporter);
        MetricsSource other = new StatvarEndpointTest.FixedSource("a 1\n", "a 1\n# EOF\n", null);
        StatvarMetricsExportAutoConfiguration.intervalsFor(other).accept(StatRegistry.create().collect()); // no effect, no throw
    }

    /**
     * Waits (bounded by the test's timeout) until {@code n} intervals closed after this call. With {@code n = 3}
     * the collector's sink has been handed an interval that closed after the call (collect, then sink, on one thread).
     */
    static void awaitCollects(StatRegistry stats, int n) throws InterruptedException {
        CountDownLatch closed = new CountDownLatch(n);
        CollectListener l = new CollectListener() {
            @Override
            public void afterCollect(Snapshot snapshot) {
                closed.countDown();
            }
        };
        stats.addCollectListener(l);
        try {
            assertThat(closed.await(30, TimeUnit.SECONDS)).as("%d intervals closed within 30 s", n).isTrue();
        } finally {
            stats.removeCollectListener(l);
        }
    }

    private static Throwable rootCause(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        final StatRegistry stats = StatRegistry.create();
        final StatvarMeterRegistry meters = new StatvarMeterRegistry(stats);
        final MetricsSource source = new StatvarEndpointTest.FixedSource("a 1\n", "a 1\n# EOF\n", null);
        final StatCollector collector = stats.startCollector(Duration.ofSeconds(10), s -> { });

        @Bean
        StatRegistry myStats() {
            return stats;
        }

        @Bean
        StatvarMeterRegistry myMeters() {
            return meters;
        }

        @Bean
        MetricsSource mySource() {
            return source;
        }

        @Bean(destroyMethod = "close")
        StatCollector myCollector() {
            return collector;
        }
    }
}
