package dev.statvar.lab.throughput;

import dev.statvar.lab.kit.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The study's files: {@code throughput.csv} (one row per run and second) and
 * {@code throughput.json}: the machine, the protocol, and {@code cells} (as the lab's other JSON
 * files name their rows, so that docs/LAB.md's quoted figures are checked against them): one per
 * run (key {@code run}), one per pitfall result (key {@code pitfall}) and the self-check's (key
 * {@code self_check}); rates in millions of ops per second ({@code _mops}).
 */
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
        root.put("machine", info.machine());
        Map<String, Object> protocol = new LinkedHashMap<>();
        protocol.put("seconds", info.seconds());
        protocol.put("self_check_seconds", info.checkSeconds());
        protocol.put("self_check_rate", info.rate());
        protocol.put("jvm_flags", ThroughputStudy.JVM_FLAGS);
        protocol.put("text", info.protocolLine());
        root.put("protocol", protocol);
        List<Map<String, Object>> cells = new ArrayList<>();
        for (RunData r : runs) {
            cells.add(run(r));
        }
        for (Pitfalls.Pollution p : Pitfalls.pollution(runs)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pitfall", "profile_pollution");
            m.put("impl", p.impl());
            m.put("alone_mops", mops(p.alone()));
            m.put("first_mops", mops(p.first()));
            m.put("second_mops", mops(p.second()));
            m.put("alone_shared_cpu_percent", finite(100 * p.aloneShared()));
            m.put("first_shared_cpu_percent", finite(100 * p.firstShared()));
            m.put("second_shared_cpu_percent", finite(100 * p.secondShared()));
            m.put("first_to_alone", p.first() / p.alone());
            m.put("second_to_alone", p.secondToAlone());
            m.put("verdict", PitfallsReport.verdict(p));
            cells.add(m);
        }
        Pitfalls.sum(runs).ifPresent(s -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pitfall", "summed");
            m.put("queue_mops", mops(s.queue()));
            m.put("ring_mops", mops(s.ring()));
            m.put("ring_to_queue", s.ring() / s.queue());
            m.put("summed_mops", mops(s.summed()));
            m.put("queue_share_percent", 100 * s.queueShare());
            m.put("summed_to_queue", s.summed() / s.queue());
            m.put("summed_to_ring", s.summed() / s.ring());
            cells.add(m);
        });
        Pitfalls.osr(runs).ifPresent(o -> {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pitfall", "osr");
            m.put("osr_loop_mops", mops(o.osrLoop()));
            m.put("method_loop_mops", mops(o.methodLoop()));
            m.put("osr_to_method", o.ratio());
            m.put("loop_osr_compilations_osr_run", o.loopOsr());
            m.put("loop_osr_compilations_method_run", o.methodOsr());
            m.put("jvm_osr_compilations_osr_run", o.osrJvm());
            m.put("jvm_osr_compilations_method_run", o.methodJvm());
            cells.add(m);
        });
        for (Pitfalls.Placement p : Pitfalls.placement(runs)) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("placement", p.impl());
            m.put("one_cpu_mops", mops(p.together()));
            m.put("one_cpu_seconds", p.togetherSeconds());
            m.put("two_cpus_mops", mops(p.apart()));
            m.put("two_cpus_seconds", p.apartSeconds());
            m.put("two_to_one", finite(p.apartToTogether()));
            cells.add(m);
        }
        Pitfalls.find(runs, "self-check").ifPresent(r -> {
            SelfCheck s = SelfCheck.of(r, info.rate());
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("self_check", "ring");
            m.put("pass", s.pass());
            m.put("rate", s.rate());
            m.put("first_steady_second", s.firstSteady());
            m.put("steady_seconds", s.steady());
            m.put("judged_seconds", s.judged());
            m.put("hold_ups", r.holdUps.size());
            m.put("worst_deviation_percent", finite(100 * s.worst()));
            m.put("worst_second", s.worstSecond());
            m.put("tolerance_percent", 100 * SelfCheck.TOLERANCE);
            m.put("exact", s.exact());
            cells.add(m);
        });
        root.put("cells", cells);
        return root;
    }

    /** A run's cell: its counts, its verdict (rates in millions of ops per second: {@code _mops}), its compilations. */
    private static Map<String, Object> run(RunData r) {
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
        m.put("median_mops", mops(v.median()));
        m.put("min_mops", mops(v.min()));
        m.put("max_mops", mops(v.max()));
        m.put("typical_mops", mops(r.typicalRate()));
        m.put("shared_cpu_percent", finite(100 * r.sharedCpu()));
        m.put("bimodal", v.bimodal());
        if (v.bimodal()) {
            Map<String, Object> l = new LinkedHashMap<>();
            l.put("low_mops", mops(v.levels().lowMedian()));
            l.put("low_seconds", v.levels().low());
            l.put("high_mops", mops(v.levels().highMedian()));
            l.put("high_seconds", v.levels().high());
            l.put("ratio", v.levels().ratio());
            m.put("levels", l);
        }
        int[] c = r.compilationTotals();
        m.put("compilations", c[0]);
        m.put("osr_compilations", c[1]);
        m.put("compiled_workload_methods", r.compiled);
        m.put("notes", r.notes);
        return m;
    }

    /** Millions of ops per second, or null. */
    private static Double mops(double opsPerSecond) {
        return finite(opsPerSecond / 1e6);
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
