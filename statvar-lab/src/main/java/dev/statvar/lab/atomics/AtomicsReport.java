package dev.statvar.lab.atomics;

import dev.statvar.lab.kit.Json;
import dev.statvar.lab.kit.MachineFacts;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
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
import java.util.stream.Collectors;

/** The atomics study's output: console tables, atomics.csv, atomics.json, charts, assembly. */
final class AtomicsReport {
    /** The figures of Martin Thompson's two articles, printed beside the results. */
    static final String ARTICLE_FIGURES = "\"Adventures with AtomicLong\" (2011): at 3+ threads LOCK XADD levels out at ~100 M ops/s"
            + " (~10 ns/op) on Nehalem and ~20 M ops/s (~50 ns/op) on Sandy Bridge; CAS keeps degrading with threads."
            + " \"Further Adventures With CAS Instructions\" (2013): 1 thread, XADD, both CPUs at ~3.4 GHz: \"ns per op = 3\", but its program divides by"
            + " 2 x COUNT: per increment that is 6.2 ns (3.09 s for 500 M; its perf stat: 10.5 G cycles, 21 per"
            + " increment); and the contended difference is fairness: Sandy Bridge hands the cache line to another"
            + " core sooner.";

    static final String RUN_LENGTH_MEANS = "mean run: consecutive counter values obtained by the same thread."
            + " A run of L means one core kept the counter's cache line (exclusive) for L increments before another"
            + " core took it: long runs = the line stays put (fast, unfair), runs near 1 = the line crosses cores on"
            + " every increment (fair, each increment pays a transfer). Oversubscribed, runs are as long as a"
            + " time slice. fairness: Jain's index of the threads' shares, 1 = equal, 1/N = one thread did all"
            + " (LOCK_ADD: equal shares by construction, and no value to sample).";

    private AtomicsReport() {
    }

