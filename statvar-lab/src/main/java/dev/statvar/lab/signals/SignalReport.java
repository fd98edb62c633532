package dev.statvar.lab.signals;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
 * The signalling study's report, from the children's results: per latency a table of every
 * mechanism x pair count, the article's figures beside the wait/notify rows, the HdrHistogram check
 * per cell and the clock; {@code signals.csv} (one row per cell and latency), {@code signals.json}
 * ({@code "study": "signals"}, {@code cells} keyed by mechanism, pairs, latency; the children's
 * results kept whole for {@code --report}) and one spectrum chart per latency and pair count.
 */
final class SignalReport {
    static final List<String> LATENCIES = List.of("signal_cost", "wake_up");
    static final String[] FIELDS = {"p50", "p90", "p95", "p99", "p99_9", "max"};

    private SignalReport() {
    }

    /** What ran, on what: the JSON's {@code info} (the machine's facts flat, then the protocol; {@link Json}'s binding). */
    record Info(@JsonUnwrapped MachineFacts facts, String kernel, List<Integer> pairs, List<String> mechanisms, int signals, int warmup,
                @JsonProperty("load_average") String loadAverage) {
        Info {
            loadAverage = LoadAverage.orNotRecorded(loadAverage);
        }

        String protocolLine() {
            return String.format(Locale.ROOT, "protocol: pairs %s, mechanisms %s; per pair %d measured signals after %d"
                    + " unmeasured, each sent when the partner waits (the critical thread parks %d us between looks);"
                    + " one JVM per mechanism x pair count", pairs, mechanisms, signals, warmup, SignalRunner.POLL_NS / 1000);
        }
    }

    /** A row of the article's figures: notify's cost on Linux, ns (Jean-Philippe Bempel, "Notify... oh, wait! I have a signal.", 2015). */
    record ArticleFigure(int pairs, long count, long min, long p50, long p90, long p95, long p99, long p999, long max, double mean) {
    }

    /** Bempel's Linux figures for notify(): 16 pairs x 1000, and 256 pairs x 1000. */
    static final List<ArticleFigure> ARTICLE = List.of(
            new ArticleFigure(16, 16_000, 69, 1_532, 1_790, 1_888, 2_056, 3_175, 20_906, 1_535.5181875),
            new ArticleFigure(256, 256_000, 68, 1_645, 2_367, 2_714, 7_762, 15_230, 1_590_240, 1_883.61266015625));

