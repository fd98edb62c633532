package dev.statvar.spring.boot;

import dev.statvar.export.MetricsSource;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * What the {@code statvar} and {@code prometheus} Actuator endpoints share: a GET of the endpoint is a scrape of a
 * {@link MetricsSource}, in the {@link StatvarOutputFormat} the request's {@code Accept} header chooses. A request
 * for the protobuf format of a source without one gets the Prometheus text format (and its content type).
 *
 * <h2>Threading contract</h2>
 * Immutable; {@link #scrape} is called by the server's request threads, concurrently, and calls the source
 * (thread-safe by its contract) once per request.
 */
public abstract class StatvarScrapeEndpoint {
    private final MetricsSource source;

    /**
     * An endpoint serving {@code source}.
     *
     * @param source what a scrape renders
     * @throws NullPointerException if {@code source} is null
     */
    protected StatvarScrapeEndpoint(MetricsSource source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    /**
     * The source's current exposition in {@code format}.
     *
     * @param format the format Boot chose from the {@code Accept} header
     * @return the body, with the content type of the format it is in
     */
    @ReadOperation(producesFrom = StatvarOutputFormat.class)
    public WebEndpointResponse<byte[]> scrape(StatvarOutputFormat format) {
        switch (format) {
            case PROMETHEUS_PROTOBUF:
                if (source.protobufContentType() != null) {
                    return new WebEndpointResponse<>(source.prometheusProtobuf(), format);
                }
                return text(source.prometheusText(), StatvarOutputFormat.PROMETHEUS_TEXT);
            case OPENMETRICS_TEXT:
                return text(source.openMetricsText(), format);
            default:
                return text(source.prometheusText(), StatvarOutputFormat.PROMETHEUS_TEXT);
        }
    }

    private static WebEndpointResponse<byte[]> text(String body, StatvarOutputFormat format) {
        return new WebEndpointResponse<>(body.getBytes(StandardCharsets.UTF_8), format);
    }
}
