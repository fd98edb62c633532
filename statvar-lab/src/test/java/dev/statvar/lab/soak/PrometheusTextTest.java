package dev.statvar.lab.soak;

import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.StatExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The soak's reader of Prometheus text: samples, escaped labels, and a malformed line named with its number. */
@Timeout(10)
class PrometheusTextTest {

    @Test
    void readsSamplesSkippingCommentsAndBlankLines() {
        String text = """
                # HELP soak_ops_total soak operations
                # TYPE soak_ops_total counter
                soak_ops_total 18446744073709551615

                soak_queue_sum -12
                soak_latency_ns_bucket{le="+Inf"} 3 1700000000000
                weird:name_total{a="1",b="2",} NaN
                """;
        assertEquals(Map.of("soak_ops_total", "18446744073709551615", "soak_queue_sum", "-12",
                "soak_latency_ns_bucket{le=\"+Inf\"}", "3", "weird:name_total{a=\"1\",b=\"2\"}", "NaN"),
                PrometheusText.samples(text));
    }

    @Test
    void unescapesLabelValuesAndWritesTheSeriesEscapedAgain() {
        PrometheusText.Sample s = PrometheusText.parseLine("m{path=\"a \\\"b\\\" c\\\\d\\ne\",x=\"} {\"} 1.5e3", 1);
        assertEquals("m", s.name());
        assertEquals(Map.of("path", "a \"b\" c\\d\ne", "x", "} {"), s.labels());
        assertEquals("1.5e3", s.value());
        assertEquals("m{path=\"a \\\"b\\\" c\\\\d\\ne\",x=\"} {\"}", s.series());
    }

    @Test
    void aMalformedLineFailsNamingItsNumberAndWhatWasExpected() {
        assertBad("line 2, column 5: expected '=' after label name b: ok{b:\"1\"} 2", "x 1\nok{b:\"1\"} 2\n");
        assertBad("line 1, column 10: expected a value after the series: no_value ", "no_value \n");
        assertBad("line 1, column 3: expected a number for the value (or NaN, +Inf, -Inf), not 'one': m one", "m one");
        assertBad("line 1, column 10: expected '\"' closing the value of label a: m{a=\"1} 2", "m{a=\"1} 2");
        assertBad("line 1, column 8: expected an escape \\\\, \\\" or \\n in the value of label a: m{a=\"\\t\"} 2",
                "m{a=\"\\t\"} 2");
        assertBad("line 1, column 1: expected a metric name: {a=\"1\"} 2", "{a=\"1\"} 2");
        assertBad("line 1, column 5: expected a timestamp (integer milliseconds), not 'soon': m 1 soon", "m 1 soon");
        assertBad("line 2: series m given twice", "m 1\nm 2");
    }

    /** What statvar-export writes, labels with a quote, a backslash and a line feed included, reads back to the counts. */
    @Test
    void readsWhatStatvarExportWrites() {
        StatRegistry r = StatRegistry.create();
        r.counterFamily("req_total", "requests", "path").labels("a \"q\" \\ b\nc").add(7);
        var plain = r.counter("plain_total", "plain");
        plain.add(Long.MAX_VALUE);
        plain.add(Long.MAX_VALUE);
        plain.add(1); // 2^64 - 1: written unsigned
        StatExporter exporter = new StatExporter(r, ExportOptions.defaults());
        exporter.accept(r.collect());
        Map<String, String> m = PrometheusText.samples(exporter.prometheusText());
        assertEquals("7", m.get("req_total{path=\"a \\\"q\\\" \\\\ b\\nc\"}"), m.toString());
        assertEquals("18446744073709551615", m.get("plain_total"), m.toString());
    }

    private static void assertBad(String message, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PrometheusText.samples(text));
        assertEquals(message, e.getMessage());
    }
}
