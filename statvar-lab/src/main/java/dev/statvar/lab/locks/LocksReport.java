package dev.statvar.lab.locks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.LoadAverage;
import dev.statvar.lab.kit.MachineFacts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The locks study's report, from the children's results: per run (thread count) a table per
 * section and mode (acquisitions, contended %, wait p50/p99/max, waits at or over JFR's threshold)
 * beside JFR's parks of that section; the checks (statvar's acquisitions equal the workload's own
 * count exactly; the per-thread locks never contended); the profiler output of Jean-Philippe
 * Bempel's "Measuring contention on locks" (2015); and
 * {@code locks.csv}, {@code locks.json} ({@code "study": "locks"}, one cell per run, section and mode,
 * the children's results kept whole for {@code --report}), {@code locks-article-format.txt}.
 */
final class LocksReport {
    static final String JSON = "locks.json";
    private static final String[] CSV = {"threads", "section", "mode", "acquired", "contended", "contended_pct", "waits", "p50_ns",
        "p99_ns", "max_ns", "wait_total_ns", "waits_at_or_over_threshold", "own_count", "statvar_acquired", "jfr_events",
        "jfr_wait_ns", "jfr_max_ns"};

    private LocksReport() {
    }

    /** What ran, on what: the JSON's {@code info} (the machine's facts flat, then the protocol; {@link Json}'s binding). */
    record Info(@JsonUnwrapped MachineFacts facts, List<Integer> threads, double seconds,
                @JsonProperty("jfr_threshold_ms") long jfrThresholdMs, @JsonProperty("load_average") String loadAverage) {
        Info {
            loadAverage = LoadAverage.orNotRecorded(loadAverage);
        }

        String protocolLine() {
            return String.format(Locale.ROOT, "protocol: threads %s (one JVM each), %.0f s each; workers go round the QUIET,"
                    + " LIGHT, HEAVY and READ_MOSTLY sections, a batch thread and a prober share LONG_HOLD; JFR jdk.ThreadPark %s",
                    threads, seconds, jfrThresholdMs < 0 ? "off" : "at a " + jfrThresholdMs + " ms threshold");
        }

        void print(PrintStream out) {
            facts.print(out);
            out.println(protocolLine());
        }
    }

    /** The flat cells: one per run, section and mode, the section's own count and JFR figures on each of its rows. */
    static List<Map<String, Object>> cells(List<JsonNode> results) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (JsonNode r : results) {
            Map<String, JsonNode> sections = new LinkedHashMap<>();
            r.path("sections").forEach(s -> sections.put(s.path("section").asText(), s));
            for (JsonNode c : r.path("cells")) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("threads", r.path("threads").asInt());
                c.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue()));
                JsonNode s = sections.get(c.path("section").asText());
                for (String k : List.of("own_count", "statvar_acquired", "jfr_events", "jfr_wait_ns", "jfr_max_ns")) {
                    if (s.has(k)) {
                        m.put(k, s.path(k).asLong());
                    }
                }
                // the same figures in the units the report prints (docs/LAB.md quotes these)
                for (String k : List.of("p50", "p99", "max")) {
                    m.put(k + "_us", c.path(k + "_ns").asLong() / 1e3);
                }
                m.put("wait_total_ms", c.path("wait_total_ns").asLong() / 1e6);
                if (s.has("jfr_wait_ns")) {
                    m.put("jfr_wait_ms", s.path("jfr_wait_ns").asLong() / 1e6);
                }
                cells.add(m);
            }
        }
        return cells;
    }

    /** The problems of one run: statvar's count against the workload's, and a contended per-thread lock. */
    static List<String> problems(JsonNode r) {
        List<String> p = new ArrayList<>();
        for (JsonNode s : r.path("sections")) {
            if (s.path("own_count").asLong() != s.path("statvar_acquired").asLong()) {
                p.add(String.format(Locale.ROOT, "threads=%d %s: statvar counted %d acquisitions, the workload %d",
                        r.path("threads").asInt(), s.path("section").asText(), s.path("statvar_acquired").asLong(),
                        s.path("own_count").asLong()));
            }
        }
        for (JsonNode c : r.path("cells")) {
            if (c.path("section").asText().equals(Section.QUIET.name()) && c.path("contended").asLong() != 0) {
                p.add(String.format(Locale.ROOT, "threads=%d QUIET: %d contended acquisitions of per-thread locks",
                        r.path("threads").asInt(), c.path("contended").asLong()));
            }
        }
        return p;
    }

    /** The article's profiler output ("creating lock n" with where, then "n=contentions"), one lock id per creation site. */
    static String articleFormat(JsonNode r) {
        StringBuilder sb = new StringBuilder();
        Map<String, Long> bySite = new LinkedHashMap<>();
        for (JsonNode c : r.path("cells")) {
            bySite.merge(c.path("site").asText(), c.path("contended").asLong(), Long::sum);
        }
        int id = 1;
        for (String site : bySite.keySet()) {
            sb.append("creating lock ").append(id++).append('\n').append("\tat ").append(site).append('\n');
        }
        id = 1;
        for (long n : bySite.values()) {
            sb.append(id++).append('=').append(n).append('\n');
        }
        return sb.toString();
    }

    /** Prints the report and writes the files; whether every check held. */
    static boolean write(Info info, List<JsonNode> results, Path dir, PrintStream out) throws IOException {
        boolean ok = true;
        StringBuilder format = new StringBuilder();
        for (JsonNode r : results) {
            long th = r.path("jfr_threshold_ms").asLong();
            out.printf(Locale.ROOT, "%n== %d worker threads, %.0f s: statvar-probes' counts per creation site; JFR's jdk.ThreadPark"
                    + " %s ==%n", r.path("threads").asInt(), r.path("seconds").asDouble(), th < 0 ? "off" : "at " + th + " ms");
            out.printf(Locale.ROOT, "%-11s %-5s %10s %9s %9s %9s %10s %9s %9s | %9s %9s %9s  %s%n", "section", "mode", "acquired",
                    "contended", "p50 us", "p99 us", "max us", "wait ms", ">=thr", "JFR parks", "JFR ms", "JFR max", "designed as");
            Map<String, JsonNode> sections = new LinkedHashMap<>();
            r.path("sections").forEach(s -> sections.put(s.path("section").asText(), s));
            String last = "";
            for (JsonNode c : r.path("cells")) {
                JsonNode s = sections.get(c.path("section").asText());
                boolean first = !c.path("section").asText().equals(last);
                last = c.path("section").asText();
                out.printf(Locale.ROOT, "%-11s %-5s %10d %8.2f%% %9.1f %9.1f %10.1f %9.1f %9s | %9s %9s %9s  %s%n",
                        c.path("section").asText(), c.path("mode").asText(), c.path("acquired").asLong(),
                        c.path("contended_pct").asDouble(), c.path("p50_ns").asLong() / 1e3, c.path("p99_ns").asLong() / 1e3,
                        c.path("max_ns").asLong() / 1e3, c.path("wait_total_ns").asLong() / 1e6,
                        th < 0 ? "-" : Long.toString(c.path("waits_at_or_over_threshold").asLong()),
                        first && s.has("jfr_events") ? Long.toString(s.path("jfr_events").asLong()) : "",
                        first && s.has("jfr_events") ? String.format(Locale.ROOT, "%.1f", s.path("jfr_wait_ns").asLong() / 1e6) : "",
                        first && s.has("jfr_events") ? String.format(Locale.ROOT, "%.1f", s.path("jfr_max_ns").asLong() / 1e6) : "",
                        first ? c.path("design").asText() : "");
            }
            out.println("sites: " + String.join("; ", sections.values().stream()
                    .map(s -> s.path("section").asText() + " " + s.path("site").asText()).toList()));
            if (r.path("jfr_unattributed").asLong() > 0) {
                out.printf(Locale.ROOT, "JFR: %d lock parks outside the workload's sections%n", r.path("jfr_unattributed").asLong());
            }
            List<String> problems = problems(r);
            out.println(problems.isEmpty() ? "checks: statvar's acquisitions equal the workload's own counts in every section;"
                    + " the per-thread locks never contended" : "FAILED: " + String.join("; ", problems));
            ok &= problems.isEmpty();
            format.append("# ").append(r.path("threads").asInt()).append(" worker threads\n").append(articleFormat(r));
        }
        out.printf(Locale.ROOT, "%n== the article's profiler output format (a lock id per creation site) ==%n%s", format);
        Files.writeString(dir.resolve("locks-article-format.txt"), format);
        List<Map<String, Object>> cells = cells(results);
        StringBuilder csv = new StringBuilder(String.join(",", CSV)).append('\n');
        for (Map<String, Object> c : cells) {
            List<String> f = new ArrayList<>();
            for (String k : CSV) {
                Object v = c.get(k);
                f.add(v == null ? "" : v instanceof JsonNode n && n.isFloatingPointNumber() ? String.format(Locale.ROOT, "%.3f", n.asDouble())
                        : v instanceof JsonNode n ? n.asText() : v.toString());
            }
            csv.append(String.join(",", f)).append('\n');
        }
        Files.writeString(dir.resolve("locks.csv"), csv);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "locks");
        root.put("info", info);
        root.put("cells", cells);
        root.put("results", results);
        Json.write(dir.resolve(JSON), root);
        out.printf(Locale.ROOT, "%nwritten: %s (locks.csv, locks.json, locks-article-format.txt)%n", dir);
        return ok;
    }

    /** {@code --report DIR}: the report of a finished run again, its files rewritten; whether every check held. */
    static boolean again(Path dir, PrintStream out) throws IOException {
        JsonNode root = Json.read(dir.resolve(JSON));
        Info info = Json.convert(root.path("info"), Info.class);
        info.print(out);
        out.println("load average: " + info.loadAverage());
        List<JsonNode> results = new ArrayList<>();
        root.path("results").forEach(results::add);
        return write(info, results, dir, out);
    }
}
