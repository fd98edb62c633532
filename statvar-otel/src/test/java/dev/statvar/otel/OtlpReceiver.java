package dev.statvar.otel;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An in-process OTLP/HTTP metrics receiver on 127.0.0.1: decodes each protobuf
 * {@code ExportMetricsServiceRequest} with the opentelemetry-proto classes, as an OpenTelemetry
 * Collector does, and answers with an empty response.
 */
final class OtlpReceiver implements AutoCloseable {
    private final HttpServer server;
    private final BlockingQueue<ExportMetricsServiceRequest> requests = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> contentTypes = new LinkedBlockingQueue<>();

    OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/metrics", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                contentTypes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")));
                requests.add(ExportMetricsServiceRequest.parseFrom(in.readAllBytes()));
                byte[] body = ExportMetricsServiceResponse.getDefaultInstance().toByteArray();
                exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
                exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            } catch (IOException | RuntimeException e) {
                exchange.sendResponseHeaders(400, -1);
                exchange.close();
            }
        });
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/metrics";
    }

    /** The next request received, waiting at most 10 s; null when none came. */
    ExportMetricsServiceRequest next() throws InterruptedException {
        return requests.poll(10, TimeUnit.SECONDS);
    }

    String nextContentType() throws InterruptedException {
        return contentTypes.poll(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
