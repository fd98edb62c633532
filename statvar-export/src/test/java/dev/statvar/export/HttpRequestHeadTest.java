package dev.statvar.export;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The request-head parser of the front end, on bytes: what it accepts, and the status of what it rejects. */
class HttpRequestHeadTest {

    private static HttpRequestHead parse(String head) throws HttpRequestHead.BadRequest {
        byte[] b = head.getBytes(ISO_8859_1);
        return HttpRequestHead.parse(b, 0, b.length);
    }

    private static int status(String head) {
        return assertThrows(HttpRequestHead.BadRequest.class, () -> parse(head), head).status;
    }

    @Test
    void parsesWhatPrometheusSends() throws Exception {
        HttpRequestHead h = parse("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9400\r\nUser-Agent: Prometheus/2.42.0\r\n"
                + "Accept: application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5\r\n"
                + "Accept-Encoding: gzip\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\n\r\n");
        assertEquals("GET", h.method());
        assertEquals("/metrics", h.rawPath());
        assertTrue(h.isHttp11());
        assertTrue(h.keepAlive());
        assertFalse(h.hasBody());
        assertEquals(List.of("gzip"), h.header("accept-encoding"));
        assertEquals(List.of("gzip"), h.header("ACCEPT-ENCODING"), "header names in any case");
        assertNull(h.header("Cookie"));
    }

    @Test
    void pathsQueriesAndTargetForms() throws Exception {
        assertEquals("/metrics", parse("GET /metrics?x=1&y HTTP/1.1\r\n\r\n").rawPath());
        assertEquals("/metric%73", parse("GET /metric%73 HTTP/1.1\r\n\r\n").rawPath(), "not decoded");
        assertEquals("/stats.json", parse("GET http://127.0.0.1:9400/stats.json?a HTTP/1.1\r\n\r\n").rawPath());
        assertEquals("/", parse("GET http://127.0.0.1:9400 HTTP/1.1\r\n\r\n").rawPath());
        assertEquals("*", parse("OPTIONS * HTTP/1.1\r\n\r\n").rawPath());
        assertEquals("/a", parse("GET /a#frag HTTP/1.1\r\n\r\n").rawPath());
    }

    @Test
    void bareLineFeedsAndHeaderValueWhitespace() throws Exception {
        HttpRequestHead h = parse("HEAD /-/healthy HTTP/1.1\nAccept:   text/plain  \nAccept: */*\n\n");
        assertEquals("HEAD", h.method());
        assertEquals(List.of("text/plain", "*/*"), h.header("Accept"), "values trimmed, repeats kept in order");
    }

    @Test
    void keepAliveAndBodies() throws Exception {
        assertFalse(parse("GET / HTTP/1.1\r\nConnection: close\r\n\r\n").keepAlive());
        assertFalse(parse("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n").keepAlive());
        assertTrue(parse("GET / HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\n").keepAlive());
        assertFalse(parse("GET / HTTP/1.0\r\n\r\n").keepAlive(), "HTTP/1.0: one request per connection");
        assertFalse(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keepAlive());
        assertTrue(parse("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n").hasBody());
        assertTrue(parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").hasBody());
        assertFalse(parse("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n").hasBody());
        assertTrue(parse("POST / HTTP/1.1\r\nContent-Length: 7, 7\r\n\r\n").hasBody(), "a repeated equal length is accepted");
    }

    @Test
    void badHeadsGetTheirStatus() {
        assertEquals(400, status("\r\n\r\n"));
        assertEquals(400, status("GET /metrics\r\n\r\n"));
        assertEquals(400, status("GET  /metrics HTTP/1.1\r\n\r\n"));
        assertEquals(400, status("GET /metrics HTTP/1.1 extra\r\n\r\n"));
        assertEquals(400, status("G\u00ffT /metrics HTTP/1.1\r\n\r\n"));
        assertEquals(400, status("GET /m\u00e9trics HTTP/1.1\r\n\r\n"));
        assertEquals(400, status("\u0016\u0003\u0001 x y\r\n\r\n"), "a TLS ClientHello");
        assertEquals(400, status("GET / FTP/1.1\r\n\r\n"));
        assertEquals(505, status("GET / HTTP/2.0\r\n\r\n"));
        assertEquals(505, status("PRI * HTTP/2.0\r\n\r\n"), "the HTTP/2 preface");
        assertEquals(400, status("GET / HTTP/1.1\r\nNo colon\r\n\r\n"));
        assertEquals(400, status("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n"));
        assertEquals(400, status("GET / HTTP/1.1\r\n: empty name\r\n\r\n"));
        assertEquals(400, status("GET / HTTP/1.1\r\nA: b\r\n folded\r\n\r\n"), "obsolete line folding");
        assertEquals(400, status("POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"));
        assertEquals(400, status("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"));
        assertEquals(400, status("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n"));
        StringBuilder many = new StringBuilder("GET / HTTP/1.1\r\n");
        for (int i = 0; i <= HttpRequestHead.MAX_HEADERS; i++) {
            many.append("X-").append(i).append(": y\r\n");
        }
        assertEquals(431, status(many.append("\r\n").toString()));
    }

    @Test
    void theEndOfAHeadIsFoundWithEitherLineEnd() {
        byte[] crlf = "GET / HTTP/1.1\r\nA: b\r\n\r\nNEXT".getBytes(ISO_8859_1);
        assertEquals(crlf.length - 4, RequestBuffer.headEnd(crlf, 0, crlf.length));
        byte[] lf = "GET / HTTP/1.1\nA: b\n\nNEXT".getBytes(ISO_8859_1);
        assertEquals(lf.length - 4, RequestBuffer.headEnd(lf, 0, lf.length));
        byte[] partial = "GET / HTTP/1.1\r\nA: b\r\n\r".getBytes(ISO_8859_1);
        assertEquals(-1, RequestBuffer.headEnd(partial, 0, partial.length));
    }
}
