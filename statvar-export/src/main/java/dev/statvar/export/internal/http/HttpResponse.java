package dev.statvar.export.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * An HTTP/1.1 response to write: status, headers (besides {@code Date}, {@code Content-Length} and
 * {@code Connection}, which {@link #encode} adds) and body. Immutable apart from the arrays it is given.
 *
 * @param status    the status code
 * @param headers   header name (as written) to value, in order
 * @param body      the body; its length is the {@code Content-Length}
 * @param omitBody  true for HEAD: the headers of the full response, no body bytes
 */
public record HttpResponse(int status, Map<String, String> headers, byte[] body, boolean omitBody) {
    private static final DateTimeFormatter HTTP_DATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    public HttpResponse {
        Objects.requireNonNull(headers, "headers");
        Objects.requireNonNull(body, "body");
    }

    /**
     * The bytes to write: status line, {@code Date}, the headers, {@code Content-Length} (of the body, also
     * when it is omitted), {@code Connection: close} unless kept alive, a blank line, then the body unless
     * omitted. Thread-safe.
     */
    ByteBuffer[] encode(boolean keepAlive) {
        StringBuilder h = new StringBuilder(256);
        h.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        h.append("Date: ").append(HTTP_DATE.format(Instant.now())).append("\r\n");
        for (Map.Entry<String, String> e : headers.entrySet()) {
            h.append(e.getKey()).append(": ").append(e.getValue()).append("\r\n");
        }
        h.append("Content-Length: ").append(body.length).append("\r\n");
        if (!keepAlive) {
            h.append("Connection: close\r\n");
        }
        h.append("\r\n");
        ByteBuffer head = ByteBuffer.wrap(h.toString().getBytes(StandardCharsets.ISO_8859_1));
        return omitBody || body.length == 0 ? new ByteBuffer[] {head} : new ByteBuffer[] {head, ByteBuffer.wrap(body)};
    }

    /** The answer to a head the parser rejected with {@code status} (400, 431 or 505): plain text, no details. */
    static HttpResponse badHead(int status) {
        String body = switch (status) {
            case 431 -> "request headers too large\n";
            case 505 -> "HTTP version not supported: use HTTP/1.1\n";
            default -> "bad request\n";
        };
        return new HttpResponse(status, Map.of("Content-Type", "text/plain; charset=utf-8"),
                body.getBytes(StandardCharsets.UTF_8), false);
    }

    /** The reason phrase of the statuses this server sends. */
    static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 505 -> "HTTP Version Not Supported";
            default -> "Status " + status;
        };
    }
}
