/**
 * statvar's exporters: the Prometheus/OpenMetrics endpoint, log and CSV reporters. Uses a
 * {@code dev.statvar.export.ProtobufExposition} provider when one is present (statvar-prometheus). Requires only
 * {@code dev.statvar} (read transitively by its users: the API types appear in this module's
 * signatures) and {@code java.base}. The jar also works on the class path.
 */
module dev.statvar.export {
    requires transitive dev.statvar;
    exports dev.statvar.export;
    // the protobuf exposition, when a provider (statvar-prometheus) is present
    uses dev.statvar.export.ProtobufExposition;
}
