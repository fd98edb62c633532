package dev.statvar.export;

/** What the endpoint serves. Thread-safe: called concurrently by scrapes. Each call renders the current state. */
public interface MetricsSource {
    /** Prometheus text exposition format 0.0.4. */
    String prometheusText();

    /** OpenMetrics 1.0 text, ending with "# EOF\n". */
    String openMetricsText();

    /** The body of /stats.json. */
    String json();
}
