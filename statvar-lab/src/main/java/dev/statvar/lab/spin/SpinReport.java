package dev.statvar.lab.spin;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.statvar.lab.kit.CpuStalls;
import dev.statvar.lab.kit.JitCode;
import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.LogChart;
import dev.statvar.lab.kit.MachineFacts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spin study's report: per work size a table of every design x thread count (the run of median
 * episodes/s of each cell), the Thread.yield probe, the JIT's plain spin loop, and the claims of Cliff Click's
 * "A Pair of (somebody else's) Concurrency Bugs" classified from the data; {@code spin.csv} (every run), {@code spin.json}, one chart per
 * work size ({@code spin-work-<n>.png}) and {@code spin-plain-loop.txt}.
 */
final class SpinReport {
    private SpinReport() {
    }

    /** What ran, on what: the JSON's {@code info} (the machine's facts flat, then the protocol, keys as the study always wrote them; {@link Json}'s binding). */
    record Info(@JsonUnwrapped MachineFacts machine, List<Integer> threads, List<Integer> work, int repeats, long warmMs, long measureMs,
                long hangMs, String kernel) {
        int cores() {
            return machine.cores();
        }

        /** The machine's header lines, the OS and kernel on the first (its scheduler decides who runs when threads outnumber CPUs). */
        String machineLine() {
            return machine.header(String.format(Locale.ROOT, "; %s kernel %s (its scheduler decides who runs when threads"
                    + " outnumber CPUs)", System.getProperty("os.name"), kernel == null ? "(not recorded)" : kernel));
        }

        String protocolLine() {
            return String.format(Locale.ROOT, "protocol: threads %s, work %s elements per episode, %d run(s) per cell of"
                    + " %d ms warm-up + %d ms measured, HUNG after %d ms without an episode; one JVM per design", threads,
                    work, repeats, warmMs, measureMs, hangMs);
        }
    }

    /**
     * The Thread.yield probe: ns per call alone, and the worker's share beside spinners, yielders,
     * parked threads: per case {@code {0, median share, median yield calls, lowest share, highest share}}.
     */
    record Yield(String where, double nsPerCall, long calls, Map<String, double[]> shares) {
        static Yield parse(List<String> lines, String where) {
            double ns = Double.NaN;
            long calls = 0;
            Map<String, double[]> shares = new LinkedHashMap<>();
            for (String l : lines) {
                String[] p = l.split(" ");
                if (p[0].equals("YIELD_COST")) {
                    ns = Double.parseDouble(p[1]);
                    calls = Long.parseLong(p[2]);
                } else if (p[0].equals("SHARE")) { // kind k 0 share yields min max
                    shares.put(p[1] + " x" + p[2], new double[] {Double.parseDouble(p[3]), Double.parseDouble(p[4]),
                            Double.parseDouble(p[5]), Double.parseDouble(p[6]), Double.parseDouble(p[7])});
                }
            }
            return new Yield(where, ns, calls, shares);
        }
    }

    /**
     * One child JVM: its design, how many cells it reported, how it ended, what kept the machine's threads
     * off a CPU meanwhile ({@link CpuStalls}, read around it by the lab's JVM), and, for PLAIN_LOCAL, the
     * JIT's compilations and deoptimisations of the barrier ({@code <threads> <work> <run> +<ms> <event>}).
     */
    record Jvm(String design, int cells, String ended, CpuStalls.Window stalls, List<String> jit) {
    }

    /** A cell's reported run: the one of median episodes/s, or a hung one; and how many of its runs hung. */
    record Cell(SpinResult shown, int runs, int hungRuns) {
    }

