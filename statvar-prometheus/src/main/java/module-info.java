/**
 * statvar's stats as Prometheus client_java snapshots: {@link dev.statvar.prometheus.StatvarCollector}, a
 * client_java {@code MultiCollector}, and {@link dev.statvar.export.ProtobufExposition}, the protobuf
 * exposition (native and classic histograms) that statvar-export can load with {@link java.util.ServiceLoader}.
 * Requires {@code dev.statvar}, {@code dev.statvar.export} and client_java's model and exposition formats
 * (automatic modules), read transitively: their types appear in this module's signatures. The jar also
 * works on the class path.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // client_java's jars are automatic modules
module dev.statvar.prometheus {
    requires transitive dev.statvar;
    requires transitive dev.statvar.export;
    requires transitive io.prometheus.metrics.model;
    requires io.prometheus.metrics.config;
    requires io.prometheus.metrics.expositionformats;
    requires io.prometheus.writer.text;
    exports dev.statvar.prometheus;
    provides dev.statvar.export.ProtobufExposition with dev.statvar.prometheus.ClientJavaProtobufExposition;
}
