/**
 * statvar's exporters. {@link dev.statvar.export.StatExporter} is a collector sink that keeps the
 * last interval and renders it as Prometheus text, OpenMetrics or JSON; a
 * {@link dev.statvar.export.MetricsServer} serves it (or any {@link dev.statvar.export.MetricsSource})
 * over HTTP. {@link dev.statvar.export.LogReporter} and {@link dev.statvar.export.CsvReporter} are
 * collector sinks that write each interval to a log or a CSV file. The HTTP server itself is in
 * {@code dev.statvar.export.internal.http}, which the module does not export. Each class states its
 * threading contract.
 */
package dev.statvar.export;
