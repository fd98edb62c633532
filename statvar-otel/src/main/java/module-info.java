/**
 * statvar's OpenTelemetry bridge: {@link dev.statvar.otel.StatvarMetricProducer}, an OpenTelemetry
 * SDK metric producer. Requires {@code dev.statvar} and the OpenTelemetry metrics SDK (automatic
 * modules {@code io.opentelemetry.sdk.metrics}, {@code io.opentelemetry.sdk.common},
 * {@code io.opentelemetry.api}), read transitively: their types appear in this module's
 * signatures. Its histogram boundaries are {@code dev.statvar}'s {@code BucketBoundaries}: it does
 * not need statvar-export. The jar also works on the class path.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // the OpenTelemetry jars are automatic modules
module dev.statvar.otel {
    requires transitive dev.statvar;
    requires transitive io.opentelemetry.sdk.metrics;
    requires transitive io.opentelemetry.sdk.common;
    requires transitive io.opentelemetry.api;
    exports dev.statvar.otel;
}
