package dev.statvar.export;

/**
 * What the endpoint serves. Thread-safe: called concurrently by scrapes. Each call renders the current state.
 * A {@link MetricsServer} answers a call that throws or returns null with 500.
 */
public interface MetricsSource {
    /**
     * Prometheus text exposition format 0.0.4.
     *
     * @return the body of a {@code /metrics} response in that format
     */
    String prometheusText();

    /**
     * OpenMetrics 1.0 text.
     *
     * @return the body of a {@code /metrics} response in that format, ending with {@code "# EOF\n"}
     */
    String openMetricsText();

    /**
     * The stats as JSON.
     *
     * @return the body of a {@code /stats.json} response
     */
    String json();

    /**
     * The media type of {@link #prometheusProtobuf()}, or null when this source has no protobuf
     * exposition (the default): then the endpoint does not offer the format.
     *
     * @return e.g. {@code application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily;
     *         encoding=delimited}, or null
     */
    default String protobufContentType() {
        return null;
    }

    /**
     * The Prometheus protobuf exposition (length-delimited {@code io.prometheus.client.MetricFamily}
     * messages, with native histograms); called only when {@link #protobufContentType()} is not null.
     * The caller does not modify the array.
     *
     * @return the body of a {@code /metrics} response in that format
     * @throws UnsupportedOperationException if this source has no protobuf exposition (the default)
     */
    default byte[] prometheusProtobuf() {
        throw new UnsupportedOperationException("this MetricsSource has no protobuf exposition");
    }
}
