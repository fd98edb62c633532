package dev.statvar.spring.boot;

import dev.statvar.export.MetricsSource;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * The Actuator endpoint {@code prometheus} serving statvar's scrape (as {@link StatvarScrapeEndpoint} describes),
 * defined by {@link StatvarEndpointAutoConfiguration} when statvar-prometheus is on the class path and Boot's own
 * Prometheus endpoint is not (micrometer-registry-prometheus absent or
 * {@code management.prometheus.metrics.export.enabled=false}). Boot's {@code includedNames} parameter is not
 * supported. Thread-safe.
 */
@WebEndpoint(id = "prometheus")
public class StatvarPrometheusEndpoint extends StatvarScrapeEndpoint {
    /**
     * An endpoint serving {@code source}.
     *
     * @param source what a scrape renders
     * @throws NullPointerException if {@code source} is null
     */
    public StatvarPrometheusEndpoint(MetricsSource source) {
        super(source);
    }
}
