package dev.statvar.lab.locks;

import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.lab.kit.ChildProcess;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The locks study's child JVM: one run of {@link LockWorkload}. Usage:
 * {@code LocksRunner THREADS SECONDS JFR_THRESHOLD_MS} (a negative threshold: no JFR stream);
 * prints a {@code PROGRESS} line and one {@code RESULT <json>} line: per section and mode statvar's
 * counts and wait percentiles, the workload's own acquisition counts, the waits at or above the
 * threshold (from statvar's buckets), and per section what JFR reported.
 */
public final class LocksRunner {
    private LocksRunner() {
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[0]);
        double seconds = Double.parseDouble(args[1]);
        long thresholdMs = Long.parseLong(args[2]);
        System.out.printf(Locale.ROOT, "PROGRESS threads=%d%n", threads);
        System.out.flush();
        ChildProcess.printResult(run(threads, seconds, thresholdMs));
        System.out.flush();
    }

    static Map<String, Object> run(int threads, double seconds, long thresholdMs) throws InterruptedException {
        StatRegistry registry = StatRegistry.create();
        LockWorkload workload = new LockWorkload(registry, threads);
        JfrParks jfr = thresholdMs >= 0 ? new JfrParks(Duration.ofMillis(thresholdMs)) : null;
        long[] own;
        long[][] parks = null;
        try {
            own = workload.run(threads, seconds);
            if (jfr != null) {
                jfr.stop();
                parks = jfr.counts();
            }
        } finally {
            if (jfr != null) {
                jfr.close();
            }
        }
        Snapshot snap = registry.collect();
        long thresholdNs = thresholdMs * 1_000_000;
        List<Map<String, Object>> cells = new ArrayList<>();
        List<Map<String, Object>> sections = new ArrayList<>();
        for (Section s : Section.values()) {
            String site = workload.sites[s.ordinal()];
            long statvarAcquired = 0;
            for (String mode : s == Section.READ_MOSTLY ? List.of("read", "write") : List.of("-")) {
                Labels l = mode.equals("-") ? Labels.of("site", site) : Labels.of("site", site, "mode", mode);
                long acquired = snap.counter(s.family() + "_acquired", l);
                long contended = snap.counter(s.family() + "_contended", l);
                HistogramValue w = snap.histogram(s.family() + "_wait", l);
                statvarAcquired += acquired;
                Map<String, Object> c = new LinkedHashMap<>();
                c.put("section", s.name());
                c.put("mode", mode);
                c.put("design", s.design);
                c.put("site", site);
                c.put("acquired", acquired);
                c.put("contended", contended);
                c.put("contended_pct", acquired == 0 ? 0 : 100.0 * contended / acquired);
                c.put("waits", w.count());
                c.put("p50_ns", w.count() == 0 ? 0 : w.valueAtPercentile(50));
                c.put("p99_ns", w.count() == 0 ? 0 : w.valueAtPercentile(99));
                c.put("max_ns", w.count() == 0 ? 0 : w.max());
                c.put("wait_total_ns", w.sum());
                c.put("waits_at_or_over_threshold", thresholdMs < 0 ? -1 : atOrAbove(w, thresholdNs));
                cells.add(c);
            }
            Map<String, Object> sec = new LinkedHashMap<>();
            sec.put("section", s.name());
            sec.put("site", site);
            sec.put("own_count", own[s.ordinal()]);
            sec.put("statvar_acquired", statvarAcquired);
            if (parks != null) {
                sec.put("jfr_events", parks[s.ordinal()][0]);
                sec.put("jfr_wait_ns", parks[s.ordinal()][1]);
                sec.put("jfr_max_ns", parks[s.ordinal()][2]);
            }
            sections.add(sec);
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("threads", threads);
        r.put("seconds", seconds);
        r.put("jfr_threshold_ms", thresholdMs);
        r.put("cells", cells);
        r.put("sections", sections);
        r.put("jfr_unattributed", parks == null ? -1 : parks[Section.values().length][0]);
        return r;
    }

    /** Waits in buckets whose lower bound is at or above {@code ns} (statvar's buckets: within its 0.78 %). */
    static long atOrAbove(HistogramValue w, long ns) {
        long n = 0;
        for (HistogramValue.Bucket b : w.buckets()) {
            if (b.lowerBound() >= ns) {
                n += b.count();
            }
        }
        return n;
    }
}
