package dev.statvar.export;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.ResourceBundle;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log and CSV reporters: one line / row per stat per interval, driven by the collector. */
class ReportersTest {

    @Test
    void csvHasOneRowPerStatPerIntervalWithEveryColumn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stats.csv");
        StatRegistry r = StatRegistry.create();
        var c = r.counterFamily("req_total", "", "path");
        var g = r.gauge("queue", "");
        var h = r.histogram("lat", "");
        try (CsvReporter csv = new CsvReporter(file)) {
            c.labels("/a,\"b\"").add(3);
            g.report(5);
            g.report(9);
            h.record(1000);
            csv.accept(r.collect());
            csv.accept(r.collect()); // an empty interval
        }
        try (CsvReporter again = new CsvReporter(file)) { // appends, no second header
            again.accept(r.collect());
        }
        List<String> lines = Files.readAllLines(file);
        assertEquals(1 + 3 * 3, lines.size(), String.join("\n", lines));
        assertEquals(CsvReporter.HEADER, lines.get(0));
        int columns = CsvReporter.HEADER.split(",").length;
        for (String line : lines) {
            assertEquals(columns, csvFields(line).size(), line);
        }
        // rows in registration order: queue, lat, then the family's series (registered at first use)
        List<String> counter = csvFields(lines.get(3));
        assertEquals("req_total", counter.get(2));
        assertEquals("path=\"/a,\\\"b\\\"\"", counter.get(3), "labels, CSV-quoted");
        assertEquals(List.of("counter", "3", "3"), counter.subList(4, 7));
        List<String> gauge = csvFields(lines.get(1));
        assertEquals(List.of("gauge", "", "2", "2", "14", "5", "9", "7.0000"), gauge.subList(4, 12));
        List<String> hist = csvFields(lines.get(2));
        assertEquals(List.of("histogram", "", "", "1", "1000", "1000", "1000", "1000.0000", "1000", "1000", "1000", "1000"),
                hist.subList(4, 16));
        List<String> emptyGauge = csvFields(lines.get(4));
        assertEquals(List.of("gauge", "", "2", "0", "0", "", "", ""), emptyGauge.subList(4, 12));
    }

    @Test
    void logReporterWritesOneCompactLinePerStatPerIntervalFromTheCollector() throws Exception {
        List<String> logged = new ArrayList<>();
        System.Logger logger = new System.Logger() {
            @Override
            public String getName() {
                return "test";
            }

            @Override
            public boolean isLoggable(Level level) {
                return true;
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
                synchronized (logged) {
                    logged.add(msg);
                }
            }

            @Override
            public void log(Level level, ResourceBundle bundle, String format, Object... params) {
                log(level, bundle, format, (Throwable) null);
            }

            @Override
            public void log(Level level, Supplier<String> msgSupplier) {
                log(level, null, msgSupplier.get(), (Throwable) null);
            }
        };
        StatRegistry r = StatRegistry.create();
        r.counterFamily("req_total", "", "m").labels("GET").add(120);
        r.gauge("queue", "").report(4);
        r.histogram("lat", "").record(10_000);
        StatCollector collector = r.startCollector(Duration.ofHours(1), new LogReporter(logger, System.Logger.Level.INFO));
        collector.close(); // delivers the interval
        assertEquals(List.of("req_total{m=\"GET\"} +120 (total 120)",
                "queue count=1 mean=4.00 min=4 max=4 (total count 1)",
                "lat count=1 min=10000 p50=10000 p90=10000 p99=10000 p99.9=10000 max=10000"), logged);
    }

    /** Splits one CSV line (RFC 4180 quoting). */
    static List<String> csvFields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder f = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    f.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    f.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(f.toString());
                f.setLength(0);
            } else {
                f.append(ch);
            }
        }
        out.add(f.toString());
        assertTrue(!quoted, "unterminated quote in " + line);
        return out;
    }
}
