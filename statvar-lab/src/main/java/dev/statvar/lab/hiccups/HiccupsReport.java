package dev.statvar.lab.hiccups;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.CpuStalls;
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
 * The hiccups study's report: per disturbance the meter's histogram (count, p50 .. p99.9, max)
 * beside JFR's account of the JVM's pauses (GC pauses and safepoint operations: count and longest),
 * and the check that the meter saw the longest of them (its max plus one resolution at least that
 * long); {@code hiccups.csv}, {@code hiccups.json} ({@code "study": "hiccups"}, a cell per
 * disturbance, the children's results being the cells).
 */
final class HiccupsReport {
    static final String JSON = "hiccups.json";
    private static final String[] CSV = {"disturbance", "count", "p50_ns", "p90_ns", "p99_ns", "p99_9_ns", "max_ns",
        "jfr_gc_pauses", "jfr_gc_longest_ns", "jfr_safepoint_ops", "jfr_safepoint_op_longest_ns", "seen_longest"};

    /** The ns fields also kept in ms. */
    private static final List<String> DERIVED_MS = List.of("p50", "p90", "p99", "p99_9", "max", "jfr_gc_longest",
            "jfr_safepoint_op_longest");

    private HiccupsReport() {
    }

    /** What ran, on what: the JSON's {@code info} (the machine's facts flat, then the protocol; {@link Json}'s binding). */
    record Info(@JsonUnwrapped MachineFacts facts, List<String> disturbances, double seconds,
                @JsonProperty("resolution_ms") long resolutionMs, @JsonProperty("load_average") String loadAverage) {
        Info {
            loadAverage = LoadAverage.orNotRecorded(loadAverage);
        }

        void print(PrintStream out) {
            facts.print(out);
            out.printf(Locale.ROOT, "protocol: disturbances %s, one JVM each; HiccupMeter at %d ms for %.0f s each (after 1 s"
                    + " discarded); JFR: every jdk.GCPhasePause and every jdk.ExecuteVMOperation at a safepoint that ended by the"
                    + " disturbance's stop, the histogram collected 100 ms later%n",
                    disturbances, resolutionMs, seconds);
        }
    }

    /** The longest pause JFR reports (GC pause or safepoint operation), ns. */
    static long longestPause(JsonNode r) {
        return Math.max(r.path("jfr_gc_longest_ns").asLong(), r.path("jfr_safepoint_op_longest_ns").asLong());
    }

    /** Whether the meter saw JFR's longest pause: its max plus one resolution is at least that long. */
    static boolean seen(JsonNode r) {
        return r.path("max_ns").asLong() + r.path("resolution_ms").asLong() * 1_000_000 >= longestPause(r);
    }

    /** Prints the report and writes the files; whether the meter saw every disturbance's longest pause. */
    static boolean write(Info info, List<JsonNode> results, Path dir, PrintStream out) throws IOException {
        out.printf(Locale.ROOT, "%n== HiccupMeter (statvar-probes) at %d ms: how much longer than asked its sleeps took, ms"
                + " (corrected for coordinated omission); beside it JFR's pauses ==%n", info.resolutionMs());
        out.printf(Locale.ROOT, "%-10s %8s %8s %8s %8s %8s %9s | %7s %9s | %7s %9s  %-5s %s%n", "disturb.", "count", "p50",
                "p90", "p99", "p99.9", "max", "GC n", "GC max", "SP ops", "SP max", "seen", "designed as");
        boolean ok = true;
        List<Map<String, Object>> cells = new ArrayList<>();
        StringBuilder csv = new StringBuilder(String.join(",", CSV)).append('\n');
        for (JsonNode r : results) {
            boolean seen = seen(r);
            ok &= seen;
            out.printf(Locale.ROOT, "%-10s %8d %8.3f %8.3f %8.3f %8.3f %9.3f | %7d %9.3f | %7d %9.3f  %-5s %s%n",
                    r.path("disturbance").asText(), r.path("count").asLong(), ms(r, "p50_ns"), ms(r, "p90_ns"), ms(r, "p99_ns"),
                    ms(r, "p99_9_ns"), ms(r, "max_ns"), r.path("jfr_gc_pauses").asLong(), ms(r, "jfr_gc_longest_ns"),
                    r.path("jfr_safepoint_ops").asLong(), ms(r, "jfr_safepoint_op_longest_ns"), seen ? "yes" : "NO",
                    r.path("design").asText());
            Map<String, Object> c = new LinkedHashMap<>();
            r.fields().forEachRemaining(e -> c.put(e.getKey(), e.getValue()));
            c.put("seen_longest", seen);
            c.put("longest_pause_ns", longestPause(r));
            for (String k : DERIVED_MS) { // the figures in the unit the report prints (docs/LAB.md quotes these)
                c.put(k + "_ms", ms(r, k + "_ns"));
            }
            cells.add(c);
            List<String> f = new ArrayList<>();
            for (String k : CSV) {
                Object v = c.get(k);
                f.add(v instanceof JsonNode n ? n.asText() : String.valueOf(v));
            }
            csv.append(String.join(",", f)).append('\n');
        }
        for (JsonNode r : results) {
            if (r.has("steal_ms")) {
                out.printf(Locale.ROOT, "%-10s around its JVM (whole machine): %s%n", r.path("disturbance").asText(),
                        CpuStalls.describe(r));
            }
        }
        out.println(ok ? "check: in every run the meter's longest hiccup (plus one resolution) covers JFR's longest pause"
                : "FAILED: a pause JFR reports is longer than anything the meter saw (see 'seen')");
        Files.writeString(dir.resolve("hiccups.csv"), csv);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "hiccups");
        root.put("info", info);
        root.put("cells", cells);
        Json.write(dir.resolve(JSON), root);
        out.printf(Locale.ROOT, "%nwritten: %s (hiccups.csv, hiccups.json)%n", dir);
        return ok;
    }

    private static double ms(JsonNode r, String field) {
        return r.path(field).asLong() / 1e6;
    }

    /** {@code --report DIR}: the report of a finished run again, its files rewritten. */
    static boolean again(Path dir, PrintStream out) throws IOException {
        JsonNode root = Json.read(dir.resolve(JSON));
        Info info = Json.convert(root.path("info"), Info.class);
        info.print(out);
        out.println("load average: " + info.loadAverage());
        List<JsonNode> results = new ArrayList<>();
        for (JsonNode c : root.path("cells")) {
            var o = c.deepCopy();
            var derived = new ArrayList<>(List.of("seen_longest", "longest_pause_ns"));
            DERIVED_MS.forEach(k -> derived.add(k + "_ms"));
            ((com.fasterxml.jackson.databind.node.ObjectNode) o).remove(derived);
            results.add(o);
        }
        return write(info, results, dir, out);
    }
}
