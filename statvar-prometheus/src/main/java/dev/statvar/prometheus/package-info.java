/**
 * statvar's stats as Prometheus client_java snapshots ({@link dev.statvar.prometheus.StatvarSnapshots}):
 * counters, gauges and histograms with classic and native buckets, for client_java's registry
 * ({@link dev.statvar.prometheus.StatvarCollector}) and for statvar-export's endpoint
 * ({@link dev.statvar.export.ProtobufExposition}, a {@link java.util.ServiceLoader} service). See
 * docs/PROMETHEUS.md.
 */
package dev.statvar.prometheus;
