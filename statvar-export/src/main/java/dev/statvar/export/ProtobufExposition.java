package dev.statvar.export;

import dev.statvar.CounterValue;
import dev.statvar.StatValue;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The Prometheus protobuf exposition ({@code io.prometheus.client.MetricFamily}, length-delimited) of
 * statvar values, with native and classic histograms: a {@link java.util.ServiceLoader} service, so that
 * statvar-export's endpoint serves protobuf without a dependency of its own. statvar-prometheus
 * provides one ({@code dev.statvar.prometheus.ClientJavaProtobufExposition}, written by Prometheus'
 * client_java); with it on the class or module path, {@link StatExporter} finds it and a
 * {@link MetricsServer} offers the format to scrapers that ask for it.
 *
 * <p>Implementations are immutable and thread-safe: scrapes call {@link #write} concurrently.
 */
public interface ProtobufExposition {
    /** A {@link #withNativeSchema} argument: each histogram's schema follows its precision (the default). */
    int SCHEMA_FROM_PRECISION = Integer.MIN_VALUE;

    /**
     * The media type of what {@link #write} writes, for the {@code Content-Type} header.
     *
     * @return {@code application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited}
     */
    String contentType();

    /**
     * Writes one scrape: each stat family as one length-delimited {@code MetricFamily} message, named and
     * shaped as statvar-export's text format names them. A family whose
     * names collide with an earlier family's is left out and described in {@code problems}.
     *
     * @param out      where the messages go; not closed
     * @param values   the values to show, a family's series in any order, families in first-appearance order
     * @param options  units, classic {@code le} boundaries and quantiles, as statvar-export's text format uses
     * @param created  when each value's stat was registered, for the created timestamps; null: none written
     * @param problems receives a line per family left out; may be null
     * @throws IOException          if {@code out} throws
     * @throws NullPointerException if {@code out}, {@code values}, a value or {@code options} is null
     */
    void write(OutputStream out, List<? extends StatValue> values, ExportOptions options,
               Function<? super StatValue, Instant> created, List<String> problems) throws IOException;

    /**
     * As {@link #write(OutputStream, List, ExportOptions, Function, List)}, each counter's total given by
     * {@code counterTotal} (the exporter's: 2^64 added per wrap it saw, so a wrapped counter does not read as a
     * reset). A provider that does not override this ignores it: statvar-prometheus' provider overrides it.
     *
     * @param out          where the messages go; not closed
     * @param values       the values to show
     * @param options      units, classic {@code le} boundaries and quantiles
     * @param created      when each value's stat was registered; null: none written
     * @param counterTotal a counter's total, unsigned, in the stat's own unit; null: {@code total()} read unsigned
     * @param problems     receives a line per family left out; may be null
     * @throws IOException          if {@code out} throws
     * @throws NullPointerException if {@code out}, {@code values}, a value or {@code options} is null
     */
    default void write(OutputStream out, List<? extends StatValue> values, ExportOptions options,
                       Function<? super StatValue, Instant> created, ToDoubleFunction<? super CounterValue> counterTotal,
                       List<String> problems) throws IOException {
        write(out, values, options, created, problems);
    }

    /**
     * This exposition with another native-histogram schema for every histogram.
     *
     * @param schema -4..8, or {@link #SCHEMA_FROM_PRECISION}
     * @return a new exposition; this one is unchanged
     * @throws IllegalArgumentException if {@code schema} is neither
     */
    ProtobufExposition withNativeSchema(int schema);

    /**
     * This exposition with another limit on a histogram's native buckets.
     *
     * @param maxBuckets at least 1
     * @return a new exposition; this one is unchanged
     * @throws IllegalArgumentException if {@code maxBuckets} is below 1
     */
    ProtobufExposition withMaxNativeBuckets(int maxBuckets);
}
