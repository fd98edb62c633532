package dev.statvar.export;

import dev.statvar.export.ContentNegotiation.Offer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Accept negotiation per RFC 9110: media ranges, q-values, specificity, fallback and 406. */
class ContentNegotiationTest {
    static final Offer PROTOBUF = new Offer("application", "vnd.google.protobuf",
            Map.of("proto", "io.prometheus.client.MetricFamily", "encoding", "delimited"));
    static final Offer OPENMETRICS = new Offer("application", "openmetrics-text", Map.of("version", "1.0.0"));
    static final Offer TEXT = new Offer("text", "plain", Map.of("version", "0.0.4"));
    /** The server's preference order: protobuf, OpenMetrics, text; text is the default. */
    static final List<Offer> OFFERS = List.of(PROTOBUF, OPENMETRICS, TEXT);
    static final int DEFAULT = 2;

    static String choose(String... accept) {
        int i = ContentNegotiation.choose(accept == null ? null : Arrays.asList(accept), OFFERS, DEFAULT);
        return i < 0 ? "406" : List.of("protobuf", "openmetrics", "text").get(i);
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // the findings: q=0 ignored, substring match, version ignored
            "application/openmetrics-text;q=0                                   | text",
            "xapplication/openmetrics-textx                                     | text",
            "application/openmetrics-text; version=0.0.1                        | text",
            "application/openmetrics-text; version=1.0.0                        | openmetrics",
            "application/openmetrics-text                                       | openmetrics",
            "APPLICATION/OpenMetrics-Text; Version=1.0.0                        | openmetrics",
            // weighted lists: the scraper's preference wins
            "text/plain;version=0.0.4;q=0.9, application/openmetrics-text;q=0.5 | text",
            "text/plain;q=0.5, application/openmetrics-text;version=1.0.0;q=0.6 | openmetrics",
            // ties: the more specific range, then the server's order
            "text/plain, application/openmetrics-text                           | openmetrics",
            "*/*                                                                | text",
            "application/*                                                      | protobuf",
            "*/*, text/plain                                                    | text",
            // the most specific range decides an offer's quality
            "text/*;q=0.1, text/plain;q=0.8, application/*;q=0.5                | text",
            "application/*;q=0.9, application/openmetrics-text;q=0.2            | protobuf",
            // refusal: nothing acceptable is 406, an unknown type falls back to text
            "text/plain;q=0                                                     | 406",
            "*/*;q=0                                                            | 406",
            "text/plain;q=0, application/json                                   | 406",
            "application/json                                                   | text",
            "text/html;q=0.9, image/png                                         | text",
            "text/plain;q=0, application/openmetrics-text;q=0.1                 | openmetrics",
            // malformed ranges are skipped, never a failure
            "application/openmetrics-text;q=2                                   | text",
            "application/openmetrics-text;q=0.0001                              | text",
            "application/openmetrics-text;q=abc, text/plain;q=0.3               | text",
            "*/plain, application/openmetrics-text;q=0.2                        | openmetrics",
            "application/openmetrics-text;version, text/plain                   | text",
            "/, ;, ,,, a/                                                       | text",
            "application/openmetrics-text;version=\"1.0.0\"                     | openmetrics",
            "application/openmetrics-text;x=\"a,b;c\";version=1.0.0             | openmetrics",
            // other parameters (charset, escaping) take no part
            "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;charset=utf-8 | openmetrics",
            // protobuf: its distinguishing parameters must match when given
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited | protobuf",
            "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=text      | text",
            "application/vnd.google.protobuf                                    | protobuf",
    })
    void chooses(String accept, String expected) {
        assertEquals(expected, choose(accept));
    }

    @Test
    void noHeaderOrAnEmptyOneIsTheDefault() {
        assertEquals("text", choose((String[]) null));
        assertEquals("text", choose(""));
        assertEquals("text", choose("   "));
    }

    @Test
    void severalFieldLinesAreOneList() {
        assertEquals("openmetrics", choose("text/plain;q=0.1", "application/openmetrics-text;q=0.2"));
        assertEquals("406", choose("text/plain;q=0", "*/*;q=0"));
    }

    /** The Accept headers real Prometheus servers send (2.42, and 3.x with native histograms on). */
    @Test
    void prometheusScrapers() {
        assertEquals("openmetrics", choose("application/openmetrics-text;version=1.0.0,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
        assertEquals("protobuf", choose("application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;"
                + "encoding=delimited,application/openmetrics-text;version=1.0.0;q=0.8,"
                + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"));
        assertEquals("openmetrics", choose("application/openmetrics-text;version=1.0.0;escaping=allow-utf-8;q=0.5,"
                + "application/openmetrics-text;version=0.0.1;q=0.4,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.3,"
                + "text/plain;version=0.0.4;q=0.2,*/*;q=0.1"));
    }

    @Test
    void parsesParametersAndQ() {
        List<ContentNegotiation.MediaRange> r = ContentNegotiation.parse(
                List.of("Text/Plain ; Version=0.0.4 ; q=0.5 , */*;q=0"));
        assertEquals(2, r.size());
        assertEquals("text", r.get(0).type());
        assertEquals("plain", r.get(0).subtype());
        assertEquals(Map.of("version", "0.0.4"), r.get(0).params());
        assertEquals(0.5, r.get(0).q());
        assertEquals(0.0, r.get(1).q());
        assertNotNull(ContentNegotiation.parseRange("a/b;;q=1"));
        assertNull(ContentNegotiation.parseRange("a/b;q=1.001"));
        assertNull(ContentNegotiation.parseRange("a b/c"));
        assertNull(ContentNegotiation.parseRange("a/b;x=\"unterminated"));
    }
}
