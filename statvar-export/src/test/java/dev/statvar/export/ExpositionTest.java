package dev.statvar.export;

import dev.statvar.Counter;
import dev.statvar.HistogramPrecision;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Invariants of both text formats that promtool does not check: +Inf bucket = _count,
 * increasing le, cumulative bucket counts, unique series, contiguous families, escaping that
 * round-trips, and values equal to what statvar counted.
 */
class ExpositionTest {
    /** Label values that need escaping or are otherwise awkward. */
    private static final String[] AWKWARD = {"plain", "quote\"d", "back\\slash", "new\nline", "ünïcödé 😀", "", "a,b=c}"};

    /** One sample line, parsed back. */
    record Sample(String name, Map<String, String> labels, String value) {
        String series() {
            return name + labels;
        }
    }

    /** A parsed exposition: samples in order, and the family of each TYPE line. */
    record Parsed(List<Sample> samples, List<String> typeOrder, Map<String, String> types, Map<String, String> help) {
    }

    @Test
    void prometheusAndOpenMetricsTextKeepEveryInvariant() {
        long before = System.currentTimeMillis();
        StatRegistry r = StatRegistry.create();
        StatExporter ex = new StatExporter();
        Random rnd = new Random(42);
        StatFamily<Counter> req = r.counterFamily("req_total", "requests \\ with \"quotes\"\nand a newline", "path", "code");
        var lat = r.histogramFamily("lat_ns", "latency", HistogramPrecision.DEFAULT, "path");
        var q = r.gaugeFamily("queue", "queue length", "pool");
        var plain = r.counter("plain", "");
        var g = r.gauge("temp", "temperature");
        var h = r.histogram("sizes", "");
        long[] expected = new long[AWKWARD.length];
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 2_000; i++) {
                int k = rnd.nextInt(AWKWARD.length);
                req.labels(AWKWARD[k], "200").add();
                expected[k]++;
                lat.labels(AWKWARD[k]).record((long) Math.exp(rnd.nextDouble() * 25));
                q.labels(AWKWARD[rnd.nextInt(3)]).report(rnd.nextInt(100) - 50);
                plain.add(2);
                h.record(rnd.nextInt(1 << 20));
            }
            if (round == 1) {
                g.report(-7);
            }
            ex.accept(r.collect());
        }
        for (Exposition.Format f : Exposition.Format.values()) {
            List<String> problems = new ArrayList<>();
            String text = Exposition.render(stateOf(ex), ExportOptions.defaults().withCreatedSeries(true), f, problems);
            assertTrue(problems.isEmpty(), problems.toString());
            boolean om = f == Exposition.Format.OPENMETRICS_100;
            // off by default (client_java's default): not a series in either format
            assertFalse(Exposition.render(stateOf(ex), ExportOptions.defaults(), f, null).contains("_created"),
                    f + ": no _created by default");
            assertEquals(om, text.endsWith("# EOF\n"), f + " ends right");
            Parsed p = parse(text, om);
            checkInvariants(p, f);
            // values: each label value round-trips and carries exactly what was counted
            for (int k = 0; k < AWKWARD.length; k++) {
                Sample s = find(p, "req_total", Map.of("path", AWKWARD[k], "code", "200"));
                assertEquals(Long.toString(expected[k]), s.value(), "req_total for " + AWKWARD[k]);
            }
            assertEquals("12000", find(p, "plain_total", Map.of()).value());
            if (om) { // _created: registration time, seconds since the epoch, after each series' values
                double created = Double.parseDouble(find(p, "plain_created", Map.of()).value());
                assertTrue(created > before / 1000.0 - 1 && created <= System.currentTimeMillis() / 1000.0, "created " + created);
                find(p, "lat_ns_created", Map.of("path", "plain"));
                find(p, "queue_created", Map.of("pool", "plain"));
            } else {
                assertFalse(text.contains("_created"), "no _created in the 0.0.4 text");
            }
            assertEquals(om, !p.types().containsKey("req_total"), "OpenMetrics names the counter family without _total");
            assertEquals("counter", p.types().get(om ? "req" : "req_total"));
            assertTrue(p.help().get(om ? "req" : "req_total").startsWith("requests \\\\ with "
                    + (om ? "\\\"quotes\\\"" : "\"quotes\"") + "\\nand a newline"), p.help().toString());
            assertEquals("summary", p.types().get("queue"));
            assertEquals("NaN", find(p, "temp_min", Map.of()).value(), "no report in the last interval");
            assertEquals("1", find(p, "temp_count", Map.of()).value());
            assertEquals("-7", find(p, "temp_sum", Map.of()).value());
            assertEquals("6000", find(p, "sizes_count", Map.of()).value());
            assertEquals("histogram", p.types().get("sizes"));
            assertEquals("gauge", p.types().get("sizes_interval_percentile"));
            assertTrue(find(p, "sizes_interval_percentile", Map.of("percentile", "99.9")).value().matches("[0-9]+"));
        }
    }

    @Test
    void leBoundariesAreExactBucketUpperBounds() {
        HistogramPrecision p = HistogramPrecision.DEFAULT;
        long[] les = ExportOptions.defaults().withBoundaries(1, 2, 5, 1000, 1001).boundariesAt(p);
        for (long le : les) {
            assertEquals(le, p.upperBound(p.bucketIndex(le)), "le " + le + " ends a bucket");
        }
        assertEquals(1007, les[3], "1000 at 64 sub-buckets per octave: the bucket 1000..1007");
        assertEquals(4, les.length, "1000 and 1001 share a bucket: one boundary");
        StatRegistry r = StatRegistry.create();
        var h = r.histogram("h", "");
        for (long v = 990; v <= 1010; v++) {
            h.record(v);
        }
        long[] cum = Exposition.cumulativeCounts(r.collect().histogram("h"), les);
        assertEquals(1007 - 990 + 1, cum[3], "exactly the values <= 1007");
        assertEquals("1007.0", Exposition.Unit.AS_IS.le(1007));
        assertEquals("0.000001007", new Exposition.Unit(9, "", "_seconds").le(1007));
        assertEquals("1", new Exposition.Unit(9, "", "_seconds").of(1_000_000_000));
        assertEquals("0", new Exposition.Unit(9, "", "_seconds").of(0));
        assertEquals("18446744073.709551615", new Exposition.Unit(9, "", "_seconds").ofUnsigned(-1L), "a wrapped total, unsigned");
    }

    @Test
    void nanosecondStatsCanBeExposedInSeconds() {
        StatRegistry r = StatRegistry.create();
        r.histogramFamily("request_duration", "", HistogramPrecision.DEFAULT, "m").labels("GET").record(1_500);
        r.histogramFamily("request_duration", "", HistogramPrecision.DEFAULT, "m").labels("GET").record(2_000_000_000);
        r.counter("cpu_time_total", "").add(3_000_000_001L);
        r.gauge("gc_pause", "").report(250_000);
        StatExporter ex = new StatExporter(ExportOptions.defaults()
                .withNanosecondsAsSeconds("request_duration", "cpu_time_total", "gc_pause"));
        ex.accept(r.collect());
        for (Exposition.Format f : Exposition.Format.values()) {
            boolean om = f == Exposition.Format.OPENMETRICS_100;
            Parsed p = parse(Exposition.render(ex.state(), ex.options(), f, null), om);
            checkInvariants(p, f);
            assertEquals("histogram", p.types().get("request_duration_seconds"));
            assertEquals("2.0000015", find(p, "request_duration_seconds_sum", Map.of("m", "GET")).value());
            assertEquals("1", find(p, "request_duration_seconds_bucket", Map.of("m", "GET", "le", "0.000002015")).value(),
                    "1 µs boundaries in seconds: 2000 ns moved up to its bucket's upper bound 2015 ns");
            assertEquals("3.000000001", find(p, "cpu_time_seconds_total", Map.of()).value());
            assertEquals("counter", p.types().get(om ? "cpu_time_seconds" : "cpu_time_seconds_total"));
            assertEquals("0.00025", find(p, "gc_pause_seconds_max", Map.of()).value());
        }
        assertTrue(ex.json().contains("\"sum\":2000001500"), "JSON keeps nanoseconds");
    }

    @Test
    void namesEndingInNanosecondsOrMillionthsAreExposedInBaseUnits() {
        StatRegistry r = StatRegistry.create();
        r.histogram("http_requests_nanoseconds").record(2_000_000_000L);
        r.counter("gc_pause_nanoseconds_total").add(1_500_000_000L);
        r.gauge("process_cpu_usage_millionths").report(370_000);
        r.gauge("x_millionths").report(-1_500_000);
        r.counter("_nanoseconds").add(7); // the bare suffix is a name, not a unit
        StatExporter ex = new StatExporter();
        ex.accept(r.collect());
        for (Exposition.Format f : Exposition.Format.values()) {
            boolean om = f == Exposition.Format.OPENMETRICS_100;
            Parsed p = parse(Exposition.render(ex.state(), ex.options(), f, null), om);
            checkInvariants(p, f);
            assertEquals("histogram", p.types().get("http_requests_seconds"));
            assertEquals("2", find(p, "http_requests_seconds_sum", Map.of()).value());
            assertEquals("1", find(p, "http_requests_seconds_count", Map.of()).value(), "counts are not scaled");
            assertEquals("1.5", find(p, "gc_pause_seconds_total", Map.of()).value());
            assertEquals("0.37", find(p, "process_cpu_usage_max", Map.of()).value());
            assertEquals("0.37", find(p, "process_cpu_usage_sum", Map.of()).value());
            assertEquals("1", find(p, "process_cpu_usage_count", Map.of()).value());
            assertEquals("-1.5", find(p, "x_min", Map.of()).value());
            assertEquals("7", find(p, "_nanoseconds_total", Map.of()).value());
        }
        assertTrue(ex.json().contains("\"process_cpu_usage_millionths\""), "JSON keeps the stat's name and raw value");
    }

    @Test
    void aFamilyWhoseNamesCollideIsLeftOutAndReported() {
        StatRegistry r = StatRegistry.create();
        r.counter("x").add();
        r.counter("x_total").add(); // both want x_total
        r.gauge("y_min");           // a gauge y would want y_min
        r.gauge("y").report(1);
        StatExporter ex = new StatExporter();
        ex.accept(r.collect());
        List<String> problems = new ArrayList<>();
        String text = Exposition.render(stateOf(ex), ExportOptions.defaults(), Exposition.Format.PROMETHEUS_004, problems);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("'x_total' is not exported") && problems.get(0).contains("counter 'x'"), problems.get(0));
        assertTrue(problems.get(1).contains("gauge 'y' is not exported"), problems.get(1));
        checkInvariants(parse(text, false), Exposition.Format.PROMETHEUS_004);
        assertFalse(text.contains("# TYPE y summary"), text);
    }

    @Test
    void beforeTheFirstIntervalTheExpositionIsEmptyButValid() {
        StatExporter ex = new StatExporter();
        assertEquals("", ex.prometheusText());
        assertEquals("# EOF\n", ex.openMetricsText());
        assertEquals("{\"interval\":null,\"stats\":[]}\n", ex.json());
    }

    @Test
    void jsonHasTheIntervalAndTheTotals() {
        StatRegistry r = StatRegistry.create();
        r.counterFamily("c", "", "k").labels("a\"b").add(5);
        r.histogram("h", "").record(100);
        StatExporter ex = new StatExporter();
        ex.accept(r.collect());
        r.histogram("h", "").record(300);
        ex.accept(r.collect());
        String json = ex.json();
        assertTrue(json.contains("{\"name\":\"c\",\"labels\":{\"k\":\"a\\\"b\"},\"kind\":\"counter\",\"help\":\"\","
                + "\"interval\":{\"value\":0},\"total\":{\"value\":5}}"), json);
        assertTrue(json.contains("\"interval\":{\"count\":1,\"sum\":300,\"min\":300,\"max\":300"), json);
        assertTrue(json.contains("\"total\":{\"count\":2,\"sum\":400,\"min\":100,\"max\":300"), json);
        assertTrue(json.contains("\"p99.9\":300"), json);
    }

    static ExportState stateOf(StatExporter ex) {
        return ex.state();
    }

    /** Checks the structural invariants of one parsed exposition. */
    static void checkInvariants(Parsed p, Exposition.Format f) {
        // unique series
        Set<String> seen = new HashSet<>();
        for (Sample s : p.samples()) {
            assertTrue(seen.add(s.series()), "duplicate series " + s.series());
        }
        // contiguous families: once a family's samples stop, none of it appears again
        Set<String> closed = new HashSet<>();
        String current = null;
        for (Sample s : p.samples()) {
            String fam = familyOf(s.name(), p.types());
            if (!fam.equals(current)) {
                assertFalse(closed.contains(fam), "family " + fam + " is not contiguous");
                if (current != null) {
                    closed.add(current);
                }
                current = fam;
            }
        }
        // histograms: increasing le, cumulative non-decreasing counts, +Inf = _count
        Map<String, List<Sample>> buckets = new LinkedHashMap<>();
        for (Sample s : p.samples()) {
            if (s.name().endsWith("_bucket")) {
                Map<String, String> rest = new LinkedHashMap<>(s.labels());
                rest.remove("le");
                buckets.computeIfAbsent(s.name() + rest, k -> new ArrayList<>()).add(s);
            }
        }
        assertFalse(!buckets.isEmpty() && p.types().values().stream().noneMatch("histogram"::equals), "buckets need a histogram");
        for (var e : buckets.entrySet()) {
            double prevLe = -1;
            long prevCount = -1;
            List<Sample> list = e.getValue();
            for (Sample s : list) {
                double le = s.labels().get("le").equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(s.labels().get("le"));
                assertTrue(le > prevLe, "le increasing in " + e.getKey());
                long c = Long.parseLong(s.value());
                assertTrue(c >= prevCount, "cumulative counts in " + e.getKey());
                prevLe = le;
                prevCount = c;
            }
            assertEquals("+Inf", list.get(list.size() - 1).labels().get("le"), "+Inf last in " + e.getKey());
            String base = list.get(0).name().substring(0, list.get(0).name().length() - "_bucket".length());
            Map<String, String> rest = new LinkedHashMap<>(list.get(0).labels());
            rest.remove("le");
            assertEquals(list.get(list.size() - 1).value(), find(p, base + "_count", rest).value(), "+Inf = _count for " + e.getKey());
        }
    }

    private static String familyOf(String sample, Map<String, String> types) {
        if (types.containsKey(sample)) {
            return sample;
        }
        for (String suffix : new String[]{"_total", "_bucket", "_count", "_sum", "_created"}) {
            if (sample.endsWith(suffix) && types.containsKey(sample.substring(0, sample.length() - suffix.length()))) {
                return sample.substring(0, sample.length() - suffix.length());
            }
        }
        throw new AssertionError("sample " + sample + " has no TYPE line");
    }

    static Sample find(Parsed p, String name, Map<String, String> labels) {
        for (Sample s : p.samples()) {
            if (s.name().equals(name) && s.labels().equals(labels)) {
                return s;
            }
        }
        throw new AssertionError("no sample " + name + labels);
    }

    /** A strict parser of the subset of the text formats the exporter writes; unescapes label values. */
    static Parsed parse(String text, boolean om) {
        List<Sample> samples = new ArrayList<>();
        List<String> order = new ArrayList<>();
        Map<String, String> types = new LinkedHashMap<>();
        Map<String, String> help = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        assertEquals("", lines[lines.length - 1], "ends with a newline");
        for (int li = 0; li < lines.length - 1; li++) {
            String line = lines[li];
            if (line.equals("# EOF")) {
                assertTrue(om && li == lines.length - 2, "# EOF only last, only in OpenMetrics");
                continue;
            }
            if (line.startsWith("# TYPE ")) {
                String[] f = line.substring(7).split(" ");
                assertEquals(2, f.length, line);
                assertTrue(types.put(f[0], f[1]) == null, "one TYPE per family: " + line);
                order.add(f[0]);
                continue;
            }
            if (line.startsWith("# HELP ")) {
                int sp = line.indexOf(' ', 7);
                help.put(line.substring(7, sp), line.substring(sp + 1));
                continue;
            }
            assertFalse(line.startsWith("#"), "unknown comment: " + line);
            int i = 0;
            while (i < line.length() && line.charAt(i) != '{' && line.charAt(i) != ' ') {
                i++;
            }
            String name = line.substring(0, i);
            assertTrue(name.matches("[a-zA-Z_:][a-zA-Z0-9_:]*"), "metric name " + name);
            Map<String, String> labels = new LinkedHashMap<>();
            if (line.charAt(i) == '{') {
                i++;
                while (line.charAt(i) != '}') {
                    int eq = line.indexOf('=', i);
                    String ln = line.substring(i, eq);
                    assertTrue(ln.matches("[a-zA-Z_][a-zA-Z0-9_]*"), "label name " + ln);
                    assertEquals('"', line.charAt(eq + 1));
                    StringBuilder v = new StringBuilder();
                    int k = eq + 2;
                    while (line.charAt(k) != '"') {
                        char c = line.charAt(k);
                        if (c == '\\') {
                            char n = line.charAt(++k);
                            v.append(switch (n) {
                                case 'n' -> '\n';
                                case '\\' -> '\\';
                                case '"' -> '"';
                                default -> throw new AssertionError("bad escape \\" + n + " in " + line);
                            });
                        } else {
                            v.append(c);
                        }
                        k++;
                    }
                    assertTrue(labels.put(ln, v.toString()) == null, "label repeated in " + line);
                    i = k + 1;
                    if (line.charAt(i) == ',') {
                        i++;
                    }
                }
                i++;
            }
            assertEquals(' ', line.charAt(i), line);
            String value = line.substring(i + 1);
            assertTrue(value.equals("NaN") || value.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?"), "value " + value);
            samples.add(new Sample(name, labels, value));
        }
        return new Parsed(samples, order, types, help);
    }
}
