package dev.statvar.otel;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;

import java.time.Duration;

/** The wiring of docs/OPENTELEMETRY.md, compiled and run by OtlpEndToEndTest. Keep the two in step. */
final class WiringExample {
    private WiringExample() {
    }

    // --- docs/OPENTELEMETRY.md: "The OpenTelemetry reader drives statvar" ---
    static SdkMeterProvider readerDrivesStatvar(StatRegistry registry, String endpoint) {
        StatvarMetricProducer producer = StatvarMetricProducer.collecting(registry).build();
        OtlpHttpMetricExporter exporter = OtlpHttpMetricExporter.builder()
                .setEndpoint(endpoint) // e.g. "http://localhost:4318/v1/metrics"
                .build();
        return SdkMeterProvider.builder()
                .setResource(Resource.getDefault().merge(
                        Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "checkout"))))
                .registerMetricReader(PeriodicMetricReader.builder(exporter)
                        .setInterval(Duration.ofSeconds(10))
                        .build())
                .registerMetricProducer(producer)
                .build();
    }

    /** What the second wiring starts: close the collector, then the provider (its last export). */
    record Started(StatCollector collector, SdkMeterProvider provider) {
    }

    // --- docs/OPENTELEMETRY.md: "A statvar collector already runs" ---
    static Started collectorFeedsOpenTelemetry(StatRegistry registry, String endpoint) {
        StatvarMetricProducer producer = StatvarMetricProducer.fed().build();
        StatCollector collector = registry.startCollector(Duration.ofSeconds(10), producer);
        SdkMeterProvider provider = SdkMeterProvider.builder()
                .registerMetricReader(PeriodicMetricReader.builder(
                        OtlpHttpMetricExporter.builder().setEndpoint(endpoint).build()).build())
                .registerMetricProducer(producer)
                .build();
        return new Started(collector, provider);
    }
}