    /** What the study ran on and how. */
    record Info(MachineFacts machine, long count, List<Integer> delays, List<Integer> threads, List<AtomicCase> cases,
                int warmups, int repeats, String nativeNote) {
        static Info of(long count, List<Integer> delays, List<Integer> threads, List<AtomicCase> cases, int warmups,
                       int repeats, String nativeNote) {
            return new Info(MachineFacts.here(), count, delays, threads, cases, warmups, repeats, nativeNote);
        }

        int cores() {
            return machine.cores();
        }

        String protocolLine() {
            StringBuilder counts = new StringBuilder();
            for (int d : delays) {
                counts.append(counts.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "delay %d: %,d", d,
                        AtomicsStudy.countAt(count, d)));
            }
            return String.format(Locale.ROOT, "protocol: a fresh JVM per case; per cell %d warm-up run(s), then %d"
                    + " measured runs, the one of median duration reported (min..max beside it); increments per run: %s;"
                    + " ns/op = wall time / all increments", warmups, repeats, counts);
        }
    }

    /** One cell: the run of median duration of its repeats, and the spread. */
    record Row(RunResult median, double nsMin, double nsMax, int runs, int redone) {
    }

    static List<Row> rows(List<RunResult> results) {
        Map<String, List<RunResult>> byCell = new LinkedHashMap<>();
        for (RunResult r : results) {
            byCell.computeIfAbsent(r.atomicCase() + "/" + r.impl() + "/" + r.delay() + "/" + r.threads(), k -> new ArrayList<>()).add(r);
        }
        List<Row> rows = new ArrayList<>();
        for (List<RunResult> rs : byCell.values()) {
            List<RunResult> sorted = rs.stream().sorted(Comparator.comparingDouble(RunResult::nsPerOp)).toList();
            rows.add(new Row(sorted.get((sorted.size() - 1) / 2), sorted.get(0).nsPerOp(),
                    sorted.get(sorted.size() - 1).nsPerOp(), sorted.size(), rs.stream().mapToInt(RunResult::redone).sum()));
        }
        rows.sort(Comparator.comparingInt((Row r) -> r.median().delay()).thenComparing(r -> r.median().atomicCase())
                .thenComparing(r -> r.median().impl()).thenComparingInt(r -> r.median().threads()));
        return rows;
    }

    static Row find(List<Row> rows, AtomicCase c, String impl, int delay, int threads) {
        for (Row r : rows) {
            RunResult m = r.median();
            if (m.atomicCase() == c && m.impl().equals(impl) && m.delay() == delay && m.threads() == threads) {
                return r;
            }
        }
        return null;
    }

    static void write(Info info, List<RunResult> results, Map<AtomicCase, Map<String, Disassembly.Code>> asm,
                      String asmNote, Path dir, PrintStream out) throws IOException {
        List<Row> rows = rows(results);
        List<String> impls = results.stream().map(RunResult::impl).distinct().toList();
        out.println();
        out.println(ARTICLE_FIGURES);
        for (int d : info.delays()) {
            out.printf(Locale.ROOT, "%n== delay factor %d (%,d increments per run) ==%n", d, AtomicsStudy.countAt(info.count(), d));
            out.printf("%-12s %-6s %7s %8s %9s %17s %9s %8s %9s %9s %6s  %s%n", "case", "impl", "threads", "ms", "ns/op",
                    "(min..max)", "M ops/s", "fairness", "mean run", "fails/op", "redone", "shares");
            for (Row r : rows) {
                RunResult m = r.median();
                if (m.delay() != d) {
                    continue;
                }
                String over = m.threads() > info.cores() ? "*" : " ";
                out.printf(Locale.ROOT, "%-12s %-6s %6d%s %8.1f %9.2f %17s %9.1f %8.3f %9s %9s %6d  %s%n", m.atomicCase(), m.impl(),
                        m.threads(), over, m.durationNs() / 1e6, m.nsPerOp(), String.format(Locale.ROOT, "(%.2f..%.2f)", r.nsMin(), r.nsMax()),
                        m.opsPerSec() / 1e6, m.fairness(), Double.isNaN(m.meanRun()) ? "-" : String.format(Locale.ROOT, "%.1f", m.meanRun()),
                        m.atomicCase().retries(m.impl()) ? String.format(Locale.ROOT, "%.3f", m.failuresPerSuccess()) : "-",
                        r.redone(), shares(m.shares()));
            }
        }
        out.printf("%n* oversubscribed: more threads than cores (ns/op is still wall time / all increments, i.e. throughput)%n");
        out.println(RUN_LENGTH_MEANS);
        out.println("redone: runs made again because a probe right after them (every thread doing the same"
                + " unshared work) ran > 1.25x slower than on one thread: the host slowed the vCPUs down."
                + " Only threads that fit the cores are probed.");

        // the contention effect against the work between increments
        int top = info.threads().stream().filter(t -> t <= info.cores()).max(Integer::compare).orElse(1);
        if (top > 1 && info.threads().contains(1)) {
            out.printf(Locale.ROOT, "%nspeed-up at %d threads (throughput / one thread's; %d = perfect scaling, < 1 = contention"
                    + " costs more than the extra cores bring):%n", top, top);
            out.printf("%-12s %-6s", "case", "impl");
            for (int d : info.delays()) {
                out.printf(" %10s", "delay " + d);
            }
            out.println();
            for (AtomicCase c : info.cases()) {
                for (String impl : impls) {
                    out.printf("%-12s %-6s", c, impl);
                    for (int d : info.delays()) {
                        Row one = find(rows, c, impl, d, 1);
                        Row n = find(rows, c, impl, d, top);
                        out.printf(Locale.ROOT, " %10s", one == null || n == null ? "-"
                                : String.format(Locale.ROOT, "%.2f", n.median().opsPerSec() / one.median().opsPerSec()));
                    }
                    out.println();
                }
            }
        }

        // the instructions
        out.printf("%ninstructions (the locked ones in each loop; the whole code in asm-java.txt, asm-native.txt):%n");
        if (asmNote != null) {
            out.println("  " + asmNote);
        }
        StringBuilder javaAsm = new StringBuilder();
        StringBuilder nativeAsm = new StringBuilder();
        for (var e : asm.entrySet()) {
            for (var code : e.getValue().entrySet()) {
                out.printf("  %-12s %-6s %-32s (expected: %s)%n", e.getKey(), code.getKey(), code.getValue().lockedSummary(),
                        code.getKey().equals("java") ? e.getKey().javaInstruction : e.getKey().nativeInstruction);
                StringBuilder sb = code.getKey().equals("java") ? javaAsm : nativeAsm;
                sb.append("==== ").append(e.getKey()).append(": ").append(code.getValue().where()).append('\n');
                code.getValue().lines().forEach(l -> sb.append(l).append('\n'));
                sb.append('\n');
            }
        }
        if (javaAsm.length() > 0) {
            Files.writeString(dir.resolve("asm-java.txt"), javaAsm);
        }
        if (nativeAsm.length() > 0) {
            Files.writeString(dir.resolve("asm-native.txt"), nativeAsm);
        }

        writeCsv(dir.resolve("atomics.csv"), rows);
        writeJson(dir.resolve("atomics.json"), info, rows, results, asm);
        List<Path> charts = charts(info, rows, impls, dir, out);
        out.printf("%nwritten to %s: atomics.csv, atomics.json%s%s%n", dir.toAbsolutePath(),
                asm.isEmpty() ? "" : ", asm-java.txt" + (nativeAsm.length() > 0 ? ", asm-native.txt" : ""),
                charts.isEmpty() ? "" : ", " + charts.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
    }

    private static String shares(long[] shares) {
        long total = 0;
        for (long s : shares) {
            total += s;
        }
        StringBuilder sb = new StringBuilder();
        for (long s : shares) {
            sb.append(sb.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%.0f%%", 100.0 * s / total));
        }
        return sb.toString();
    }

    static final String CSV_HEADER = "case,impl,threads,count,ns_per_op,ops_per_sec,fairness,mean_run,delay,ops,"
            + "ns_per_op_min,ns_per_op_max,cas_failures_per_success,repeats,shares,duration_ms,redone";

    static void writeCsv(Path file, List<Row> rows) throws IOException {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        for (Row r : rows) {
            RunResult m = r.median();
            sb.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%.0f,%s,%s,%d,%d,%.3f,%.3f,%s,%d,%s,%.3f,%d%n", m.atomicCase(),
                    m.impl(), m.threads(), m.count(), m.nsPerOp(), m.opsPerSec(), String.format(Locale.ROOT, "%.4f", m.fairness()),
                    Double.isNaN(m.meanRun()) ? "" : String.format(Locale.ROOT, "%.2f", m.meanRun()), m.delay(), m.ops(),
                    r.nsMin(), r.nsMax(), m.atomicCase().retries(m.impl()) ? String.format(Locale.ROOT, "%.4f", m.failuresPerSuccess()) : "",
                    r.runs(), java.util.Arrays.stream(m.shares()).mapToObj(Long::toString).collect(Collectors.joining(";")),
                    m.durationNs() / 1e6, r.redone()));
        }
        Files.writeString(file, sb);
    }

    static void writeJson(Path file, Info info, List<Row> rows, List<RunResult> results,
                          Map<AtomicCase, Map<String, Disassembly.Code>> asm) throws IOException {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("study", "atomics");
        root.put("machine", info.machine());
        Map<String, Object> protocol = new LinkedHashMap<>();
        protocol.put("count_at_delay_0", info.count());
        protocol.put("delays", info.delays());
        protocol.put("threads", info.threads());
        protocol.put("warmups", info.warmups());
        protocol.put("repeats", info.repeats());
        protocol.put("native", info.nativeNote());
        protocol.put("text", info.protocolLine());
        root.put("protocol", protocol);
        root.put("article_figures", ARTICLE_FIGURES);
        List<Map<String, Object>> cells = new ArrayList<>();
        for (Row r : rows) {
            Map<String, Object> m = run(r.median());
            m.put("ns_per_op_min", r.nsMin());
            m.put("ns_per_op_max", r.nsMax());
            m.put("repeats", r.runs());
            m.put("redone", r.redone());
            cells.add(m);
        }
        root.put("cells", cells);
        List<Map<String, Object>> runs = new ArrayList<>();
        for (RunResult r : results) {
            runs.add(run(r));
        }
        root.put("runs", runs);
        Map<String, Object> instr = new LinkedHashMap<>();
        for (var e : asm.entrySet()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (var code : e.getValue().entrySet()) {
                m.put(code.getKey(), List.copyOf(code.getValue().locked()));
            }
            instr.put(e.getKey().name(), m);
        }
        root.put("locked_instructions", instr);
        Json.write(file, root);
    }

    private static Map<String, Object> run(RunResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("case", r.atomicCase().name());
        m.put("impl", r.impl());
        m.put("delay", r.delay());
        m.put("threads", r.threads());
        m.put("count", r.count());
        m.put("ops", r.ops());
        m.put("duration_ns", r.durationNs());
        m.put("ns_per_op", r.nsPerOp());
        m.put("ops_per_sec", r.opsPerSec());
        m.put("cas_failures", r.failures());
        m.put("fairness", r.fairness());
        m.put("mean_run", Double.isNaN(r.meanRun()) ? null : r.meanRun());
        m.put("sampled", r.sampled());
        m.put("runs", r.runs());
        m.put("shares", r.shares());
        m.put("repeat", r.repeat());
        m.put("redone", r.redone());
        return m;
    }

    /** One chart per case: ns/op against threads, a line per impl and delay (log scale). */
    static List<Path> charts(Info info, List<Row> rows, List<String> impls, Path dir, PrintStream out) {
        List<Path> files = new ArrayList<>();
        try {
            Color[] colors = {new Color(0xC0, 0x20, 0x20), new Color(0x20, 0x50, 0xC0), new Color(0x20, 0x90, 0x30),
                    new Color(0x90, 0x40, 0xA0), new Color(0xE0, 0x80, 0x00)};
            double[] x = info.threads().stream().mapToDouble(Integer::doubleValue).toArray();
            for (AtomicCase c : info.cases()) {
                XYChart chart = new XYChartBuilder().width(1100).height(700)
                        .title(c + ": ns per increment (wall time / all increments) against threads; log scale")
                        .xAxisTitle("threads (above " + info.cores() + ": oversubscribed)").yAxisTitle("ns per op").build();
                Styler s = chart.getStyler();
                chart.getStyler().setYAxisLogarithmic(true);
                chart.getStyler().setXAxisDecimalPattern("0");
                s.setChartBackgroundColor(Color.WHITE);
                s.setPlotBackgroundColor(Color.WHITE);
                s.setLegendPosition(Styler.LegendPosition.OutsideE);
                int k = 0;
                double lo = Double.MAX_VALUE;
                double hi = 0;
                for (int d : info.delays()) {
                    for (String impl : impls) {
                        double[] y = new double[x.length];
                        boolean all = true;
                        for (int i = 0; i < x.length; i++) {
                            Row r = find(rows, c, impl, d, info.threads().get(i));
                            all &= r != null;
                            y[i] = r == null ? Double.NaN : r.median().nsPerOp();
                        }
                        if (!all) {
                            continue;
                        }
                        for (double v : y) {
                            lo = Math.min(lo, v);
                            hi = Math.max(hi, v);
                        }
                        XYSeries series = chart.addSeries(impl + ", delay " + d, x, y);
                        Color col = colors[k % colors.length];
                        series.setLineColor(col);
                        series.setMarkerColor(col);
                        series.setLineStyle(impl.equals("java") ? SeriesLines.SOLID : SeriesLines.DASH_DASH);
                        series.setMarker(impl.equals("java") ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND);
                        series.setLineWidth(2.5f);
                    }
                    k++;
                }
                if (hi > 0) { // whole decades, so that the log axis labels at least two of them
                    chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lo))));
                    chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(hi * 1.0001))));
                }
                Path file = dir.resolve("atomics-" + c.name().toLowerCase(Locale.ROOT));
                BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
                files.add(Path.of(file + ".png"));
            }
        } catch (Exception | LinkageError e) {
            out.printf("%ncharts not drawn: %s (install fonts, e.g. Debian's fonts-dejavu-core, and a JDK with java.desktop)%n", e);
        }
        return files;
    }
}
