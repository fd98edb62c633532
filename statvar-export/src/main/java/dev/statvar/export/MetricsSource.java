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
}
