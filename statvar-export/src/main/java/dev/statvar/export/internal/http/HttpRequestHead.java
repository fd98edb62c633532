package dev.statvar.export.internal.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The request line and headers of one HTTP/1.x request, parsed from bytes. Immutable; a pure parser
 * ({@link #parse}) plus the facts the front end and the routes need: method, raw path, version,
 * headers, whether the connection stays open and whether a body follows.
 *
 * <p>What it accepts: {@code METHOD SP target SP HTTP/1.0|HTTP/1.1}, then {@code name: value} lines;
 * lines end with CRLF or a bare LF. The target is origin-form ({@code /path?query}), absolute-form
 * ({@code http://host/path}) or anything else, taken as it is (no route matches it). What it rejects,
 * with the status to answer: a malformed request line or header line, obsolete line folding, a header
 * value holding NUL, a bare CR or another control character but HTAB, an invalid or repeated-and-different
 * {@code Content-Length}, an HTTP/1.1 request without {@code Host}, any request with more than one
 * {@code Host} (400, RFC 9112 3.2); another HTTP version (505); more than
 * {@link #MAX_HEADERS} header lines (431; {@link HttpFrontEnd} also answers 431 to a head over
 * {@link #MAX_HEAD_BYTES} bytes).
 */
public final class HttpRequestHead {
    /** Longest request line and headers accepted, blank line included. */
    public static final int MAX_HEAD_BYTES = 16 * 1024;
    /** Most header lines accepted. */
    static final int MAX_HEADERS = 100;

    /** A request the server must answer with {@code status} and then close. */
    static final class BadRequest extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;

        BadRequest(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    private final String method;
    private final String target;
    private final String rawPath;
    private final boolean http11;
    /** Lower-case header name to its values, in order. */
    private final Map<String, List<String>> headers;

    private HttpRequestHead(String method, String target, String rawPath, boolean http11,
                            Map<String, List<String>> headers) {
        this.method = method;
        this.target = target;
        this.rawPath = rawPath;
        this.http11 = http11;
        this.headers = headers;
    }

    /**
     * Parses {@code buf[from, to)}: a request line and header lines, ending with the blank line (whose
     * line end may be included or not).
     *
     * @throws BadRequest with the status to answer
     */
    static HttpRequestHead parse(byte[] buf, int from, int to) throws BadRequest {
        List<String> lines = new ArrayList<>();
        int start = from;
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n') {
                int end = i > start && buf[i - 1] == '\r' ? i - 1 : i;
                lines.add(new String(buf, start, end - start, StandardCharsets.ISO_8859_1));
                start = i + 1;
            }
        }
        if (start < to) {
            lines.add(new String(buf, start, to - start, StandardCharsets.ISO_8859_1));
        }
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
            lines.remove(lines.size() - 1);
        }
        if (lines.isEmpty()) {
            throw new BadRequest(400, "no request line");
        }
        String line = lines.get(0);
        int sp1 = line.indexOf(' ');
        int sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
        if (sp1 <= 0 || sp2 < 0 || sp2 == sp1 + 1 || line.indexOf(' ', sp2 + 1) >= 0) {
            throw new BadRequest(400, "malformed request line");
        }
        String method = line.substring(0, sp1);
        String target = line.substring(sp1 + 1, sp2);
        String version = line.substring(sp2 + 1);
        if (!isToken(method) || !isVisible(target)) {
            throw new BadRequest(400, "malformed request line");
        }
        boolean http11;
        if (version.equals("HTTP/1.1")) {
            http11 = true;
        } else if (version.equals("HTTP/1.0")) {
            http11 = false;
        } else if (version.matches("HTTP/[0-9]\\.[0-9]")) {
            throw new BadRequest(505, "HTTP version not supported: " + version);
        } else {
            throw new BadRequest(400, "malformed request line");
        }
        if (lines.size() - 1 > MAX_HEADERS) {
            throw new BadRequest(431, "more than " + MAX_HEADERS + " header lines");
        }
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.size(); i++) {
            String h = lines.get(i);
            if (h.isEmpty() || h.charAt(0) == ' ' || h.charAt(0) == '\t') {
                throw new BadRequest(400, "obsolete line folding or an empty header line");
            }
            int colon = h.indexOf(':');
            if (colon <= 0 || !isToken(h.substring(0, colon))) {
                throw new BadRequest(400, "malformed header line");
            }
            String name = h.substring(0, colon).toLowerCase(Locale.ROOT);
            String value = fieldValue(h, colon + 1);
            headers.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
        }
        checkHost(headers.get("host"), http11);
        List<String> lengths = headers.get("content-length");
        if (lengths != null) {
            long n = -1;
            for (String v : lengths) {
                for (String item : v.split(",", -1)) {
                    long m = parseLength(item.strip());
                    if (n >= 0 && m != n) {
                        throw new BadRequest(400, "conflicting Content-Length");
                    }
                    n = m;
                }
            }
        }
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            e.setValue(Collections.unmodifiableList(e.getValue()));
        }
        return new HttpRequestHead(method, target, rawPath(target), http11, Collections.unmodifiableMap(headers));
    }

    /**
     * The value of header line {@code h} from {@code from}, without the spaces and tabs around it (RFC 9110
     * 5.5: OWS is SP and HTAB only). A control character other than HTAB (NUL, a bare CR, ...) or DEL makes it
     * invalid: 400, as RFC 9110 5.5 allows for NUL and CR (which it requires to be rejected or replaced).
     */
    private static String fieldValue(String h, int from) throws BadRequest {
        int start = from;
        int end = h.length();
        for (int i = from; i < end; i++) {
            char c = h.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f) {
                throw new BadRequest(400, (c == 0 ? "NUL" : c == '\r' ? "a bare CR" : "a control character")
                        + " in a header value");
            }
        }
        while (start < end && (h.charAt(start) == ' ' || h.charAt(start) == '\t')) {
            start++;
        }
        while (end > start && (h.charAt(end - 1) == ' ' || h.charAt(end - 1) == '\t')) {
            end--;
        }
        return h.substring(start, end);
    }

    /**
     * RFC 9112 3.2: an HTTP/1.1 request without {@code Host}, or any request with more than one (two header
     * lines, or one listing two), is answered 400. HTTP/1.0 may omit it.
     */
    private static void checkHost(List<String> host, boolean http11) throws BadRequest {
        if (host == null) {
            if (http11) {
                throw new BadRequest(400, "no Host header in an HTTP/1.1 request");
            }
        } else if (host.size() > 1 || host.get(0).indexOf(',') >= 0) {
            throw new BadRequest(400, "more than one Host");
        }
    }

    private static long parseLength(String s) throws BadRequest {
        if (s.isEmpty() || s.length() > 18) {
            throw new BadRequest(400, "invalid Content-Length");
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                throw new BadRequest(400, "invalid Content-Length");
            }
        }
        return Long.parseLong(s);
    }

    /** The path of a target, still percent-encoded: up to '?' or '#'; an absolute-form target's path. */
    static String rawPath(String target) {
        String t = target;
        int scheme = t.indexOf("://");
        if (scheme > 0 && t.substring(0, scheme).matches("[a-zA-Z][a-zA-Z0-9+.-]*")) {
            int slash = t.indexOf('/', scheme + 3);
            t = slash < 0 ? "/" : t.substring(slash);
        }
        int end = t.length();
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        return t.substring(0, end);
    }

    /** RFC 9110 token: one or more tchar. */
    public static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Visible ASCII only (a request target holds no space or control character). */
    private static boolean isVisible(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c <= ' ' || c >= 0x7f) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    public String method() {
        return method;
    }

    /** The request target as sent. */
    String target() {
        return target;
    }

    /** The target's path, percent-encoded as sent (so {@code /metric%73} is not {@code /metrics}). */
    public String rawPath() {
        return rawPath;
    }

    boolean isHttp11() {
        return http11;
    }

    /** The values of a header (any case), in order; null when absent. */
    public List<String> header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /**
     * Whether the connection may carry another request after this one's response: HTTP/1.1 without
     * {@code Connection: close}. HTTP/1.0 connections are closed after one response.
     */
    boolean keepAlive() {
        if (!http11) {
            return false;
        }
        List<String> connection = headers.get("connection");
        if (connection != null) {
            for (String v : connection) {
                for (String token : v.split(",")) {
                    if (token.strip().equalsIgnoreCase("close")) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /**
     * Whether a body follows the head ({@code Transfer-Encoding}, or a {@code Content-Length} above 0).
     * The routes take no body: the front end answers such a request and closes the connection, reading and
     * discarding what the client still sends for a short while so that the response is not lost to a reset.
     */
    boolean hasBody() {
        if (headers.containsKey("transfer-encoding")) {
            return true;
        }
        List<String> lengths = headers.get("content-length");
        if (lengths == null) {
            return false;
        }
        for (String v : lengths) {
            for (String item : v.split(",")) {
                if (!item.strip().matches("0+")) {
                    return true;
                }
            }
        }
        return false;
    }
}
