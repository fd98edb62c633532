package dev.statvar.spring.boot;

import org.springframework.boot.actuate.endpoint.Producible;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;

/**
 * The formats of a {@link StatvarScrapeEndpoint}, chosen by Boot from the request's {@code Accept} header: of the
 * formats it accepts, the one declared last here (Boot's rule for {@link Producible}: q-values are not weighed);
 * the Prometheus text format when it names none ({@code *}{@code /*} or no header). The order is that of Boot's
 * own Prometheus endpoint.
 */
public enum StatvarOutputFormat implements Producible<StatvarOutputFormat> {
    /** Prometheus text exposition format 0.0.4, the default. */
    PROMETHEUS_TEXT("text/plain;version=0.0.4;charset=utf-8") {
        @Override
        public boolean isDefault() {
            return true;
        }
    },
    /** OpenMetrics 1.0 text. */
    OPENMETRICS_TEXT("application/openmetrics-text;version=1.0.0;charset=utf-8"),
    /** The Prometheus protobuf exposition, served when the source has one (statvar-prometheus present). */
    PROMETHEUS_PROTOBUF("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited");

    private final MimeType mimeType;

    StatvarOutputFormat(String mimeType) {
        this.mimeType = MimeTypeUtils.parseMimeType(mimeType);
    }

    @Override
    public MimeType getProducedMimeType() {
        return mimeType;
    }
}
