package dev.statvar.lab.counters;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.MachineFacts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A study's JSON: the machine and protocol, every cell summarised (with the article's figure
 * beside it) and every measured repeat. Times are ns per op; see {@link CellStats} for what each
 * measures.
 */
final class JsonReport {
    private JsonReport() {
    }

    static void write(Path file, Catalog.Kind kind, RunInfo info, Map<String, List<CellStats>> cells,
                      Map<String, List<Forker.Repeat>> results, Map<String, Boolean> articleSaysExact,
                      ArticleFigures figures, CellStats.Rule rule) throws IOException {
        Json.write(file, tree(kind, info, cells, results, articleSaysExact, figures, rule));
    }

    static Map<String, Object> tree(Catalog.Kind kind, RunInfo info, Map<String, List<CellStats>> cells,
                                    Map<String, List<Forker.Repeat>> results, Map<String, Boolean> articleSaysExact,
                                    ArticleFigures figures, CellStats.Rule rule) {
        Report.Noise noise = Report.Noise.of(cells, results);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", kind.name().toLowerCase(java.util.Locale.ROOT));
        root.put("machine", new Machine(info.machine(), info.gc(), info.jvmFlags()));
        root.put("protocol", new Protocol(info.runMillis(), info.intervalMillis(), info.warmups(), info.repeats(), info.delays(),
                info.threads(), info.protocolLine(), info.regimeLine()));
        root.put("rule", rule.description);
        root.put("noise_floor_rule", Report.NOISE_RULE);
        root.put("article_source", figures.source);

        List<Object> cellList = new ArrayList<>();
        for (var e : cells.entrySet()) {
            for (CellStats c : e.getValue()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("implementation", c.implementation());
                m.put("delay", c.delay());
                m.put("threads", c.threads());
                m.put("oversubscribed", c.threads() > info.cores());
                m.put("ns_per_op_minus_base", c.wallFigure(rule));
                m.put("paired_ns_per_op_minus_base", paired(c.pairedWall()));
                m.put("article_rule_ns_per_op_minus_base", c.wallMinusBase());
                m.put("noise_floor_ns", noise.floor(c));
                m.put("within_noise", noise.withinNoise(c, rule));
                Levels lv = noise.levels(c);
                if (lv != null) {
                    Map<String, Object> l = new LinkedHashMap<>(); // in this order, so that a report written again is the same file
                    l.put("low_ns", lv.low());
                    l.put("low_runs", lv.lowRuns());
                    l.put("high_ns", lv.high());
                    l.put("high_runs", lv.highRuns());
                    m.put("levels", l);
                }
                m.put("ns_per_op", summary(c.wall()));
                m.put("base_ns", summary(c.base()));
                m.put("cpu_ns_per_op_minus_base", c.cpuFigure(rule));
                m.put("paired_cpu_ns_per_op_minus_base", paired(c.pairedCpu()));
                m.put("cpu_ns_per_op", summary(c.cpu()));
                m.put("base_cpu_ns", summary(c.baseCpu()));
                m.put("ops_per_sec", c.opsPerSec());
                m.put("counted", c.counted());
                m.put("correct", c.correct());
                m.put("difference", c.difference());
                if (kind == Catalog.Kind.GAUGES) {
                    m.put("counted_sum", c.countedSum());
                    m.put("correct_sum", c.correctSum());
                    m.put("sum_difference", c.sumDifference());
                }
                CellStats.Exactness x = c.exactness();
                Map<String, Object> ex = new LinkedHashMap<>();
                ex.put("runs_judged", x.runs());
                ex.put("inexact_runs", x.inexactRuns());
                ex.put("worst_lost", x.worstLost());
                ex.put("worst_extra", x.worstExtra());
                if (kind == Catalog.Kind.GAUGES) {
                    ex.put("worst_sum_lost", x.worstSumLost());
                    ex.put("worst_sum_extra", x.worstSumExtra());
                    ex.put("bad_intervals", x.badIntervals());
                    ex.put("min_seen", x.minSeen());
                    ex.put("max_seen", x.maxSeen());
                }
                m.put("exactness_per_run", ex);
                m.put("article_says_exact", articleSaysExact.get(c.implementation()));
                ArticleFigures.Figure f = figures.get(kind, c.implementation(), c.delay());
                if (f != null) {
                    Map<String, Object> a = new LinkedHashMap<>();
                    a.put("base_ns", f.base());
                    a.put("ns_per_op_minus_base_1_thread", f.at(1));
                    a.put("ns_per_op_minus_base_2_threads", f.at(2));
                    a.put("ns_per_op_minus_base_6_threads", f.at(6));
                    a.put("ns_per_op_minus_base_12_threads", f.at(12));
                    a.put("article_name", f.articleName());
                    a.put("article_line", f.articleLine());
                    m.put("article", a);
                }
                cellList.add(m);
            }
        }
        root.put("cells", cellList);

        List<Object> reps = new ArrayList<>();
        for (var e : results.entrySet()) {
            for (Forker.Repeat r : e.getValue()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("implementation", e.getKey());
                m.put("delay", r.delay());
                m.put("threads", r.threads());
                m.put("repeat", r.repeat());
                m.put("ns_per_op", r.wallNsPerOp());
                m.put("base_ns", r.baseWallNsPerOp());
                m.put("cpu_ns_per_op", r.cpuNsPerOp());
                m.put("base_cpu_ns", r.baseCpuNsPerOp());
                m.put("ops_per_sec", r.opsPerSec());
                m.put("counted", r.counted());
                m.put("correct", r.correct());
                m.put("counted_sum", r.countedSum());
                m.put("correct_sum", r.correctSum());
                m.put("redone", r.redone());
                m.put("phase", r.phase());
                if (!Double.isNaN(r.afterBaseWallNsPerOp())) {
                    m.put("after_base_ns", r.afterBaseWallNsPerOp());
                }
                if (kind == Catalog.Kind.GAUGES) {
                    m.put("bad_intervals", r.badIntervals());
                    m.put("min_seen", r.minSeen());
                    m.put("max_seen", r.maxSeen());
                }
                reps.add(m);
            }
        }
        root.put("repeats", reps);
        return root;
    }

