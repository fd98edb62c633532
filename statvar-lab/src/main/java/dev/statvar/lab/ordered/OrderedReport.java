package dev.statvar.lab.ordered;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.LoadAverage;
import dev.statvar.lab.kit.LogChart;
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
 * The ordered study's report, from the children's results: a table per stream count (design x
 * workers: tasks/s, latency p50/p99/p99.9, threads, CPU per 1,000 tasks, the scheduler's in-place
 * share), {@code ordered.csv} (a row per cell), {@code ordered.json} ({@code "study": "ordered"},
 * {@code info}, {@code cells} keyed by design, streams and workers) and two charts over workers:
 * {@code ordered-throughput.png} and {@code ordered-p99.png}.
 */
final class OrderedReport {
    /** The CSV's columns, also the fields of a cell. */
    static final String[] COLUMNS = {"design", "streams", "workers", "threads", "status", "tasks_per_s", "p50_ns", "p99_ns",
        "p99_9_ns", "max_ns", "cpu_us_per_1000", "process_cpu_us_per_1000", "out_of_order", "checksums_ok", "in_place",
        "left_behind", "ring_full_waits", "drained_run_max", "measured", "elapsed_ms", "tasks_per_s_vs_scheduler",
        "p99_vs_scheduler", "cpu_vs_scheduler"};

    private OrderedReport() {
    }

    /** What ran, on what: the JSON's {@code info} (the machine's facts flat, then the protocol; {@link Json}'s binding). */
    record Info(@JsonUnwrapped MachineFacts facts, String kernel, List<String> designs, List<Integer> streams, List<Integer> workers,
                long tasks, long warmup, int work, @JsonProperty("load_average") String loadAverage) {
        Info {
            loadAverage = LoadAverage.orNotRecorded(loadAverage);
        }

        String protocolLine() {
            return String.format(Locale.ROOT, "protocol: designs %s, streams %s, workers %s; %,d measured tasks per cell after %,d"
                    + " unmeasured, each computing 0 .. %d xorshift rounds (uniform); scheduler ring and queue capacity %d per stream;"
                    + " one JVM per cell", designs, streams, workers, tasks, warmup, 2 * work, Design.CAPACITY);
        }
    }

