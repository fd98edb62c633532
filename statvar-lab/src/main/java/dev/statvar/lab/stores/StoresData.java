package dev.statvar.lab.stores;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.statvar.lab.kit.MachineFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The study's results as one tree, written as {@code stores.json} and the only input of the
 * report ({@link StoresReport}) and the document's tables ({@link StoresDoc}): the machine, the
 * protocol, which disassembler read the code, one cell per kind x loop x threads (the median ns
 * per store and the barriers in that loop's code, checked against what the kind must show), every
 * run, each method's barriers and out-of-line calls, the reordering example's store orders, Bempel's
 * claims ({@link ArticleClaims}) and the flags raised.
 */
final class StoresData {
    private StoresData() {
    }

    /** The protocol: what ran how often for how long; the JSON's {@code protocol} ({@link dev.statvar.lab.kit.Json}'s binding). */
    record Protocol(List<StoreKind> kinds, int warmups, int repeats, @JsonProperty("run_ms") long runMs,
                    @JsonProperty("stores_per_call") int storesPerCall, boolean quick) {
        /** A run's protocol: {@link StoreRunner#CHUNK} stores per call. */
        Protocol(List<StoreKind> kinds, int warmups, int repeats, long runMs, boolean quick) {
            this(kinds, warmups, repeats, runMs, StoreRunner.CHUNK, quick);
        }
    }

    static Map<String, Object> tree(MachineFacts machine, Protocol protocol, List<StoreRun> runs, Listings.Result listings) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "stores");
        root.put("machine", machine);
        root.put("protocol", protocol);
        root.put("disassembler", listings == null ? "not run (--no-asm)" : listings.disassembler());
        List<Map<String, Object>> cells = new ArrayList<>();
        List<String> flags = new ArrayList<>();
        Map<String, List<StoreRun>> byKey = new LinkedHashMap<>();
        for (StoreRun r : runs) {
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        for (List<StoreRun> rs : byKey.values()) {
            StoreRun first = rs.get(0);
            List<StoreRun> sorted = rs.stream().sorted(Comparator.comparingDouble(StoreRun::nsPerStore)).toList();
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("kind", first.kind().name());
            c.put("label", first.kind().label);
            c.put("loop", first.loop());
            c.put("threads", first.threads());
            c.put("ns_per_store", round(sorted.get((sorted.size() - 1) / 2).nsPerStore()));
            c.put("ns_min", round(sorted.get(0).nsPerStore()));
            c.put("ns_max", round(sorted.get(sorted.size() - 1).nsPerStore()));
            c.put("runs", rs.size());
            String method = first.kind().method(first.loop());
            c.put("method", method);
            c.put("barrier_expected", first.kind().barrier);
            Listings.Method m = listings == null ? null : listings.methods().get(Listings.LOOPS + "::" + method);
            if (m == null || m.barriers() == null) {
                c.put("barriers", null);
                c.put("check", "not checked");
            } else {
                boolean found = !m.barriers().isEmpty();
                c.put("barriers", Barriers.summary(m.barriers()));
                c.put("check", found == first.kind().barrier ? "ok" : "FLAG");
                if (found != first.kind().barrier) {
                    flags.add(String.format("%s %s loop (%s): %s in its code, %s expected", first.kind(), first.loop(), method,
                            Barriers.summary(m.barriers()), first.kind().barrier ? "a barrier" : "none"));
                }
            }
            cells.add(c);
        }
        root.put("cells", cells);
        List<Map<String, Object>> all = new ArrayList<>();
        for (StoreRun r : runs) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", r.kind().name());
            m.put("loop", r.loop());
            m.put("threads", r.threads());
            m.put("run", r.run());
            m.put("ns_per_store", round(r.nsPerStore()));
            m.put("stores", r.stores());
            all.add(m);
        }
        root.put("runs", all);
        root.put("listings", listings == null ? List.of() : methods(listings));
        Map<String, Object> reorder = new LinkedHashMap<>();
        if (listings != null) {
            reorder.put("plain", order(listings, Listings.PLAIN_ASSIGN));
            reorder.put("volatiles", order(listings, Listings.VOLATILE_ASSIGN));
        }
        root.put("reorder", reorder);
        root.put("verdicts", ArticleClaims.of(cells, listings, reorder));
        root.put("flags", flags);
        return root;
    }

    private static String order(Listings.Result listings, String method) {
        Listings.Method m = listings.methods().get(method);
        return m == null || m.barriers() == null ? null : StoreOrder.line(StoreOrder.order(m.raw()));
    }

    private static List<Map<String, Object>> methods(Listings.Result listings) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Listings.Method m : listings.methods().values()) {
            Map<String, Object> j = new LinkedHashMap<>();
            j.put("method", m.name().substring(m.name().lastIndexOf('.') + 1));
            j.put("where", m.where());
            j.put("barriers", m.barriers() == null ? null : Barriers.summary(m.barriers()));
            j.put("barrier_lines", m.barriers() == null ? List.of() : m.barriers().stream().map(Barriers.Found::line).toList());
            j.put("before_first_barrier", beforeFirstBarrier(m));
            j.put("calls_not_inlined", m.calls());
            j.put("instructions", m.raw().stream().filter(l -> Annotator.insn(l) != null && !"hlt".equals(Annotator.insn(l))).count());
            out.add(j);
        }
        return out;
    }

    /** The instruction right before the first barrier (for a volatile store: the store it follows), or null. */
    private static String beforeFirstBarrier(Listings.Method m) {
        String prev = null;
        for (String l : m.raw()) {
            String in = Annotator.insn(l);
            if (in == null) {
                continue;
            }
            if (Barriers.barrier(in) != null) {
                return prev;
            }
            prev = l.strip();
        }
        return null;
    }

    static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
