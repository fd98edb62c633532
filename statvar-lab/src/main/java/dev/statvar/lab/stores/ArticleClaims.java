package dev.statvar.lab.stores;

import dev.statvar.lab.kit.Verdict;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Jean-Philippe Bempel's claims ("Volatile and memory barriers", 2015) classified from this run's cells, listings
 * and store orders: {@code confirmed}, {@code refuted}, or {@code not checked} (no disassembly, or
 * the kind was not run), each with what the article showed and what this machine shows.
 */
final class ArticleClaims {
    /** The article's store order of the plain assign (its text: field5, field6, field1, field2, field3, then field4). */
    static final String ARTICLE_PLAIN = "field5, field6, field1, field2, field3, field4";
    /** The article's order with field1 and field6 volatile (field4's and field6's stores are unlabelled there; read from the offsets). */
    static final String ARTICLE_VOLATILES = "field1, field5, field2, field3, field4, field6, lock add";
    /** A volatile store counts as dearer than a release store when its median is at least this many times the release's. */
    static final double DEARER = 1.5;

    private ArticleClaims() {
    }

    static List<Map<String, Object>> of(List<Map<String, Object>> cells, Listings.Result listings, Map<String, Object> reorder) {
        List<Map<String, Object>> out = new ArrayList<>();
        String vol = barriers(listings, "storeVolatile");
        out.add(claim("a volatile store is followed by lock add [esp],0x0, a full barrier like mfence", "lock add DWORD PTR [esp],0x0 (32-bit JDK 8)",
                vol == null ? "no listing" : "storeVolatile's code: " + vol,
                vol == null ? NOT_CHECKED : vol.contains("lock add") ? "" + Verdict.CONFIRMED : vol.equals("none") ? "" + Verdict.REFUTED : Verdict.CONFIRMED + " (by another barrier than the article's)"));
        String rel = barriers(listings, "storeRelease");
        out.add(claim("lazySet (putOrderedInt; setRelease now) emits no memory barrier", "no mfence, no lock add",
                rel == null ? "no listing" : "storeRelease's code: " + rel,
                rel == null ? NOT_CHECKED : rel.equals("none") ? "" + Verdict.CONFIRMED : "" + Verdict.REFUTED));
        Object plain = reorder.get("plain");
        out.add(claim("the JIT reorders plain stores: assign's six stores are not in source order", ARTICLE_PLAIN,
                plain == null ? "no listing" : plain.toString(),
                plain == null || plain.toString().contains("?") ? NOT_CHECKED
                        : plain.toString().startsWith("field1, field2, field3, field4, field5, field6") ? "" + Verdict.REFUTED : "" + Verdict.CONFIRMED));
        Object vols = reorder.get("volatiles");
        String v = vols == null ? null : vols.toString();
        List<String> stores = v == null ? List.of() : List.of(v.split(", ")).stream().filter(s -> s.startsWith("field")).toList();
        boolean shape = v != null && !stores.isEmpty() && stores.get(0).equals("field1") && stores.get(stores.size() - 1).equals("field6")
                && v.endsWith("field6, lock addl");
        out.add(claim("with field1 and field6 volatile, field1 is stored first and field6 last (one lock add after it), the plain stores"
                        + " between in any order", ARTICLE_VOLATILES, v == null ? "no listing" : v,
                v == null || v.contains("?") ? NOT_CHECKED : shape ? "" + Verdict.CONFIRMED : "" + Verdict.REFUTED));
        Double volNs = ns(cells, "VOLATILE");
        Double relNs = ns(cells, "RELEASE");
        out.add(claim("the barrier costs latency (the store buffer drains): a volatile store is dearer than a lazySet",
                "stated, not measured", volNs == null || relNs == null ? "not run"
                        : String.format(Locale.ROOT, "store loop, 1 thread: volatile %.2f ns, release %.2f ns per store (%.1fx)", volNs, relNs, volNs / relNs),
                volNs == null || relNs == null ? NOT_CHECKED : volNs >= DEARER * relNs ? "" + Verdict.CONFIRMED : "" + Verdict.REFUTED));
        List<String> statvar = new ArrayList<>();
        boolean anyLock = false;
        boolean all = listings != null;
        for (String m : List.of("counterAdd", "gaugeReport", "histogramRecord")) {
            String b = barriers(listings, m);
            all &= b != null;
            anyLock |= b != null && !b.equals("none");
            statvar.add(m + ": " + (b == null ? "no listing" : b));
        }
        out.add(claim("statvar (not the article): no locked instruction on the update path of Counter.add, Gauge.report, Histogram.record",
                "README: a plain read and an opaque store", String.join("; ", statvar),
                !all ? NOT_CHECKED : anyLock ? "" + Verdict.REFUTED : "" + Verdict.CONFIRMED));
        return out;
    }

    /** What the article showed, from a claim as {@link #of} writes it (or as runs before the field's rename wrote it: "seed"). */
    static String article(JsonNode claim) {
        return (claim.has("article") ? claim.path("article") : claim.path("seed")).asText();
    }

    /** A claim this run could not decide: its data lacks the listing or kind the claim needs. */
    private static final String NOT_CHECKED = Verdict.NOT_TESTABLE + " (this run lacks the listing or kind it needs)";

    private static Map<String, Object> claim(String claim, String article, String here, String verdict) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("claim", claim);
        m.put("article", article);
        m.put("here", here);
        m.put("verdict", verdict);
        return m;
    }

    private static String barriers(Listings.Result listings, String method) {
        if (listings == null) {
            return null;
        }
        Listings.Method m = listings.methods().get(Listings.LOOPS + "::" + method);
        return m == null || m.barriers() == null ? null : Barriers.summary(m.barriers());
    }

    private static Double ns(List<Map<String, Object>> cells, String kind) {
        for (Map<String, Object> c : cells) {
            if (kind.equals(c.get("kind")) && "store".equals(c.get("loop")) && Integer.valueOf(1).equals(c.get("threads"))) {
                return (Double) c.get("ns_per_store");
            }
        }
        return null;
    }
}
