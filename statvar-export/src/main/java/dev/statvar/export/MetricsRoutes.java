package dev.statvar.export;

import dev.statvar.export.internal.http.HttpFrontEnd;
import dev.statvar.export.internal.http.HttpRequestHead;
import dev.statvar.export.internal.http.HttpResponse;
import dev.statvar.export.internal.http.Workers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPOutputStream;

/**
 * What a {@link MetricsServer} answers to one request: routes, methods, content negotiation, gzip, and a
 * 500 for a failing source (see the {@link MetricsServer} class documentation, the contract). Called by
 * the workers, concurrently; thread-safe.
 */
final class MetricsRoutes {
    private static final System.Logger LOG = System.getLogger("dev.statvar.export");
    private static final int MAX_LOGGED_CAUSES = 64;

    private static final String PROMETHEUS_TYPE = "text/plain; version=0.0.4; charset=utf-8";
    private static final String OPENMETRICS_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";
    private static final String JSON_TYPE = "application/json; charset=utf-8";
    private static final String TEXT_TYPE = "text/plain; charset=utf-8";
    private static final String HEALTHY_BODY = "statvar is healthy\n";

    private enum Route { METRICS, JSON, HEALTHY }

    /**
     * What /metrics offers, in the server's order of preference (ContentNegotiation): protobuf (when the
     * source has it), OpenMetrics, text; the text format is the default (the last offer).
     */
    private static final ContentNegotiation.Offer PROTOBUF_OFFER = new ContentNegotiation.Offer("application",
            "vnd.google.protobuf", Map.of("proto", "io.prometheus.client.MetricFamily", "encoding", "delimited"));
    private static final List<ContentNegotiation.Offer> TEXT_OFFERS = List.of(
            new ContentNegotiation.Offer("application", "openmetrics-text", Map.of("version", "1.0.0")),
            new ContentNegotiation.Offer("text", "plain", Map.of("version", "0.0.4")));
    private static final List<ContentNegotiation.Offer> ALL_OFFERS = List.of(
            PROTOBUF_OFFER, TEXT_OFFERS.get(0), TEXT_OFFERS.get(1));

    private final MetricsSource source;
    /**
     * Per content type of a 200 body, the last body and its bytes: reused while the source returns that
     * same {@code String} ({@link StatExporter} returns one per interval and format), so a body is encoded,
     * and gzipped, once and not per request. Concurrent map; a race encodes twice, harmlessly.
     */
    private final ConcurrentHashMap<String, Encoded> encoded = new ConcurrentHashMap<>();

    /** A body, its UTF-8 bytes and (once asked for) its gzip bytes; the arrays are never written after. */
    private record Encoded(Object body, byte[] bytes, byte[] gzipped) {
    }
    /** Failure causes already logged (each once); a concurrent set, bounded by {@link #MAX_LOGGED_CAUSES}. */
    private final Set<String> loggedCauses = ConcurrentHashMap.newKeySet();

    MetricsRoutes(MetricsSource source) {
        this.source = Objects.requireNonNull(source, "source");
    }

