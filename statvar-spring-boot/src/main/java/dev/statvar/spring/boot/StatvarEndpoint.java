package dev.statvar.spring.boot;

import dev.statvar.export.MetricsSource;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * The Actuator endpoint {@code statvar} ({@code /actuator/statvar} once exposed:
 * {@code management.endpoints.web.exposure.include=statvar}): statvar's scrape, as {@link StatvarScrapeEndpoint}
 * describes. Thread-safe.
 */
@WebEndpoint(id = "statvar")
public class StatvarEndpoint extends StatvarScrapeEndpoint {
    /**
     * An endpoint serving {@code source}.
     *
     * @param source what a scrape renders
     * @throws NullPointerException if {@code source} is null
     */
    public StatvarEndpoint(MetricsSource source) {
        super(source);
    }
}