    static Map<String, Cell> cells(List<SpinResult> results) {
        Map<String, List<SpinResult>> byKey = new LinkedHashMap<>();
        for (SpinResult r : results) {
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r);
        }
        Map<String, Cell> cells = new LinkedHashMap<>();
        byKey.forEach((k, rs) -> {
            List<SpinResult> ok = rs.stream().filter(r -> !r.hung()).sorted(Comparator.comparingDouble(SpinResult::episodesPerSecond)).toList();
            int hung = rs.size() - ok.size();
            SpinResult shown = hung > 0 ? rs.stream().filter(SpinResult::hung).findFirst().orElseThrow() : ok.get((ok.size() - 1) / 2);
            cells.put(k, new Cell(shown, rs.size(), hung));
        });
        return cells;
    }

    static void write(Info info, List<SpinResult> results, Yield yield, JitCode.Code asm, List<String> compilations, List<Jvm> jvms,
                      Path dir, PrintStream out) throws IOException {
        Map<String, Cell> cells = cells(results);
        int cores = info.cores();
        List<String> verdicts = Verdicts.of(info, cells, yield, asm, compilations);
        for (int w : info.work()) {
            out.printf(Locale.ROOT, "%n== work between barriers: %s ==%n", w == 0 ? "none" : w + " elements per episode (all threads)");
            out.printf(Locale.ROOT, "%-15s %4s %11s %10s %27s %7s %8s %17s %17s  %s%n", "design", "thr", "episodes/s",
                    "us/episode", "wait us p50 / p99 / max", "/best", "/@cores", "CPU us/ep usr sys", "ctxsw/ep vol invol", "status (other load: what other processes took of the CPUs)");
            for (BarrierDesign d : BarrierDesign.values()) {
                for (int t : info.threads()) {
                    Cell c = cells.get(d + ":" + t + ":" + w);
                    if (c == null) {
                        continue;
                    }
                    SpinResult r = c.shown();
                    if (r.hung()) {
                        out.printf(Locale.ROOT, "%-15s %4d %11s %10s %27s %7s %8s %17s %17s  HUNG (%d of %d runs): %s%n",
                                d, t, "-", "-", "-", "-", "-", "-", "-", c.hungRuns(), c.runs(), r.why());
                        continue;
                    }
                    out.printf(Locale.ROOT, "%-15s %4d %11.0f %10.2f %8.1f / %7.1f / %8.1f %7.2f %8s %8.1f %8.1f %8.2f %8.2f  ok, other load %2.0f %%%s%s%n",
                            d, t, r.episodesPerSecond(), r.usPerEpisode(), r.p50() / 1e3, r.p99() / 1e3, r.max() / 1e3,
                            r.usPerEpisode() / best(cells, t, w), ratio(atCores(cells, d, cores, w), r),
                            r.perEpisode(r.userNs()) / 1e3, r.perEpisode(r.sysNs()) / 1e3, r.perEpisode(r.voluntary()),
                            r.perEpisode(r.involuntary()), 100 * r.otherLoad(),
                            r.redone() > 0 ? " (made " + r.redone() + "x again for it)" : "", t == 2 * cores && d.spinsOnly() && w > 0
                                    ? "   article (32 threads, 16 CPUs): 2-10x its time at threads = CPUs" : "");
                }
            }
        }
        if (yield != null) {
            out.printf(Locale.ROOT, "%n== Thread.yield (%s) ==%n", yield.where());
            out.printf(Locale.ROOT, "one call with nothing else runnable: %.0f ns (%,d calls)%n", yield.nsPerCall(), yield.calls());
            out.println("a worker's work done beside other threads, as a fraction of its work alone:");
            out.printf(Locale.ROOT, "  (the median of %d rounds, each case against the worker alone in its round; lowest .. highest;"
                    + " NONE: the worker alone against the first round)%n", YieldProbe.ROUNDS);
            yield.shares().forEach((k, v) -> out.printf(Locale.ROOT, "  beside %-8s %6.3f  (%5.3f .. %5.3f)   (yield calls: %,.0f)%n",
                    k, v[1], v.length > 3 ? v[3] : Double.NaN, v.length > 4 ? v[4] : Double.NaN, v[2]));
        }
        List<String> loop = List.of();
        if (asm != null) {
            Files.write(dir.resolve("spin-plain-loop.txt"), asm.lines());
            loop = innermostLoop(asm.lines());
            out.printf(Locale.ROOT, "%n== the JIT's plain spin loop: %s ==%n", asm.where());
            if (loop.isEmpty()) {
                out.println(asm.lines().size() == 1 ? asm.lines().get(0) : "(no backward jump found; the whole code is in spin-plain-loop.txt)");
            } else {
                out.println("its innermost loop (the shortest backward jump; all of it in spin-plain-loop.txt):");
                loop.forEach(l -> out.println("  " + l.strip()));
            }
        }
        if (compilations != null) {
            out.printf(Locale.ROOT, "%n== the JIT's compilations of the plain spin loop (-XX:+PrintCompilation; 2 threads, no work) ==%n");
            out.println("time ms, compile id, % = on-stack replacement, tier (3: C1 with profiling, 4: C2, 1: C1 without), method @ loop bci:");
            compilations = compilations.stream().filter(l -> l.contains("::waitFor")).toList(); // nothing the JVM printed between
            compilations.forEach(l -> out.println("  " + l));
        }
        if (!jvms.isEmpty()) {
            out.printf(Locale.ROOT, "%n== around each JVM (whole machine; the cells it ran in order) ==%n");
            for (Jvm j : jvms) {
                out.printf(Locale.ROOT, "%-15s %3d cells, %s: %s%n", j.design(), j.cells(), j.ended(), j.stalls().line());
                j.jit().forEach(l -> out.println("    JIT, cell " + l));
            }
        }
        out.printf(Locale.ROOT, "%n== Click's claims ==%n");
        verdicts.forEach(v -> out.println("- " + v));
        writeCsv(results, dir.resolve("spin.csv"));
        writeJson(info, cells, results, yield, asm, loop, compilations, jvms, verdicts, dir.resolve("spin.json"));
        for (int w : info.work()) {
            Map<String, double[]> series = new LinkedHashMap<>();
            for (BarrierDesign d : BarrierDesign.values()) {
                double[] y = new double[info.threads().size()];
                boolean any = false;
                for (int i = 0; i < y.length; i++) {
                    Cell c = cells.get(d + ":" + info.threads().get(i) + ":" + w);
                    y[i] = c == null || c.shown().hung() ? Double.NaN : c.shown().usPerEpisode();
                    any |= !Double.isNaN(y[i]);
                }
                if (any) {
                    series.put(d.name(), y);
                }
            }
            LogChart.write(dir.resolve("spin-work-" + w + ".png"), "Click's barrier, work " + w + " per episode; "
                    + info.machine().cpu() + ", JDK " + info.machine().jdk(), "threads", "wall time per episode (us, log)", info.threads(), series, out);
        }
        out.printf(Locale.ROOT, "%nwrote %s (spin.csv, spin.json, charts)%n", dir);
    }

    /** The report of the run in {@code dir} again, from its {@code spin.json} (and {@code spin-plain-loop.txt}). */
    static void again(Path dir, PrintStream out) throws IOException {
        JsonNode root = Json.read(dir.resolve("spin.json"));
        Info info = Json.convert(root.get("info"), Info.class);
        List<SpinResult> results = new ArrayList<>();
        for (JsonNode r : root.get("runs")) {
            results.add(Json.convert(r, SpinResult.class));
        }
        Yield yield = root.has("yield") ? Json.convert(root.get("yield"), Yield.class) : null;
        Path loop = dir.resolve("spin-plain-loop.txt");
        JitCode.Code asm = root.has("plain_loop_where") && Files.exists(loop)
                ? new JitCode.Code(root.get("plain_loop_where").asText(), Files.readAllLines(loop)) : null;
        List<String> compilations = null;
        if (root.has("plain_compilations")) {
            compilations = new ArrayList<>();
            for (JsonNode l : root.get("plain_compilations")) {
                compilations.add(l.asText());
            }
        }
        List<Jvm> jvms = new ArrayList<>();
        for (JsonNode j : root.path("jvms")) { // absent from runs made before it was kept
            jvms.add(Json.convert(j, Jvm.class));
        }
        out.println(info.machineLine());
        out.println(info.protocolLine());
        write(info, results, yield, asm, compilations, jvms, dir, out);
    }

    static double best(Map<String, Cell> cells, int t, int w) {
        double best = Double.POSITIVE_INFINITY;
        for (BarrierDesign d : BarrierDesign.values()) {
            Cell c = cells.get(d + ":" + t + ":" + w);
            if (c != null && !c.shown().hung()) {
                best = Math.min(best, c.shown().usPerEpisode());
            }
        }
        return best;
    }

    static SpinResult atCores(Map<String, Cell> cells, BarrierDesign d, int cores, int w) {
        Cell c = cells.get(d + ":" + cores + ":" + w);
        return c == null || c.shown().hung() ? null : c.shown();
    }

    private static String ratio(SpinResult base, SpinResult r) {
        return base == null ? "-" : String.format(Locale.ROOT, "%.2f", r.usPerEpisode() / base.usPerEpisode());
    }

    private static final Pattern INSN = Pattern.compile("^\\s*([0-9a-f]+):\\s+(j[a-z]+)\\s+0x([0-9a-f]+)");

    /** The instructions of the shortest backward jump in objdump-decoded code: the innermost loop. */
    static List<String> innermostLoop(List<String> code) {
        int bestFrom = -1;
        int bestTo = -1;
        long bestLen = Long.MAX_VALUE;
        for (int i = 0; i < code.size(); i++) {
            Matcher m = INSN.matcher(code.get(i));
            if (!m.find()) {
                continue;
            }
            long at = Long.parseUnsignedLong(m.group(1), 16);
            long target = Long.parseUnsignedLong(m.group(3), 16);
            if (target <= at && at - target < bestLen) {
                for (int j = i; j >= 0; j--) {
                    if (code.get(j).matches("^\\s*" + Long.toHexString(target) + ":.*")) {
                        bestLen = at - target;
                        bestFrom = j;
                        bestTo = i;
                        break;
                    }
                }
            }
        }
        return bestFrom < 0 ? List.of() : code.subList(bestFrom, bestTo + 1);
    }

    private static void writeCsv(List<SpinResult> results, Path file) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("design,threads,work,run,status,episodes,nanos,episodes_per_s,us_per_episode,wait_p50_ns,wait_p99_ns,"
                + "wait_max_ns,user_ns,sys_ns,voluntary_ctxsw,involuntary_ctxsw,other_load,redone,why");
        for (SpinResult r : results) {
            lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%s,%d,%d,%.1f,%.3f,%d,%d,%d,%d,%d,%d,%d,%.3f,%d,\"%s\"", r.design(), r.threads(),
                    r.work(), r.run(), r.hung() ? "HUNG" : "ok", r.episodes(), r.nanos(), r.episodesPerSecond(),
                    r.hung() ? Double.NaN : r.usPerEpisode(), r.p50(), r.p99(), r.max(), r.userNs(), r.sysNs(), r.voluntary(),
                    r.involuntary(), r.otherLoad(), r.redone(), r.why().replace("\"", "'")));
        }
        Files.write(file, lines);
    }

    private static void writeJson(Info info, Map<String, Cell> cells, List<SpinResult> results, Yield yield, JitCode.Code asm,
                                  List<String> loop, List<String> compilations, List<Jvm> jvms, List<String> verdicts, Path file)
            throws IOException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("study", "spin");
        root.set("info", Json.tree(info));
        ArrayNode cs = root.putArray("cells"); // the table's cells, then the yield probe's rows (for docs/LAB.md's links)
        cells.forEach((k, c) -> {
            ObjectNode n = cs.addObject();
            SpinResult r = c.shown();
            n.put("design", r.design().name()).put("threads", r.threads()).put("work", r.work())
                    .put("status", r.hung() ? "HUNG" : "ok").put("runs", c.runs()).put("hung_runs", c.hungRuns());
            if (r.hung()) {
                n.put("why", r.why());
            } else {
                SpinResult base = atCores(cells, r.design(), info.cores(), r.work());
                n.put("episodes_per_s", r.episodesPerSecond()).put("us_per_episode", r.usPerEpisode())
                        .put("wait_p50_us", r.p50() / 1e3).put("wait_p99_us", r.p99() / 1e3).put("wait_max_us", r.max() / 1e3)
                        .put("time_over_best", r.usPerEpisode() / best(cells, r.threads(), r.work()))
                        .put("time_over_at_cores", base == null ? null : r.usPerEpisode() / base.usPerEpisode())
                        .put("user_us_per_episode", r.perEpisode(r.userNs()) / 1e3).put("sys_us_per_episode", r.perEpisode(r.sysNs()) / 1e3)
                        .put("voluntary_per_episode", r.perEpisode(r.voluntary())).put("involuntary_per_episode", r.perEpisode(r.involuntary()))
                        .put("other_load", r.otherLoad()).put("redone", r.redone());
            }
        });
        if (yield != null) {
            cs.addObject().put("probe", "yield_cost").put("ns_per_call", yield.nsPerCall()).put("calls", yield.calls());
            yield.shares().forEach((k, v) -> {
                String[] kind = k.split(" x");
                ObjectNode n = cs.addObject().put("probe", "yield").put("beside", kind[0]).put("k", Integer.parseInt(kind[1]))
                        .put("share", v[1]).put("yield_calls", v[2]);
                if (v.length > 4) {
                    n.put("share_min", v[3]).put("share_max", v[4]);
                }
            });
        }
        root.set("runs", Json.tree(results));
        if (yield != null) {
            root.set("yield", Json.tree(yield));
        }
        if (asm != null) {
            root.put("plain_loop_where", asm.where());
            root.set("plain_loop", Json.tree(loop));
        }
        if (compilations != null) {
            root.set("plain_compilations", Json.tree(compilations));
        }
        if (!jvms.isEmpty()) {
            root.set("jvms", Json.tree(jvms));
        }
        root.set("verdicts", Json.tree(verdicts));
        Json.write(file, root);
    }
}
