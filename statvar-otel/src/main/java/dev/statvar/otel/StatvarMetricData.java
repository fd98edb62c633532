package dev.statvar.otel;

import io.opentelemetry.sdk.common.InstrumentationScopeInfo;
import io.opentelemetry.sdk.metrics.data.Data;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.resources.Resource;

/*
 * Design
 * ------
 * The SDK's public API creates points and data (LongPointData.create, SumData.createLongSumData,
 * HistogramData.create, GaugeData.create*) but offers MetricData itself only through
 * io.opentelemetry.sdk.metrics.internal.data.ImmutableMetricData, which the SDK documents as
 * internal and free to change. This plain immutable holder implements the public interface
 * instead; exporters read MetricData only through its getters.
 */

/** One metric of a statvar snapshot, as the OpenTelemetry SDK hands it to exporters. Immutable. */
final class StatvarMetricData implements MetricData {
    private final Resource resource;
    private final InstrumentationScopeInfo scope;
    private final String name;
    private final String description;
    private final MetricDataType type;
    private final Data<?> data;

    StatvarMetricData(Resource resource, InstrumentationScopeInfo scope, String name, String description,
                      MetricDataType type, Data<?> data) {
        this.resource = resource;
        this.scope = scope;
        this.name = name;
        this.description = description;
        this.type = type;
        this.data = data;
    }

    @Override
    public Resource getResource() {
        return resource;
    }

    @Override
    public InstrumentationScopeInfo getInstrumentationScopeInfo() {
        return scope;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getDescription() {
        return description;
    }

    /** statvar stats carry no unit; "" is what the SDK reports for an instrument without one. */
    @Override
    public String getUnit() {
        return "";
    }

    @Override
    public MetricDataType getType() {
        return type;
    }

    @Override
    public Data<?> getData() {
        return data;
    }

    @Override
    public String toString() {
        return "StatvarMetricData{name=" + name + ", type=" + type + ", points=" + data.getPoints() + "}";
    }
}
