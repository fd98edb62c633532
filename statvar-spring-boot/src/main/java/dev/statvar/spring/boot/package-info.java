/**
 * Spring Boot 4.0 auto-configuration of statvar: with {@code statvar-spring-boot} on the class path a Boot
 * application's Micrometer meters record into a statvar {@link dev.statvar.StatRegistry} through
 * {@link dev.statvar.micrometer.StatvarMeterRegistry} ({@link dev.statvar.spring.boot.StatvarMetricsExportAutoConfiguration}),
 * and its scrape is served on the Actuator endpoints {@code statvar} and {@code prometheus}
 * ({@link dev.statvar.spring.boot.StatvarEndpointAutoConfiguration}). Properties:
 * {@link dev.statvar.spring.boot.StatvarProperties} ({@code management.statvar.metrics.export.*}).
 */
package dev.statvar.spring.boot;
