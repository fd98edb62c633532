package dev.statvar.export;

import dev.statvar.Counter;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32, point 8: a counter added near Long.MAX_VALUE, scraped before and after its total passes
 * 2^64 - 1, in both text formats. The exporter must not turn the wrap into a counter reset: the
 * series keeps rising (wraps * 2^64 + total) and statvar_counter_wraps_total counts the wraps.
 */
@Timeout(30)
class CounterWrapTest {
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    /** The value of the sample line {@code sample} (name and labels as written) in {@code text}. */
    private static BigDecimal value(String text, String sample) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(sample) + " (\\S+)$").matcher(text);
        assertTrue(m.find(), () -> "no sample " + sample + " in\n" + text);
        return new BigDecimal(m.group(1));
    }

    /** Both text formats of the exporter's current state. */
    private static List<String> scrapes(StatExporter ex) {
        return List.of(ex.prometheusText(), ex.openMetricsText());
    }

    @Test
    void aWrappedTotalKeepsRisingAndTheWrapIsCounted() {
        StatRegistry r = StatRegistry.create();
        Counter bytes = r.counter("bytes_total");
        StatFamily<Counter> byPath = r.counterFamily("path_bytes_total", "bytes by path", "path");
        Counter waitNs = r.counter("wait_nanoseconds_total");
        StatExporter ex = StatExporter.of(r);

        bytes.add(Long.MAX_VALUE);
        bytes.add(Long.MAX_VALUE); // one interval of 2^64 - 2: the signed interval value read -2
        byPath.labels("/a").add(Long.MAX_VALUE);
        waitNs.add(Long.MAX_VALUE);
        waitNs.add(Long.MAX_VALUE);
        ex.accept(r.collect());
        BigDecimal[] before = new BigDecimal[2];
        for (int f = 0; f < 2; f++) {
            String text = scrapes(ex).get(f);
            before[f] = value(text, "bytes_total");
            assertEquals(new BigDecimal(TWO_TO_64.subtract(BigInteger.TWO)), before[f], text);
            assertFalse(text.contains(CounterWraps.SAMPLE), "no wrap yet, no series:\n" + text);
        }
        String json = ex.json();
        assertTrue(json.contains("\"interval\":{\"value\":18446744073709551614}"), "the interval, unsigned: " + json);

        bytes.add(10); // 2^64 + 8: the total wraps to 8
        byPath.labels("/a").add(Long.MAX_VALUE);
        byPath.labels("/a").add(10); // 2^64 + 8 as well, over one interval of 2^63 + 9
        waitNs.add(10);
        ex.accept(r.collect());
        for (int f = 0; f < 2; f++) {
            String text = scrapes(ex).get(f);
            System.out.println((f == 0 ? "Prometheus 0.0.4" : "OpenMetrics 1.0") + " after the wrap:\n"
                    + text.lines().filter(l -> l.startsWith("bytes_total") || l.startsWith("path_bytes_total{")
                    || l.startsWith("wait_seconds_total") || l.contains("statvar_counter_wraps"))
                    .reduce((a, b) -> a + "\n" + b).orElse(""));
            BigDecimal after = value(text, "bytes_total");
            assertEquals(new BigDecimal(TWO_TO_64.add(BigInteger.valueOf(8))), after, "2^64 + 8, exact");
            assertTrue(after.compareTo(before[f]) > 0, "no counter reset: " + before[f] + " then " + after);
            assertEquals(new BigDecimal(TWO_TO_64.add(BigInteger.valueOf(8))), value(text, "path_bytes_total{path=\"/a\"}"));
            assertEquals(new BigDecimal("18446744073.709551624"), value(text, "wait_seconds_total"), "scaled, exact");
            assertEquals(new BigDecimal(3), value(text, CounterWraps.SAMPLE), "three series wrapped once each");
            assertTrue(text.contains("# TYPE " + (f == 0 ? CounterWraps.SAMPLE : CounterWraps.FAMILY) + " counter\n"), text);
        }
        assertTrue(ex.json().contains("\"total\":{\"value\":18446744073709551624}"), ex.json());

        bytes.add(5); // later scrapes go on from there
        ex.accept(r.collect());
        assertEquals(new BigDecimal(TWO_TO_64.add(BigInteger.valueOf(13))), value(ex.prometheusText(), "bytes_total"));
        assertEquals(new BigDecimal(3), value(ex.prometheusText(), CounterWraps.SAMPLE));
    }

    /** A counter c_total of {@code r} at 2^64 - 2, an interval {@code ex} received. */
    private static Counter atTwoToThe64MinusTwo(StatRegistry r, StatExporter ex) {
        Counter c = r.counter("c_total");
        c.add(Long.MAX_VALUE);
        c.add(Long.MAX_VALUE);
        ex.accept(r.collect());
        return c;
    }

    /** A wrap inside intervals the exporter never received (a manual collect) is still seen at the next one. */
    @Test
    void aWrapInAnIntervalTheExporterMissedIsCounted() {
        StatRegistry r = StatRegistry.create();
        StatExporter ex = new StatExporter();
        Counter c = atTwoToThe64MinusTwo(r, ex);
        c.add(3);
        r.collect(); // taken by someone else
        c.add(1);
        ex.accept(r.collect());
        for (String text : scrapes(ex)) {
            assertEquals(new BigDecimal(TWO_TO_64.add(BigInteger.TWO)), value(text, "c_total"));
            assertEquals(BigDecimal.ONE, value(text, CounterWraps.SAMPLE));
        }
    }

    /** A stat that takes the series' name keeps it; the wraps series is left out and reported. */
    @Test
    void aStatNamedLikeTheWrapsSeriesKeepsItsName() {
        StatRegistry r = StatRegistry.create();
        r.counter(CounterWraps.SAMPLE).add(7);
        StatExporter ex = new StatExporter();
        Counter c = atTwoToThe64MinusTwo(r, ex);
        c.add(2);
        ex.accept(r.collect());
        List<String> problems = new java.util.ArrayList<>();
        String text = Exposition.render(ex.state(), ex.options(), Exposition.Format.PROMETHEUS_004, problems);
        assertEquals(new BigDecimal(7), value(text, CounterWraps.SAMPLE), "the user's stat");
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith(CounterWraps.SAMPLE + " is not exported"), problems.toString());
    }
}
