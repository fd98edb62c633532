package dev.statvar.lab.stores;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.MachineFacts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The store study's report, made from its JSON alone ({@link StoresData}), so that
 * {@code --report DIR} prints the same: the ns-per-store table with each loop's barriers and
 * their check, the store each barrier follows, statvar's out-of-line calls, the reordering
 * example beside the article's, Jean-Philippe Bempel's claims ("Volatile and memory barriers", 2015), and the flags. Writes {@code stores.csv} (every
 * run) and {@code stores.json}; {@code stores-listings.txt} (the annotated code) is written once,
 * by {@link #writeListings}.
 */
final class StoresReport {
    static final String JSON = "stores.json";
    static final String CSV = "stores.csv";
    static final String LISTINGS = "stores-listings.txt";

    private StoresReport() {
    }

    /** Writes the JSON and CSV of {@code tree} into {@code dir} and prints the report; the exit code (1 when flagged). */
    static int write(Map<String, Object> tree, Path dir, PrintStream out) throws IOException {
        Json.write(dir.resolve(JSON), tree);
        return again(dir, out);
    }

    /** Prints the report of {@code dir/stores.json} and writes its CSV again; the exit code (1 when flagged). */
    static int again(Path dir, PrintStream out) throws IOException {
        JsonNode root = Json.read(dir.resolve(JSON));
        writeCsv(root, dir.resolve(CSV));
        print(root, out);
        out.printf("%nwritten: %s, %s%s%n", dir.resolve(JSON), dir.resolve(CSV),
                Files.exists(dir.resolve(LISTINGS)) ? ", " + dir.resolve(LISTINGS) : "");
        return root.path("flags").isEmpty() ? 0 : 1;
    }

    static void print(JsonNode root, PrintStream out) {
        JsonNode m = root.path("machine");
        StoresData.Protocol p = Json.convert(root.path("protocol"), StoresData.Protocol.class);
        Json.convert(m, MachineFacts.class).print(out);
        out.printf(Locale.ROOT, "protocol: one JVM per kind; per cell %d warm-up + %d measured runs of %d ms, calls of %,d stores;"
                        + " the median run shown (lowest .. highest); 2 threads: another thread spins on getOpaque of the field%n",
                p.warmups(), p.repeats(), p.runMs(), p.storesPerCall());
        out.printf("disassembler: %s%n", root.path("disassembler").asText());
        out.printf("load average: %s%n%n", root.path("load_average").asText("not recorded"));
        out.printf(Locale.ROOT, "%-40s %-10s %3s %9s %21s  %-34s %s%n", "kind", "loop", "thr", "ns/store", "lowest .. highest",
                "barriers in the loop's code", "check (volatile, getAndSet, fence: one expected; others: none)");
        for (JsonNode c : root.path("cells")) {
            out.printf(Locale.ROOT, "%-40s %-10s %3d %9.2f %9.2f .. %9.2f  %-34s %s%n", c.path("label").asText(), c.path("loop").asText(),
                    c.path("threads").asInt(), c.path("ns_per_store").asDouble(), c.path("ns_min").asDouble(), c.path("ns_max").asDouble(),
                    c.path("barriers").isNull() ? "-" : c.path("barriers").asText(), c.path("check").asText());
        }
        out.printf("%nThe store each first barrier follows, and calls not inlined (their code is not in the loop's listing):%n");
        for (JsonNode l : root.path("listings")) {
            String calls = l.path("calls_not_inlined").isEmpty() ? "" : "; calls " + join(l.path("calls_not_inlined"));
            String before = l.path("before_first_barrier").isNull() ? "" : "; before the barrier: " + l.path("before_first_barrier").asText();
            out.printf(Locale.ROOT, "  %-32s %-26s %d instructions, barriers: %s%s%s%n", l.path("method").asText(), "(" + l.path("where").asText() + ")",
                    l.path("instructions").asInt(), l.path("barriers").asText(), before.replace('\t', ' ').replaceAll(" +", " "), calls);
        }
        JsonNode r = root.path("reorder");
        if (r.has("plain")) {
            out.printf("%nBempel's reordering example, the stores in the order of the JIT's code (read from the values: field<k> = i << k):%n");
            out.printf("  six plain fields      here: %s%n                        article: %s%n", r.path("plain").asText(), ArticleClaims.ARTICLE_PLAIN);
            out.printf("  field1, field6 volatile here: %s%n                        article: %s%n", r.path("volatiles").asText(), ArticleClaims.ARTICLE_VOLATILES);
        }
        out.printf("%nBempel's claims on this machine:%n");
        for (JsonNode v : root.path("verdicts")) {
            out.printf("  [%s] %s%n      article: %s%n      here: %s%n", v.path("verdict").asText(), v.path("claim").asText(),
                    ArticleClaims.article(v), v.path("here").asText());
        }
        if (root.path("flags").isEmpty()) {
            out.printf("%nflags: none (every loop's code has the barriers its kind must have, and no others)%n");
        } else {
            out.printf("%nFLAGGED (exit code 1):%n");
            root.path("flags").forEach(f -> out.printf("  %s%n", f.asText()));
        }
    }

    private static String join(JsonNode a) {
        List<String> s = new ArrayList<>();
        a.forEach(x -> s.add(x.asText()));
        return String.join(", ", s);
    }

    private static void writeCsv(JsonNode root, Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("kind,loop,threads,run,ns_per_store,stores");
        for (JsonNode r : root.path("runs")) {
            lines.add(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%d", r.path("kind").asText(), r.path("loop").asText(),
                    r.path("threads").asInt(), r.path("run").asInt(), r.path("ns_per_store").asText(), r.path("stores").asLong()));
        }
        Files.write(file, lines);
    }

    /** {@code stores-listings.txt}: every method's annotated code, with the disassembler and the annotations' caveat. */
    static void writeListings(Listings.Result listings, Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        out.add("The JIT's code of the store study's loops and of Bempel's assign (last C2 compilation of each method).");
        out.add("disassembler: " + listings.disassembler());
        out.add("'<-' notes are added by the lab from the instruction's shape (dev.statvar.lab.stores.Annotator): heuristics,"
                + " not HotSpot's word. Lines starting 0x...: ; are HotSpot's own comments, printed at the 4-byte group they name.");
        for (Listings.Method m : listings.methods().values()) {
            out.add("");
            out.add("==== " + m.name() + " (" + m.where() + "), barriers: " + (m.barriers() == null ? "-" : Barriers.summary(m.barriers()))
                    + (m.calls().isEmpty() ? "" : ", calls not inlined: " + String.join(", ", m.calls())));
            out.addAll(m.lines());
        }
        Files.write(dir.resolve(LISTINGS), out);
    }

    /** For tests: the tree as JSON nodes. */
    static JsonNode node(Map<String, Object> tree) {
        return Json.tree(tree);
    }
}