    /** A result for a cell whose JVM gave none. */
    static JsonNode failedCell(String design, int streams, int workers, String status, String why) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("design", design).put("streams", streams).put("workers", workers).put("status", status).put("why", why);
        return o;
    }

    static boolean ok(JsonNode r) {
        return "ok".equals(r.path("status").asText());
    }

    /**
     * Adds to each measured cell its ratios to the scheduler's cell of the same streams and workers
     * ({@code tasks_per_s_vs_scheduler}, {@code p99_vs_scheduler}, {@code cpu_vs_scheduler}), so that
     * the docs can quote them as figures of the data; the same cells give the same ratios (--report).
     */
    static void addRatios(List<JsonNode> cells) {
        for (JsonNode c : cells) {
            if (!c.has("tasks_per_s") || !(c instanceof ObjectNode o)) {
                continue;
            }
            for (JsonNode ref : cells) {
                if (ref.path("design").asText().equals(Design.SCHEDULER.name()) && ref.has("tasks_per_s")
                        && ref.path("streams").asInt() == c.path("streams").asInt() && ref.path("workers").asInt() == c.path("workers").asInt()) {
                    o.put("tasks_per_s_vs_scheduler", round3(c.path("tasks_per_s").asDouble() / ref.path("tasks_per_s").asDouble()));
                    o.put("p99_vs_scheduler", round3(c.path("p99_ns").asDouble() / Math.max(1, ref.path("p99_ns").asDouble())));
                    o.put("cpu_vs_scheduler", round3(c.path("cpu_us_per_1000").asDouble() / ref.path("cpu_us_per_1000").asDouble()));
                }
            }
        }
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Prints the report and writes the files; whether every cell passed (in order, checksums equal, no hang). */
    static boolean write(Info info, List<JsonNode> cells, Path dir, PrintStream out) throws IOException {
        addRatios(cells);
        boolean allOk = true;
        for (int s : info.streams()) {
            out.printf(Locale.ROOT, "%n== %d stream%s: tasks/s; end-to-end latency (creation to ordered output), us; CPU us per 1,000"
                    + " tasks (workers + the design's threads; whole process) ==%n", s, s == 1 ? "" : "s");
            out.printf(Locale.ROOT, "%-15s %7s %7s %11s %9s %9s %9s %9s %9s %10s  %s%n", "design", "workers", "threads", "tasks/s",
                    "p50", "p99", "p99.9", "cpu", "process", "in place", "status");
            for (JsonNode c : cells) {
                if (c.path("streams").asInt() != s) {
                    continue;
                }
                if (!c.has("tasks_per_s")) {
                    out.printf(Locale.ROOT, "%-15s %7d  %s: %s%n", c.path("design").asText(), c.path("workers").asInt(),
                            c.path("status").asText(), c.path("why").asText());
                    continue;
                }
                String inPlace = c.has("in_place") ? String.format(Locale.ROOT, "%.1f %%", 100.0 * c.path("in_place").asLong()
                        / Math.max(1, c.path("in_place").asLong() + c.path("left_behind").asLong())) : "-";
                out.printf(Locale.ROOT, "%-15s %7d %7d %,11.0f %9.1f %9.1f %9.1f %9.1f %9.1f %10s  %s%n", c.path("design").asText(),
                        c.path("workers").asInt(), c.path("threads").asInt(), c.path("tasks_per_s").asDouble(),
                        c.path("p50_ns").asDouble() / 1e3, c.path("p99_ns").asDouble() / 1e3, c.path("p99_9_ns").asDouble() / 1e3,
                        c.path("cpu_us_per_1000").asDouble(), c.path("process_cpu_us_per_1000").asDouble(), inPlace,
                        c.path("status").asText());
            }
        }
        for (JsonNode c : cells) {
            if (!ok(c)) {
                allOk = false;
                out.printf(Locale.ROOT, "FAILED: %s streams=%d workers=%d: status %s, out of order %d, checksums ok %s%s%n",
                        c.path("design").asText(), c.path("streams").asInt(), c.path("workers").asInt(), c.path("status").asText(),
                        c.path("out_of_order").asLong(), c.path("checksums_ok").asText("-"),
                        c.has("why") ? " (" + c.path("why").asText() + ")" : "");
            }
        }
        writeFiles(info, cells, dir, out);
        out.printf(Locale.ROOT, "%nwritten: %s (ordered.csv, ordered.json, ordered-throughput.png, ordered-p99.png)%n", dir);
        return allOk;
    }

    private static void writeFiles(Info info, List<JsonNode> cells, Path dir, PrintStream out) throws IOException {
        StringBuilder csv = new StringBuilder(String.join(",", COLUMNS)).append('\n');
        for (JsonNode c : cells) {
            List<String> f = new ArrayList<>();
            for (String k : COLUMNS) {
                JsonNode v = c.path(k);
                f.add(v.isMissingNode() ? "" : v.isFloatingPointNumber() ? String.format(Locale.ROOT, "%.3f", v.asDouble()) : v.asText());
            }
            csv.append(String.join(",", f)).append('\n');
        }
        Files.writeString(dir.resolve("ordered.csv"), csv);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "ordered");
        root.put("info", info);
        root.put("cells", cells);
        Json.write(dir.resolve("ordered.json"), root);
        chart(info, cells, dir, "tasks_per_s", "ordered-throughput.png", "tasks/s", out);
        chart(info, cells, dir, "p99_ns", "ordered-p99.png", "end-to-end p99, ns", out);
    }

    private static void chart(Info info, List<JsonNode> cells, Path dir, String field, String file, String yTitle, PrintStream out) {
        Map<String, double[]> series = new LinkedHashMap<>();
        for (int s : info.streams()) {
            for (String d : info.designs()) {
                double[] y = new double[info.workers().size()];
                for (int i = 0; i < y.length; i++) {
                    for (JsonNode c : cells) {
                        if (c.path("design").asText().equals(d) && c.path("streams").asInt() == s
                                && c.path("workers").asInt() == info.workers().get(i)) {
                            y[i] = c.path(field).asDouble();
                        }
                    }
                }
                series.put(d + ", " + s + " stream" + (s == 1 ? "" : "s"), y);
            }
        }
        LogChart.write(dir.resolve(file), String.format(Locale.ROOT, "ordered output: %s (%s, %d cores, JDK %s)", yTitle,
                info.facts().cpu(), info.facts().cores(), info.facts().jdk()), "workers", yTitle, info.workers(), series, out);
    }

    /** {@code --report DIR}: the report of a finished run again, its files rewritten; whether every cell passed. */
    static boolean again(Path dir, PrintStream out) throws IOException {
        JsonNode root = Json.read(dir.resolve("ordered.json"));
        Info info = Json.convert(root.path("info"), Info.class);
        List<JsonNode> cells = new ArrayList<>();
        root.path("cells").forEach(cells::add);
        printHeader(info, out);
        out.println("load average: " + info.loadAverage());
        return write(info, cells, dir, out);
    }

    static void printHeader(Info info, PrintStream out) {
        info.facts().print(out, ", kernel " + info.kernel());
        out.println(info.protocolLine());
    }
}