    /** The response to one request; never throws for a failing source (500). */
    HttpResponse respond(HttpRequestHead req) {
        String path = req.rawPath();
        Route route = route(path);
        String method = req.method();
        boolean head = "HEAD".equals(method);
        Map<String, String> out = new LinkedHashMap<>();
        out.put("Vary", route == Route.METRICS ? "Accept, Accept-Encoding" : "Accept-Encoding");
        if (route == null) {
            return response(404, head, out, "not found: try /metrics, /stats.json or /-/healthy\n");
        }
        if (!head && !"GET".equals(method)) {
            out.put("Allow", "GET, HEAD");
            return response(405, false, out, "method not allowed: GET or HEAD\n");
        }
        String protobufType = route == Route.METRICS ? source.protobufContentType() : null;
        List<ContentNegotiation.Offer> offers = protobufType != null ? ALL_OFFERS : TEXT_OFFERS;
        int chosen = route == Route.METRICS ? ContentNegotiation.choose(req.header("Accept"), offers, offers.size() - 1) : 0;
        if (chosen < 0) {
            return response(406, head, out, "not acceptable: /metrics is served as " + PROMETHEUS_TYPE + " or "
                    + OPENMETRICS_TYPE + (protobufType != null ? " or " + protobufType : "") + "\n");
        }
        ContentNegotiation.Offer format = route == Route.METRICS ? offers.get(chosen) : null;
        boolean openMetrics = format == TEXT_OFFERS.get(0);
        String type;
        Object body;
        try {
            switch (route) {
                case METRICS:
                    if (format == PROTOBUF_OFFER) {
                        type = protobufType;
                        body = source.prometheusProtobuf();
                    } else {
                        type = openMetrics ? OPENMETRICS_TYPE : PROMETHEUS_TYPE;
                        body = openMetrics ? source.openMetricsText() : source.prometheusText();
                    }
                    break;
                case JSON:
                    type = JSON_TYPE;
                    body = source.json();
                    break;
                default:
                    type = TEXT_TYPE;
                    body = HEALTHY_BODY;
                    break;
            }
            Objects.requireNonNull(body, "the MetricsSource returned null");
        } catch (RuntimeException | Error e) {
            if (e instanceof VirtualMachineError) {
                throw e;
            }
            logOnce(path + (openMetrics ? " (OpenMetrics)" : format == PROTOBUF_OFFER ? " (protobuf)" : ""), e);
            return response(500, head, out, "internal error: rendering failed, see the server log\n");
        }
        boolean gzip = acceptsGzip(req.header("Accept-Encoding"));
        out.put("Content-Type", type);
        if (gzip) {
            out.put("Content-Encoding", "gzip");
        }
        return new HttpResponse(200, out, bytes(type, body, gzip), head); // HEAD: Content-Length of this body, no body
    }

    /**
     * The bytes of {@code body} (a {@code String}, sent as UTF-8, or a {@code byte[]}), gzipped or not,
     * reused while the source returns the same body object.
     */
    private byte[] bytes(String type, Object body, boolean gzip) {
        Encoded e = encoded.get(type);
        if (e == null || e.body() != body) { // identity: the same rendered body
            byte[] raw = body instanceof byte[] b ? b : ((String) body).getBytes(StandardCharsets.UTF_8);
            e = new Encoded(body, raw, null);
            encoded.put(type, e);
        }
        if (!gzip) {
            return e.bytes();
        }
        if (e.gzipped() == null) {
            e = new Encoded(body, e.bytes(), gzip(e.bytes()));
            encoded.put(type, e);
        }
        return e.gzipped();
    }

    private static Route route(String rawPath) {
        switch (rawPath) {
            case "/metrics": return Route.METRICS;
            case "/stats.json": return Route.JSON;
            case "/-/healthy": return Route.HEALTHY;
            default: return null;
        }
    }

    /** A plain-text answer other than a 200 body (never gzipped, not cached). */
    private static HttpResponse response(int code, boolean head, Map<String, String> headers, String body) {
        headers.put("Content-Type", TEXT_TYPE);
        return new HttpResponse(code, headers, body.getBytes(StandardCharsets.UTF_8), head); // HEAD: no body
    }

    private static byte[] gzip(byte[] bytes) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(bytes.length / 4 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(buf, 8192)) {
            gz.write(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        return buf.toByteArray();
    }

    /** Whether {@code Accept-Encoding} lists gzip (or x-gzip) with a quality other than 0. */
    static boolean acceptsGzip(List<String> acceptEncoding) {
        if (acceptEncoding != null) {
            for (String value : acceptEncoding) {
                for (String item : value.split(",")) {
                    String[] parts = item.split(";");
                    String coding = parts[0].trim();
                    if (coding.equalsIgnoreCase("gzip") || coding.equalsIgnoreCase("x-gzip")) {
                        return nonZeroQuality(parts);
                    }
                }
            }
        }
        return false;
    }

    private static boolean nonZeroQuality(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String p = parts[i].trim();
            if (p.length() >= 2 && p.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    return Double.parseDouble(p.substring(2).trim()) > 0;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return true;
    }

    private void logOnce(String where, Throwable t) {
        StackTraceElement[] frames = t.getStackTrace();
        String cause = t.getClass().getName() + (frames.length > 0 ? " at " + frames[0] : "");
        // bounded: at most MAX_LOGGED_CAUSES (+ one per worker racing the check) causes remembered
        if (loggedCauses.size() < MAX_LOGGED_CAUSES && loggedCauses.add(where + ": " + cause)) {
            LOG.log(Level.WARNING, "statvar-export: the MetricsSource failed serving " + where
                    + "; answered 500 (logged once per cause: " + cause + ")", t);
        }
    }

}
