package dev.statvar.export;

import dev.statvar.export.internal.http.HttpFrontEnd;
import dev.statvar.export.internal.http.HttpRequestHead;
import dev.statvar.export.internal.http.HttpResponse;
import dev.statvar.export.internal.http.Workers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Proactive content negotiation on the {@code Accept} header as RFC 9110 (sections 12.4.2 and 12.5.1)
 * defines it: media ranges with parameters and q-values, the most specific range deciding an offer's
 * quality. Stateless; thread-safe.
 *
 * <pre>
 * Rules
 * -----
 * Parsing. The header's field lines are joined by commas and split into media ranges, commas inside
 * quoted strings kept. A range that is not "type/subtype", "type/*" or "*&#47;*" with token characters,
 * or whose q is not a qvalue (0 .. 1, at most three decimals), is skipped: a malformed range never
 * turns into a 500, nor matches anything.
 * Matching. A range matches an offer when its type and subtype are equal (case-insensitive) or
 * wildcards, and each of its parameters that tells formats apart (version, proto, encoding) equals
 * the offer's; other parameters (charset, escaping, ...) do not take part: statvar's bodies are
 * UTF-8 and its names valid in every escaping scheme. So "application/openmetrics-text;
 * version=0.0.1" does not match OpenMetrics 1.0.0, and "xapplication/openmetrics-textx" matches
 * nothing.
 * Quality. An offer's quality is the q of the most specific range matching it (type/subtype over
 * type/*, over *&#47;*; more matching parameters over fewer); 0 when none matches. q=0 refuses.
 * Choice. The offer of highest quality wins; ties go to the offer matched by the more specific
 * range, then to the server's order of preference, except that a tie won through "*&#47;*" alone
 * (the client names no type) goes to the server's default. When no offer has a positive quality (a header
 * naming only unknown types), the server's default is served, unless a range refuses it (q=0):
 * then nothing acceptable remains and the answer is 406. No Accept header: the default.
 * </pre>
 */
final class ContentNegotiation {
    /** The parameters that tell two of statvar's formats apart; all others are ignored in matching. */
    private static final Set<String> DISTINGUISHING = Set.of("version", "proto", "encoding");

    /** One format the server can produce: {@code type/subtype} and its distinguishing parameters (lower case). */
    record Offer(String type, String subtype, Map<String, String> params) {
        Offer {
            type = type.toLowerCase(Locale.ROOT);
            subtype = subtype.toLowerCase(Locale.ROOT);
            params = Map.copyOf(params);
        }
    }

    /** One parsed media range: lower-case type, subtype and parameter names; q in [0, 1]. */
    record MediaRange(String type, String subtype, Map<String, String> params, double q) {
        /** The specificity of this range if it matches {@code o}, or -1 if it does not. */
        int match(Offer o) {
            int level;
            if (type.equals("*")) {
                level = 0;
            } else if (!type.equals(o.type())) {
                return -1;
            } else if (subtype.equals("*")) {
                level = 1;
            } else if (subtype.equals(o.subtype())) {
                level = 2;
            } else {
                return -1;
            }
            int matched = 0;
            for (Map.Entry<String, String> p : params.entrySet()) {
                if (!DISTINGUISHING.contains(p.getKey())) {
                    continue;
                }
                String offered = o.params().get(p.getKey());
                if (offered == null || !offered.equalsIgnoreCase(p.getValue())) {
                    return -1;
                }
                matched++;
            }
            return level * 16 + matched;
        }
    }

    private ContentNegotiation() {
    }

    /**
     * Chooses what to serve.
     *
     * @param accept   the request's {@code Accept} field lines, or null when it sent none
     * @param offers   what the server can produce, in its order of preference
     * @param fallback index into {@code offers} of the default (served without a preference)
     * @return the index of the offer to serve, or -1 when nothing acceptable remains (406)
     */
    static int choose(List<String> accept, List<Offer> offers, int fallback) {
        List<MediaRange> ranges = parse(accept);
        if (ranges.isEmpty()) {
            return fallback;
        }
        int best = -1;
        double bestQ = 0;
        int bestSpecificity = -1;
        boolean fallbackRefused = false;
        for (int i = 0; i < offers.size(); i++) {
            MediaRange r = mostSpecific(ranges, offers.get(i));
            if (r == null) {
                continue;
            }
            if (r.q() == 0) {
                fallbackRefused |= i == fallback;
                continue;
            }
            int specificity = r.match(offers.get(i));
            if (r.q() > bestQ || (r.q() == bestQ && specificity > bestSpecificity)) {
                best = i;
                bestQ = r.q();
                bestSpecificity = specificity;
            }
        }
        if (best >= 0) {
            // Only "*/*" named the winner: the client prefers no type, so the default if it ties.
            if (bestSpecificity < 16 && best != fallback) {
                MediaRange f = mostSpecific(ranges, offers.get(fallback));
                if (f != null && f.q() == bestQ) {
                    return fallback;
                }
            }
            return best;
        }
        return fallbackRefused ? -1 : fallback;
    }

