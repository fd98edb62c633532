package dev.statvar.prometheus;

import dev.statvar.export.ProtobufExposition;
import dev.statvar.CounterValue;
import dev.statvar.StatValue;
import dev.statvar.export.ExportOptions;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusProtobufWriter;
import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;
import io.prometheus.metrics.expositionformats.internal.PrometheusProtobufWriterImpl;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The {@link ProtobufExposition} on client_java: {@link StatvarSnapshots} converts, client_java's protobuf
 * writer (1.10.0, its shaded protobuf 4.36.2 classes) encodes each family, spans and delta-encoded counts
 * included. One addition: a histogram with no populated native bucket gets the no-op span (offset 0,
 * length 0) that the native-histogram spec asks for, which client_java's writer leaves out (the zero
 * threshold, 2^-128, already marks it native for Prometheus; the span makes it so for any reader).
 *
 * <p>Immutable and thread-safe: scrapes write concurrently, each with its own stream and conversion. The
 * {@link java.util.ServiceLoader} provider of {@link ProtobufExposition}.
 */
public final class ClientJavaProtobufExposition implements ProtobufExposition {
    private static final PrometheusProtobufWriterImpl WRITER = new PrometheusProtobufWriterImpl();
    private static final Metrics.BucketSpan NO_OP_SPAN = Metrics.BucketSpan.newBuilder().setOffset(0).setLength(0).build();

    private final int schema;
    private final int maxBuckets;

    /** The exposition with the native schema from each histogram's precision and at most 160 native buckets. */
    public ClientJavaProtobufExposition() {
        this(StatvarSnapshots.SCHEMA_FROM_PRECISION, StatvarSnapshots.DEFAULT_MAX_NATIVE_BUCKETS);
    }

    private ClientJavaProtobufExposition(int schema, int maxBuckets) {
        this.schema = schema;
        this.maxBuckets = maxBuckets;
    }

    @Override
    public String contentType() {
        return PrometheusProtobufWriter.CONTENT_TYPE;
    }

    @Override
    public void write(OutputStream out, List<? extends StatValue> values, ExportOptions options,
                      Function<? super StatValue, Instant> created, List<String> problems) throws IOException {
        Objects.requireNonNull(out, "out");
        write(out, values, options, created, null, problems);
    }

    @Override
    public void write(OutputStream out, List<? extends StatValue> values, ExportOptions options,
                      Function<? super StatValue, Instant> created, ToDoubleFunction<? super CounterValue> counterTotal,
                      List<String> problems) throws IOException {
        Objects.requireNonNull(out, "out");
        MetricSnapshots snapshots = conversion(options).convert(values, created, counterTotal, problems);
        write(out, snapshots);
    }

    /** The conversion this exposition writes with. */
    StatvarSnapshots conversion(ExportOptions options) {
        return StatvarSnapshots.of(options).withNativeSchema(schema).withMaxNativeBuckets(maxBuckets);
    }

    /** Writes {@code snapshots} length-delimited, a family without series left out (as client_java does). */
    static void write(OutputStream out, MetricSnapshots snapshots) throws IOException {
        for (MetricSnapshot s : snapshots) {
            if (s.getDataPoints().isEmpty()) {
                continue;
            }
            Metrics.MetricFamily family = WRITER.convert(s, EscapingScheme.DEFAULT);
            if (s instanceof HistogramSnapshot) {
                family = withNoOpSpans(family);
            }
            family.writeDelimitedTo(out);
        }
    }

    /** {@code family} with the no-op span on each histogram that has no span. */
    static Metrics.MetricFamily withNoOpSpans(Metrics.MetricFamily family) {
        Metrics.MetricFamily.Builder b = null;
        for (int i = 0; i < family.getMetricCount(); i++) {
            Metrics.Histogram h = family.getMetric(i).getHistogram();
            if (h.getPositiveSpanCount() == 0 && h.getNegativeSpanCount() == 0) {
                b = b == null ? family.toBuilder() : b;
                b.getMetricBuilder(i).getHistogramBuilder().addPositiveSpan(NO_OP_SPAN);
            }
        }
        return b == null ? family : b.build();
    }

    @Override
    public ProtobufExposition withNativeSchema(int schema) {
        return new ClientJavaProtobufExposition(StatvarSnapshots.checkSchema(schema), maxBuckets);
    }

    @Override
    public ProtobufExposition withMaxNativeBuckets(int maxBuckets) {
        return new ClientJavaProtobufExposition(schema, StatvarSnapshots.checkMaxBuckets(maxBuckets));
    }
}