    /** The JSON's {@code machine}: the machine's facts flat, the forked runs' GC and flags ({@link Json}'s binding). */
    record Machine(@JsonUnwrapped MachineFacts facts, String gc, @JsonProperty("jvm_flags") List<String> jvmFlags) {
    }

    /** The JSON's {@code protocol}: what {@link RunInfo} holds of it, and its two lines as the report prints them. */
    record Protocol(@JsonProperty("run_ms") long runMillis, @JsonProperty("interval_ms") long intervalMillis, int warmups, int repeats,
                    List<Integer> delays, List<Integer> threads, String description, String regime) {
    }

    /** A study read back from its JSON: what {@link Report#write} needs to print and draw it again. */
    record Study(Catalog.Kind kind, RunInfo info, Map<String, List<Forker.Repeat>> results) {
    }

    static Study read(Path file) throws IOException {
        return of(Json.read(file), file.toString());
    }

    /** The study in {@code root}, read from {@code file} (named in errors). */
    static Study of(JsonNode root, String file) throws IOException {
        if (root == null || !root.has("study") || !root.has("repeats") || !root.has("machine") || !root.has("protocol")) {
            throw new IOException(file + " is not a statvar lab result (no study, machine, protocol or repeats)");
        }
        Catalog.Kind kind = switch (root.get("study").asText()) {
            case "counters" -> Catalog.Kind.COUNTERS;
            case "gauges" -> Catalog.Kind.GAUGES;
            default -> throw new IOException(file + ": unknown study '" + root.get("study").asText() + "'");
        };
        Machine m = Json.convert(root.get("machine"), Machine.class);
        Protocol p = Json.convert(root.get("protocol"), Protocol.class);
        RunInfo info = new RunInfo(m.facts(), m.jvmFlags(), p.runMillis(), p.intervalMillis(), p.warmups(), p.repeats(), p.delays(),
                p.threads());
        Map<String, List<Forker.Repeat>> results = new LinkedHashMap<>();
        for (JsonNode r : root.get("repeats")) {
            results.computeIfAbsent(r.get("implementation").asText(), k -> new ArrayList<>()).add(new Forker.Repeat(
                    r.get("delay").asInt(), r.get("threads").asInt(), r.get("repeat").asInt(), r.get("ns_per_op").asDouble(),
                    r.get("cpu_ns_per_op").asDouble(), r.get("ops_per_sec").asDouble(), r.get("counted").asLong(),
                    r.get("correct").asLong(), r.get("counted_sum").asLong(), r.get("correct_sum").asLong(),
                    r.get("base_ns").asDouble(), r.get("base_cpu_ns").asDouble(), r.path("redone").asInt(0),
                    r.path("phase").asText(Forker.Repeat.MEASURED), r.path("after_base_ns").asDouble(Double.NaN),
                    r.path("bad_intervals").asLong(0), r.path("min_seen").asLong(Forker.Repeat.UNKNOWN),
                    r.path("max_seen").asLong(Forker.Repeat.UNKNOWN)));
        }
        return new Study(kind, info, results);
    }

    private static Map<String, Object> paired(Paired p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("median", p.median());
        m.put("q1", p.q1());
        m.put("q3", p.q3());
        m.put("min", p.min());
        m.put("max", p.max());
        m.put("runs", p.n());
        return m;
    }

    private static Map<String, Object> summary(Summary s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", s.mean());
        m.put("min", s.min());
        m.put("max", s.max());
        m.put("kept", s.kept());
        m.put("discarded", s.discarded());
        return m;
    }
}
