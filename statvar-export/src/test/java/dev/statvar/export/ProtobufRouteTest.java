package dev.statvar.export;

import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

import static dev.statvar.export.MetricsServerTest.get;
import static dev.statvar.export.MetricsServerTest.start;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The endpoint's protobuf route, with a stand-in {@link ProtobufExposition} (statvar-prometheus' real one
 * is tested there): offered only when the source has one, negotiated first, rendered once per interval,
 * gzipped, and a failing exposition gives 500.
 */
@Timeout(60)
class ProtobufRouteTest {
    static final String PROMETHEUS_PROTOBUF = "Accept: application/vnd.google.protobuf;"
            + "proto=io.prometheus.client.MetricFamily;encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,"
            + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";
    static final String TYPE = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

    /** Writes each value's name, one per line, and counts its calls. */
    static final class NamesExposition implements ProtobufExposition {
        final AtomicInteger writes = new AtomicInteger();
        volatile boolean fail;

        @Override
        public String contentType() {
            return TYPE;
        }

        @Override
        public void write(OutputStream out, List<? extends StatValue> values, ExportOptions options,
                          Function<? super StatValue, Instant> created, List<String> problems) throws IOException {
            writes.incrementAndGet();
            if (fail) {
                throw new IllegalStateException("stand-in failure");
            }
            for (StatValue v : values) {
                out.write((v.name() + "\n").getBytes(StandardCharsets.UTF_8));
            }
        }

        @Override
        public ProtobufExposition withNativeSchema(int schema) {
            return this;
        }

        @Override
        public ProtobufExposition withMaxNativeBuckets(int maxBuckets) {
            return this;
        }
    }

    @Test
    void aScraperAskingForProtobufGetsItAndOthersGetText() throws Exception {
        StatRegistry r = StatRegistry.create();
        r.counter("requests_total").add(3);
        NamesExposition pb = new NamesExposition();
        StatExporter ex = new StatExporter(r, ExportOptions.defaults(), pb);
        ex.accept(r.collect());
        try (MetricsServer server = start(MetricsServer.builder(ex))) {
            MetricsServerTest.Response proto = get(server, "/metrics", PROMETHEUS_PROTOBUF);
            assertEquals(200, proto.status());
            assertEquals(TYPE, proto.header("Content-Type"));
            assertEquals("requests_total\n", proto.text());
            // the same interval: rendered once, the same bytes
            MetricsServerTest.Response again = get(server, "/metrics", PROMETHEUS_PROTOBUF, "Accept-Encoding: gzip");
            assertEquals("gzip", again.header("Content-Encoding"));
            assertArrayEquals(proto.body(), new GZIPInputStream(new ByteArrayInputStream(again.body())).readAllBytes());
            assertEquals(1, pb.writes.get());
            assertSame(ex.prometheusProtobuf(), ex.prometheusProtobuf());
            // no Accept, and Prometheus without native histograms: the text formats as before
            assertTrue(get(server, "/metrics").header("Content-Type").startsWith("text/plain; version=0.0.4"));
            assertTrue(get(server, "/metrics", "Accept: application/openmetrics-text;version=1.0.0,"
                    + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1").header("Content-Type").startsWith("application/openmetrics-text"));
            // a new interval renders again
            r.counter("requests_total").add(1);
            ex.accept(r.collect());
            get(server, "/metrics", PROMETHEUS_PROTOBUF);
            assertEquals(2, pb.writes.get());
            // a failing exposition is a 500 with no details, like a failing text render
            pb.fail = true;
            r.counter("requests_total").add(1);
            ex.accept(r.collect());
            MetricsServerTest.Response failed = get(server, "/metrics", PROMETHEUS_PROTOBUF);
            assertEquals(500, failed.status());
            assertTrue(failed.text().startsWith("internal error"), failed.text());
        }
    }

    @Test
    void withoutAnExpositionProtobufIsNotOffered() throws Exception {
        StatRegistry r = StatRegistry.create();
        r.counter("requests_total").add(3);
        StatExporter ex = new StatExporter(r, ExportOptions.defaults(), null);
        assertNull(ex.protobufContentType());
        assertThrows(UnsupportedOperationException.class, ex::prometheusProtobuf);
        try (MetricsServer server = start(MetricsServer.builder(ex))) {
            MetricsServerTest.Response r1 = get(server, "/metrics", PROMETHEUS_PROTOBUF);
            assertTrue(r1.header("Content-Type").startsWith("application/openmetrics-text"), r1.header("Content-Type"));
            // protobuf only, text not refused: the default text format
            MetricsServerTest.Response r2 = get(server, "/metrics", "Accept: application/vnd.google.protobuf");
            assertTrue(r2.header("Content-Type").startsWith("text/plain; version=0.0.4"), r2.header("Content-Type"));
        }
    }

    /** statvar-export alone has no provider: the exporters it makes offer no protobuf. */
    @Test
    void noProviderInstalledHere() {
        assertNull(StatExporter.of(StatRegistry.create()).protobufExposition());
    }
}
