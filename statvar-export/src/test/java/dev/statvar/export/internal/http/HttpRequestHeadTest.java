package dev.statvar.export.internal.http;

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
        assertEquals("/metrics", parse("GET /metrics?x=1&y HTTP/1.1\r\nHost: x\r\n\r\n").rawPath());
        assertEquals("/metric%73", parse("GET /metric%73 HTTP/1.1\r\nHost: x\r\n\r\n").rawPath(), "not decoded");
        assertEquals("/stats.json", parse("GET http://127.0.0.1:9400/stats.json?a HTTP/1.1\r\nHost: x\r\n\r\n").rawPath());
        assertEquals("/", parse("GET http://127.0.0.1:9400 HTTP/1.1\r\nHost: x\r\n\r\n").rawPath());
        assertEquals("*", parse("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n").rawPath());
        assertEquals("/a", parse("GET /a#frag HTTP/1.1\r\nHost: x\r\n\r\n").rawPath());
    }

    @Test
    void bareLineFeedsAndHeaderValueWhitespace() throws Exception {
        HttpRequestHead h = parse("HEAD /-/healthy HTTP/1.1\nHost: x\nAccept:   text/plain  \nAccept: */*\n\n");
        assertEquals("HEAD", h.method());
        assertEquals(List.of("text/plain", "*/*"), h.header("Accept"), "values trimmed, repeats kept in order");
    }

    @Test
    void keepAliveAndBodies() throws Exception {
        assertFalse(parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").keepAlive());
        assertFalse(parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, Close\r\n\r\n").keepAlive());
        assertTrue(parse("GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\n\r\n").keepAlive());
        assertFalse(parse("GET / HTTP/1.0\r\n\r\n").keepAlive(), "HTTP/1.0: one request per connection");
        assertFalse(parse("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").keepAlive());
        assertTrue(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n").hasBody());
        assertTrue(parse("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n").hasBody());
        assertFalse(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n").hasBody());
        assertTrue(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 7, 7\r\n\r\n").hasBody(), "a repeated equal length is accepted");
    }

    /** Each head, with what is wrong with it, must be rejected with 400. */
    private static void assertAll400(String... whyThenHead) {
        for (int i = 0; i < whyThenHead.length; i += 2) {
            assertEquals(400, status(whyThenHead[i + 1]), whyThenHead[i]);
        }
    }

    @Test
    void badHeadsGetTheirStatus() {
        assertAll400(
                "no request line", "\r\n\r\n",
                "no version", "GET /metrics\r\n\r\n",
                "two spaces", "GET  /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
                "a fourth part", "GET /metrics HTTP/1.1 extra\r\n\r\n",
                "a method that is no token", "G\u00ffT /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
                "a target with obs-text", "GET /m\u00e9trics HTTP/1.1\r\nHost: x\r\n\r\n",
                "a TLS ClientHello", "\u0016\u0003\u0001 x y\r\n\r\n",
                "another protocol", "GET / FTP/1.1\r\n\r\n",
                "no colon", "GET / HTTP/1.1\r\nHost: x\r\nNo colon\r\n\r\n",
                "a space in a name", "GET / HTTP/1.1\r\nHost: x\r\nBad Name: x\r\n\r\n",
                "an empty name", "GET / HTTP/1.1\r\nHost: x\r\n: empty name\r\n\r\n",
                "obsolete line folding", "GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n folded\r\n\r\n",
                "two lengths", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
                "a negative length", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
                "a length over 18 digits", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n");
        assertEquals(505, status("GET / HTTP/2.0\r\n\r\n"));
        assertEquals(505, status("PRI * HTTP/2.0\r\n\r\n"), "the HTTP/2 preface");
        StringBuilder many = new StringBuilder("GET / HTTP/1.1\r\nHost: x\r\n");
        for (int i = 0; i <= HttpRequestHead.MAX_HEADERS; i++) {
            many.append("X-").append(i).append(": y\r\n");
        }
        assertEquals(431, status(many.append("\r\n").toString()));
    }

    /** RFC 9110 5.5: NUL and CR are invalid in a field value; the parser rejects every control character but HTAB. */
    @Test
    void aHeaderValueWithNulBareCrOrAnotherControlCharacterIs400() throws Exception {
        assertAll400(
                "NUL", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u0000b\r\n\r\n",
                "a bare CR", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n",
                "a bare CR before the CRLF", "GET / HTTP/1.1\r\nHost: x\r\nX-A: ab\r\r\n\r\n",
                "a bare CR before a CRLF in an LF head", "GET / HTTP/1.1\nHost: x\nX-A: ab\r\r\n\n",
                "NUL in Host", "GET / HTTP/1.1\r\nHost: x\u0000\r\n\r\n",
                "US, which String.strip() drops", "GET / HTTP/1.1\r\nHost: x\r\nX-A: \u001fb\r\n\r\n",
                "DEL", "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u007f\r\n\r\n");
        assertEquals(List.of("a\tb"), parse("GET / HTTP/1.1\r\nHost: x\r\nX-A: \t a\tb \t\r\n\r\n").header("X-A"),
                "HTAB inside a value is kept; SP and HTAB around it are dropped");
        assertEquals(List.of("caf\u00e9"), parse("GET / HTTP/1.1\r\nHost: x\r\nX-A: caf\u00e9\r\n\r\n").header("X-A"),
                "obs-text is kept");
    }

    /** RFC 9112 3.2: Host is required in HTTP/1.1 and may appear once; HTTP/1.0 may omit it. */
    @Test
    void hostIsRequiredOnceInHttp11AndOptionalInHttp10() throws Exception {
        assertAll400(
                "no Host", "GET /metrics HTTP/1.1\r\n\r\n",
                "no Host among others", "GET /metrics HTTP/1.1\r\nAccept: */*\r\n\r\n",
                "two Host lines, equal", "GET /metrics HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n",
                "two Host lines", "GET /metrics HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n",
                "one Host line listing two", "GET /metrics HTTP/1.1\r\nHost: a, b\r\n\r\n",
                "two Host lines in HTTP/1.0", "GET /metrics HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n");
        assertEquals(List.of("127.0.0.1:9400"), parse("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1:9400\r\n\r\n").header("Host"));
        assertEquals(List.of(""), parse("GET /metrics HTTP/1.1\r\nHost:\r\n\r\n").header("Host"),
                "an empty Host is allowed (RFC 9112 3.2: a target without an authority)");
        assertNull(parse("GET /metrics HTTP/1.0\r\n\r\n").header("Host"), "HTTP/1.0 without Host is served");
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
