package dev.statvar.spring.boot;

import dev.statvar.StatRegistry;
import dev.statvar.export.MetricsSource;
import dev.statvar.export.StatExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

/** The endpoints' formats: each body with its content type; protobuf only from a source that has it. */
@Timeout(30)
class StatvarEndpointTest {
    private static final String PROTOBUF = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

    @Test
    void eachFormatIsTheSourcesBodyWithItsContentType() {
        StatvarEndpoint endpoint = new StatvarEndpoint(new FixedSource("a 1\n", "a 1\n# EOF\n", null));
        assertBody(endpoint.scrape(StatvarOutputFormat.PROMETHEUS_TEXT), "a 1\n", "text/plain;version=0.0.4;charset=utf-8");
        assertBody(endpoint.scrape(StatvarOutputFormat.OPENMETRICS_TEXT), "a 1\n# EOF\n",
                "application/openmetrics-text;version=1.0.0;charset=utf-8");
    }

    @Test
    void protobufFromASourceWithoutItIsTheTextFormat() {
        StatvarPrometheusEndpoint endpoint = new StatvarPrometheusEndpoint(new FixedSource("a 1\n", "a 1\n# EOF\n", null));
        assertBody(endpoint.scrape(StatvarOutputFormat.PROMETHEUS_PROTOBUF), "a 1\n", "text/plain;version=0.0.4;charset=utf-8");
    }

    @Test
    void protobufFromAStatExporterWithStatvarPrometheusPresent() {
        StatRegistry stats = StatRegistry.create();
        stats.counter("requests_total", "").add(7);
        StatExporter exporter = StatExporter.of(stats);
        exporter.accept(stats.collect());
        assertThat(exporter.protobufContentType()).as("statvar-prometheus provides the protobuf exposition").isNotNull();
        WebEndpointResponse<byte[]> r = new StatvarEndpoint(exporter).scrape(StatvarOutputFormat.PROMETHEUS_PROTOBUF);
        assertThat(r.getContentType().toString().replace(" ", "")).isEqualTo(PROTOBUF.replace(" ", ""));
        assertThat(r.getBody()).isEqualTo(exporter.prometheusProtobuf());
        assertThat(new String(r.getBody(), StandardCharsets.ISO_8859_1)).contains("requests");
    }

    @Test
    void aNullSourceIsRefused() {
        assertThatNullPointerException().isThrownBy(() -> new StatvarEndpoint(null)).withMessage("source");
    }

    private static void assertBody(WebEndpointResponse<byte[]> r, String body, String contentType) {
        assertThat(r.getStatus()).isEqualTo(200);
        assertThat(new String(r.getBody(), StandardCharsets.UTF_8)).isEqualTo(body);
        assertThat(r.getContentType()).hasToString(contentType);
    }

    /** A source of fixed bodies. */
    record FixedSource(String text, String openMetrics, byte[] protobuf) implements MetricsSource {
        @Override
        public String prometheusText() {
            return text;
        }

        @Override
        public String openMetricsText() {
            return openMetrics;
        }

        @Override
        public String json() {
            return "{}";
        }

        @Override
        public String protobufContentType() {
            return protobuf == null ? null : PROTOBUF;
        }

        @Override
        public byte[] prometheusProtobuf() {
            return protobuf;
        }
    }
}