    private static MediaRange mostSpecific(List<MediaRange> ranges, Offer o) {
        MediaRange best = null;
        int bestSpecificity = -1;
        for (MediaRange r : ranges) {
            int s = r.match(o);
            if (s > bestSpecificity) {
                best = r;
                bestSpecificity = s;
            }
        }
        return best;
    }

    /**
     * Parses an {@code Accept} header's field lines into media ranges, skipping malformed ones.
     *
     * @param accept the field lines, or null
     * @return the valid ranges, in order (empty for none)
     */
    static List<MediaRange> parse(List<String> accept) {
        if (accept == null || accept.isEmpty()) {
            return List.of();
        }
        List<MediaRange> out = new ArrayList<>();
        for (String line : accept) {
            for (String element : splitOutsideQuotes(line, ',')) {
                MediaRange r = parseRange(element);
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** One media range with its parameters, or null if it is malformed. */
    static MediaRange parseRange(String element) {
        List<String> parts = splitOutsideQuotes(element, ';');
        if (parts.isEmpty()) {
            return null;
        }
        String range = parts.get(0).trim();
        int slash = range.indexOf('/');
        if (slash <= 0 || slash == range.length() - 1) {
            return null;
        }
        String type = range.substring(0, slash).toLowerCase(Locale.ROOT);
        String subtype = range.substring(slash + 1).toLowerCase(Locale.ROOT);
        if (!HttpRequestHead.isToken(type) || !HttpRequestHead.isToken(subtype) || (type.equals("*") && !subtype.equals("*"))) {
            return null;
        }
        Map<String, String> params = new LinkedHashMap<>();
        double q = 1;
        for (int i = 1; i < parts.size(); i++) {
            String p = parts.get(i).trim();
            if (p.isEmpty()) {
                continue; // "parameters = *( OWS ";" OWS [ parameter ] )": an empty one is allowed
            }
            int eq = p.indexOf('=');
            if (eq <= 0) {
                return null;
            }
            String name = p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = unquote(p.substring(eq + 1).trim());
            if (!HttpRequestHead.isToken(name) || value == null) {
                return null;
            }
            if (name.equals("q")) {
                q = qvalue(value);
                if (Double.isNaN(q)) {
                    return null;
                }
            } else {
                params.put(name, value);
            }
        }
        return new MediaRange(type, subtype, Map.copyOf(params), q);
    }

    /** RFC 9110's qvalue: {@code 0[.ddd]} or {@code 1[.000]}; NaN if {@code s} is not one. */
    static double qvalue(String s) {
        if (!s.matches("0(\\.[0-9]{0,3})?|1(\\.0{0,3})?")) {
            return Double.NaN;
        }
        return Double.parseDouble(s);
    }

    /** A token or a quoted-string's content; null if it is neither. */
    private static String unquote(String v) {
        if (v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"') {
            StringBuilder b = new StringBuilder(v.length());
            for (int i = 1; i < v.length() - 1; i++) {
                char c = v.charAt(i);
                if (c == '\\' && i + 1 < v.length() - 1) {
                    c = v.charAt(++i);
                } else if (c == '"' || c == '\\') {
                    return null;
                }
                b.append(c);
            }
            return b.toString();
        }
        return HttpRequestHead.isToken(v) ? v : null;
    }

    /** Splits {@code s} at {@code sep} outside double-quoted strings (backslash escapes kept). */
    private static List<String> splitOutsideQuotes(String s, char sep) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quoted && c == '\\' && i + 1 < s.length()) {
                cur.append(c).append(s.charAt(++i));
                continue;
            }
            if (c == '"') {
                quoted = !quoted;
            } else if (c == sep && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
                continue;
            }
            cur.append(c);
        }
        out.add(cur.toString());
        out.removeIf(e -> e.isBlank());
        return out;
    }
}