    /** A result for a cell whose JVM gave none. */
    static JsonNode failedCell(String mechanism, int pairs, String status, String why) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("mechanism", mechanism).put("pairs", pairs).put("status", status).put("why", why);
        return o;
    }

    /** Whether a result passed: ran, no signal missed, and both latencies' checks held. */
    static boolean ok(JsonNode r) {
        if (!"ok".equals(r.path("status").asText()) || r.path("missed").asLong() != 0) {
            return false;
        }
        for (String l : LATENCIES) {
            if (!r.path("latencies").path(l).path("check_ok").asBoolean()) {
                return false;
            }
        }
        return true;
    }

    /** The flat cells of the JSON: one per result and latency. */
    static List<Map<String, Object>> cells(List<JsonNode> results) {
        List<Map<String, Object>> cells = new ArrayList<>();
        for (JsonNode r : results) {
            for (String l : LATENCIES) {
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("mechanism", r.path("mechanism").asText());
                c.put("pairs", r.path("pairs").asInt());
                c.put("latency", l);
                c.put("status", r.path("status").asText());
                JsonNode v = r.path("latencies").path(l);
                if (!v.isMissingNode()) {
                    c.put("count", v.path("count").asLong());
                    for (String f : FIELDS) {
                        c.put(f, v.path(f).asLong());
                    }
                    c.put("mean", v.path("mean").asDouble());
                    c.put("min", v.path("min").asLong());
                    for (String f : FIELDS) {
                        c.put("hdr_" + f, v.path("hdr").path(f).asLong());
                    }
                    c.put("check_ok", v.path("check_ok").asBoolean());
                    c.put("check_worst", v.path("check_worst").asDouble());
                    for (String f : List.of("missed", "abandoned", "spurious", "timeouts", "spun", "elapsed_ms", "clock_granularity_ns", "clock_cost_ns")) {
                        c.put(f, r.path(f).asDouble());
                    }
                }
                cells.add(c);
            }
        }
        return cells;
    }

    /** Prints the report, writes the files; whether every cell passed. */
    static boolean write(Info info, List<JsonNode> results, Path dir, PrintStream out) throws IOException {
        boolean allOk = true;
        for (String l : LATENCIES) {
            out.printf(Locale.ROOT, "%n== %s, ns (statvar histograms, %s) ==%n", l.equals("signal_cost")
                    ? "the signal's cost to the critical thread" : "wake-up latency: just before the signal until the partner runs",
                    "precision 0.78 %");
            out.printf(Locale.ROOT, "%-11s %5s %7s %9s %9s %9s %9s %9s %11s %10s %6s %6s  %s%n", "mechanism", "pairs", "count",
                    "p50", "p90", "p95", "p99", "p99.9", "max", "mean", "missed", "spur.", "status");
            for (JsonNode r : results) {
                JsonNode v = r.path("latencies").path(l);
                if (v.isMissingNode()) {
                    out.printf(Locale.ROOT, "%-11s %5d  %s: %s%n", r.path("mechanism").asText(), r.path("pairs").asInt(),
                            r.path("status").asText(), r.path("why").asText());
                    continue;
                }
                out.printf(Locale.ROOT, "%-11s %5d %7d %9d %9d %9d %9d %9d %11d %10.1f %6d %6d  %s%s%n", r.path("mechanism").asText(),
                        r.path("pairs").asInt(), v.path("count").asLong(), v.path("p50").asLong(), v.path("p90").asLong(),
                        v.path("p95").asLong(), v.path("p99").asLong(), v.path("p99_9").asLong(), v.path("max").asLong(),
                        v.path("mean").asDouble(), r.path("missed").asLong(), r.path("spurious").asLong(), r.path("status").asText(),
                        r.path("spun").asLong() >= 0 ? String.format(Locale.ROOT, ", %d of %d caught spinning", r.path("spun").asLong(),
                                r.path("sent").asLong()) : "");
            }
            if (l.equals("signal_cost")) {
                for (ArticleFigure s : ARTICLE) {
                    out.printf(Locale.ROOT, "%-11s %5d %7d %9d %9d %9d %9d %9d %11d %10.1f %6s %6s  Bempel, Linux, notify() (its"
                            + " machine and JDK not stated)%n", "article", s.pairs(), s.count(), s.p50(), s.p90(), s.p95(), s.p99(),
                            s.p999(), s.max(), s.mean(), "-", "-");
                }
            }
        }
        out.printf(Locale.ROOT, "%n== statvar's percentiles against HdrHistogram (%d significant digits) fed the same samples;"
                + " allowed: statvar's 0.78 %% + HdrHistogram's bucket width ==%n", PercentileCheck.HDR_DIGITS);
        JsonNode clock = null;
        for (JsonNode r : results) {
            for (String l : LATENCIES) {
                JsonNode v = r.path("latencies").path(l);
                if (!v.isMissingNode()) {
                    out.printf(Locale.ROOT, "%-11s pairs=%-4d %-11s %s%n", r.path("mechanism").asText(), r.path("pairs").asInt(), l,
                            v.path("check").asText());
                    clock = clock == null ? r : clock;
                }
            }
            allOk &= ok(r);
        }
        for (JsonNode r : results) {
            if (r.path("abandoned").asLong() > 0) {
                out.printf(Locale.ROOT, "%s pairs=%d: %d signals not sent within 2 s of the partner waiting (the critical thread"
                        + " got no CPU: the partner stopped waiting for them; sent late, not missed)%n", r.path("mechanism").asText(),
                        r.path("pairs").asInt(), r.path("abandoned").asLong());
            }
        }
        if (clock != null) {
            out.printf(Locale.ROOT, "%nclock: System.nanoTime's smallest nonzero step %.0f ns, one call %.1f ns (the first cell's"
                    + " JVM; every cell's in the data). The article's Windows figures are multiples of a ~300 ns tick.%n",
                    clock.path("clock_granularity_ns").asDouble(), clock.path("clock_cost_ns").asDouble());
        }
        for (JsonNode r : results) {
            if (!ok(r)) {
                out.printf(Locale.ROOT, "FAILED: %s pairs=%d: status %s, missed %d (seen only when a 2 s wait ran out: %d)%s%n",
                        r.path("mechanism").asText(), r.path("pairs").asInt(), r.path("status").asText(), r.path("missed").asLong(),
                        r.path("late_by_timeout").asLong(),
                        r.has("why") ? " (" + r.path("why").asText() + ")" : ", or a check above fails");
            }
        }
        writeFiles(info, results, dir, out);
        out.printf(Locale.ROOT, "%nwritten: %s (signals.csv, signals.json, signals-<latency>-<pairs>-pairs.png)%n", dir);
        return allOk;
    }

    private static void writeFiles(Info info, List<JsonNode> results, Path dir, PrintStream out) throws IOException {
        List<Map<String, Object>> cells = cells(results);
        StringBuilder csv = new StringBuilder("mechanism,pairs,latency,status,count,p50,p90,p95,p99,p99_9,max,mean,min,"
                + "missed,abandoned,spurious,timeouts,spun,check_ok,check_worst,clock_granularity_ns,clock_cost_ns\n");
        for (Map<String, Object> c : cells) {
            List<String> f = new ArrayList<>();
            for (String k : csv.substring(0, csv.indexOf("\n")).split(",")) {
                Object v = c.get(k);
                f.add(v == null ? "" : v instanceof Double d ? (d == Math.rint(d) && Math.abs(d) < 1e15
                        ? Long.toString(d.longValue()) : String.format(Locale.ROOT, "%.3f", d)) : v.toString());
            }
            csv.append(String.join(",", f)).append('\n');
        }
        Files.writeString(dir.resolve("signals.csv"), csv);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "signals");
        root.put("info", info);
        root.put("article", ARTICLE);
        root.put("cells", cells);
        root.put("results", results);
        Json.write(dir.resolve("signals.json"), root);
        for (String l : LATENCIES) {
            for (int p : info.pairs()) {
                Map<String, JsonNode> series = new LinkedHashMap<>();
                for (JsonNode r : results) {
                    if (r.path("pairs").asInt() == p && r.path("latencies").has(l)) {
                        series.put(r.path("mechanism").asText(), r.path("latencies").path(l));
                    }
                }
                SpectrumChart.write(dir.resolve("signals-" + l.replace('_', '-') + "-" + p + "-pairs.png"),
                        String.format(Locale.ROOT, "%s, %d pair%s: percentile spectrum (%s, JDK %s)", l.replace('_', ' '), p,
                                p == 1 ? "" : "s", info.facts().cpu(), info.facts().jdk()), series, out);
            }
        }
    }

    /** {@code --report DIR}: the report of a finished run again, its files rewritten; whether every cell passed. */
    static boolean again(Path dir, PrintStream out) throws IOException {
        JsonNode root = Json.read(dir.resolve("signals.json"));
        Info info = Json.convert(root.path("info"), Info.class);
        List<JsonNode> results = new ArrayList<>();
        root.path("results").forEach(results::add);
        info.facts().print(out, ", kernel " + info.kernel());
        out.println(info.protocolLine());
        out.println("load average: " + info.loadAverage());
        return write(info, results, dir, out);
    }
}
