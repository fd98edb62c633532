package dev.statvar.lab;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

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
                      SeedFigures seed) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(),
                tree(kind, info, cells, results, articleSaysExact, seed));
    }

    static Map<String, Object> tree(Catalog.Kind kind, RunInfo info, Map<String, List<CellStats>> cells,
                                    Map<String, List<Forker.Repeat>> results, Map<String, Boolean> articleSaysExact,
                                    SeedFigures seed) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", kind.name().toLowerCase(java.util.Locale.ROOT));
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("cpu", info.cpu());
        machine.put("cores", info.cores());
        machine.put("jdk", info.jdk());
        machine.put("vm", info.vm());
        machine.put("gc", info.gc());
        machine.put("jvm_flags", info.jvmFlags());
        root.put("machine", machine);
        Map<String, Object> protocol = new LinkedHashMap<>();
        protocol.put("run_ms", info.runMillis());
        protocol.put("interval_ms", info.intervalMillis());
        protocol.put("warmups", info.warmups());
        protocol.put("repeats", info.repeats());
        protocol.put("delays", info.delays());
        protocol.put("threads", info.threads());
        protocol.put("description", info.protocolLine());
        root.put("protocol", protocol);
        root.put("seed_source", seed.source);

        List<Object> cellList = new ArrayList<>();
        for (var e : cells.entrySet()) {
            for (CellStats c : e.getValue()) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("implementation", c.implementation());
                m.put("delay", c.delay());
                m.put("threads", c.threads());
                m.put("oversubscribed", c.threads() > info.cores());
                m.put("ns_per_op_minus_base", c.wallMinusBase());
                m.put("ns_per_op", summary(c.wall()));
                m.put("base_ns", summary(c.base()));
                m.put("cpu_ns_per_op_minus_base", c.cpuMinusBase());
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
                m.put("article_says_exact", articleSaysExact.get(c.implementation()));
                SeedFigures.Figure f = seed.get(kind, c.implementation(), c.delay());
                if (f != null) {
                    Map<String, Object> a = new LinkedHashMap<>();
                    a.put("base_ns", f.base());
                    a.put("ns_per_op_minus_base_1_thread", f.at(1));
                    a.put("ns_per_op_minus_base_2_threads", f.at(2));
                    a.put("ns_per_op_minus_base_6_threads", f.at(6));
                    a.put("ns_per_op_minus_base_12_threads", f.at(12));
                    a.put("article_name", f.articleName());
                    a.put("seed_line", f.seedLine());
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
                reps.add(m);
            }
        }
        root.put("repeats", reps);
        return root;
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
