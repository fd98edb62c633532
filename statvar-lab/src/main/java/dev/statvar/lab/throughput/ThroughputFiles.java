package dev.statvar.lab.throughput;

import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.Steadiness;
import dev.statvar.lab.kit.TimelineSecond;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** The study's files: {@code throughput.csv} (one row per run and second) and {@code throughput.json}. */
final class ThroughputFiles {
    static final String CSV_HEADER = "run,second,partial,ms,total,ops_per_s,worker_ops,compilations,osr,gc_pause_ms,"
            + "migrations,cpus,shared_cpu,steady";

    private ThroughputFiles() {
    }

    static void write(ThroughputReport.Info info, List<RunData> runs, Path dir) throws IOException {
        List<String> csv = new ArrayList<>();
        csv.add(CSV_HEADER);
        for (RunData r : runs) {
            int first = r.verdict().firstSteady();
            for (TimelineSecond s : r.seconds) {
                csv.add(String.format(Locale.ROOT, "%s,%d,%d,%.3f,%d,%.1f,%s,%d,%d,%.3f,%s,%s,%.3f,%d", r.label, s.second(),
                        s.partial() ? 1 : 0, s.millis(), s.total(), s.rate(), join(s.ops()), s.compilations(), s.osr(),
                        s.gcPauseMillis(), ThroughputReport.join(s.migrations()), ThroughputReport.join(s.cpus()), s.sharedCpu(),
                        first >= 0 && !s.partial() && s.second() >= first ? 1 : 0));
            }
        }
        Files.write(dir.resolve("throughput.csv"), csv);
        Json.write(dir.resolve("throughput.json"), json(info, runs));
    }

    static Map<String, Object> json(ThroughputReport.Info info, List<RunData> runs) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "throughput");
        root.put("machine", info.machine().json());
        Map<String, Object> protocol = new LinkedHashMap<>();
        protocol.put("seconds", info.seconds());
        protocol.put("self_check_seconds", info.checkSeconds());
        protocol.put("self_check_rate", info.rate());
        protocol.put("jvm_flags", ThroughputStudy.JVM_FLAGS);
        protocol.put("text", info.protocolLine());
        root.put("protocol", protocol);
        List<Map<String, Object>> rs = new ArrayList<>();
        for (RunData r : runs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("run", r.label);
            m.put("workers", r.workers);
            m.put("exit_code", r.exitCode);
            m.put("own_counts", r.own);
            m.put("second_sums", r.sums);
            m.put("exact", r.exact());
            Steadiness.Verdict v = r.verdict();
            m.put("first_steady_second", v.firstSteady());
            m.put("steady_seconds", v.steady());
            m.put("median_ops_per_s", finite(v.median()));
            m.put("min_ops_per_s", finite(v.min()));
            m.put("max_ops_per_s", finite(v.max()));
            m.put("typical_ops_per_s", finite(r.typicalRate()));
            m.put("bimodal", v.bimodal());
            if (v.bimodal()) {
                m.put("levels", Map.of("low_median", v.levels().lowMedian(), "low_seconds", v.levels().low(),
                        "high_median", v.levels().highMedian(), "high_seconds", v.levels().high()));
            }
            int[] c = r.compilationTotals();
            m.put("compilations", c[0]);
            m.put("osr_compilations", c[1]);
            m.put("compiled_workload_methods", r.compiled);
            m.put("notes", r.notes);
            rs.add(m);
        }
        root.put("runs", rs);
        Pitfalls.find(runs, "self-check").ifPresent(r -> {
            SelfCheck s = SelfCheck.of(r, info.rate());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pass", s.pass());
            m.put("rate", s.rate());
            m.put("first_steady_second", s.firstSteady());
            m.put("steady_seconds", s.steady());
            m.put("worst_deviation", finite(s.worst()));
            m.put("worst_second", s.worstSecond());
            m.put("tolerance", SelfCheck.TOLERANCE);
            m.put("exact", s.exact());
            root.put("self_check", m);
        });
        Map<String, Object> pit = new LinkedHashMap<>();
        List<Map<String, Object>> pol = new ArrayList<>();
        for (Pitfalls.Pollution p : Pitfalls.pollution(runs)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("impl", p.impl());
            m.put("alone", p.alone());
            m.put("first_in_shared_jvm", p.first());
            m.put("second_in_shared_jvm", p.second());
            m.put("second_to_alone", p.secondToAlone());
            m.put("verdict", PitfallsReport.verdict(p));
            pol.add(m);
        }
        pit.put("profile_pollution", pol);
        Optional<Pitfalls.Sum> sum = Pitfalls.sum(runs);
        sum.ifPresent(s -> pit.put("summed", new LinkedHashMap<>(Map.of("queue", s.queue(), "ring", s.ring(),
                "summed_figure", s.summed(), "queue_share_of_summed_time", s.queueShare()))));
        Pitfalls.osr(runs).ifPresent(o -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("osr_loop", o.osrLoop());
            m.put("method_loop", o.methodLoop());
            m.put("osr_to_method", o.ratio());
            m.put("osr_compilations_of_the_loop_osr_run", o.loopOsr());
            m.put("osr_compilations_of_the_loop_method_run", o.methodOsr());
            m.put("osr_compilations_jvm_osr_run", o.osrJvm());
            m.put("osr_compilations_jvm_method_run", o.methodJvm());
            pit.put("osr", m);
        });
        root.put("pitfalls", pit);
        return root;
    }

    /** JSON has no NaN: null instead. */
    private static Double finite(double d) {
        return Double.isFinite(d) ? d : null;
    }

    private static String join(long[] a) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < a.length; i++) {
            b.append(i == 0 ? "" : ";").append(a[i]);
        }
        return b.toString();
    }
}
