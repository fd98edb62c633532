package dev.statvar.lab.counters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A study's results: the console tables (the article's layout, with its published figure beside
 * each row), {@code counters.csv} / {@code gauges.csv} (one row per measured repeat), the JSON
 * ({@link JsonReport}) and the charts ({@link Charts}).
 */
final class Report {
    private Report() {
    }

    /** How a cell's noise floor is found; printed with the tables and written into the JSON. */
    static final String NOISE_RULE = "noise floor of a cell: the largest |paired difference| of a single run of the empty"
            + " implementation (which updates nothing) at the same delay and thread count; a figure at or below it is"
            + " within noise, not a result. Two levels: a cell whose runs form two clusters (Levels) shows both, never"
            + " a figure across them";

    /**
     * The noise of a study: per cell (delay, threads), the empty implementation's paired
     * differences (it updates nothing, so they are pure noise), which give the noise floor and
     * the least gap that can separate two levels ({@link Levels}).
     */
    static final class Noise {
        private final String empty;
        private final Map<String, Paired> floors = new LinkedHashMap<>();
        private final Map<String, double[]> values = new LinkedHashMap<>();

        private Noise(String empty) {
            this.empty = empty;
        }

        /** The first implementation of {@code cells} is the empty one (the catalogs put it first). */
        static Noise of(Map<String, List<CellStats>> cells, Map<String, List<Forker.Repeat>> results) {
            Noise n = new Noise(cells.keySet().iterator().next());
            for (CellStats c : cells.get(n.empty)) {
                n.floors.put(key(c), c.pairedWall());
            }
            for (var e : cells.entrySet()) {
                for (CellStats c : e.getValue()) {
                    n.values.put(e.getKey() + "|" + key(c), c.pairedWallValues(results.get(e.getKey())));
                }
            }
            return n;
        }

        private static String key(CellStats c) {
            return c.delay() + ":" + c.threads();
        }

        boolean isEmpty(CellStats c) {
            return c.implementation().equals(empty);
        }

        /** The cell's noise floor, ns per op. */
        double floor(CellStats c) {
            return floors.get(key(c)).largestDeviation();
        }

        /** Whether the cell's figure by {@code rule} is within noise (the empty implementation's always is). */
        boolean withinNoise(CellStats c, CellStats.Rule rule) {
            return isEmpty(c) || Math.abs(c.wallFigure(rule)) <= floor(c);
        }

        /** The cell's two levels, or null (none for the empty implementation: its spread is the noise). */
        Levels levels(CellStats c) {
            return isEmpty(c) ? null : Levels.of(values.get(c.implementation() + "|" + key(c)), floors.get(key(c)).range());
        }
    }

    /** Every cell of every implementation, in the run's order. */
    static Map<String, List<CellStats>> cells(Catalog.Kind kind, Map<String, List<Forker.Repeat>> results, List<Integer> delays,
                                              List<Integer> threads) {
        Map<String, List<CellStats>> out = new LinkedHashMap<>();
        for (var e : results.entrySet()) {
            List<CellStats> list = new ArrayList<>();
            for (int d : delays) {
                for (int t : threads) {
                    list.add(CellStats.of(e.getKey(), e.getValue(), d, t, kind == Catalog.Kind.GAUGES));
                }
            }
            out.put(e.getKey(), list);
        }
        return out;
    }

    static CellStats find(List<CellStats> cells, int delay, int threads) {
        for (CellStats c : cells) {
            if (c.delay() == delay && c.threads() == threads) {
                return c;
            }
        }
        throw new IllegalArgumentException("no cell " + delay + "/" + threads);
    }

    /** Writes the tables to {@code out} and the files into {@code dir}. */
    static void write(Catalog.Kind kind, RunInfo info, Map<String, List<Forker.Repeat>> results,
                      Map<String, Boolean> articleSaysExact, ArticleFigures figures, Path dir, PrintStream out,
                      CellStats.Rule rule) throws IOException {
        Map<String, List<CellStats>> cells = cells(kind, results, info.delays(), info.threads());
        console(kind, info, cells, results, articleSaysExact, figures, out, rule);
        Path csv = dir.resolve(csvName(kind));
        Files.writeString(csv, csv(results));
        Path json = dir.resolve(kind.name().toLowerCase(Locale.ROOT) + ".json");
        JsonReport.write(json, kind, info, cells, results, articleSaysExact, figures, rule);
        List<Path> charts = Charts.write(kind, info, cells, dir, out);
        out.printf("%nresults: %s%n  %s%n  %s%n", dir.toAbsolutePath(), csv.getFileName(), json.getFileName());
        for (Path c : charts) {
            out.printf("  %s%n", c.getFileName());
        }
    }

    static String csvName(Catalog.Kind kind) {
        return kind == Catalog.Kind.COUNTERS ? "counters.csv" : "gauges.csv";
    }

    /**
     * One row per run (phase: measured, warmup or redone); {@code base_ns} is the base run made
     * right before it in the same JVM, {@code after_base_ns} the probe right after it (empty where
     * none ran); gauges' min_seen / max_seen are -1 where not recorded.
     */
    static String csv(Map<String, List<Forker.Repeat>> results) {
        StringBuilder sb = new StringBuilder("implementation,delay,threads,repeat,ns_per_op,base_ns,counted,correct,"
                + "cpu_ns_per_op,base_cpu_ns,ops_per_sec,counted_sum,correct_sum,redone,phase,after_base_ns,bad_intervals,min_seen,max_seen\n");
        for (var e : results.entrySet()) {
            for (Forker.Repeat r : e.getValue()) {
                sb.append(String.format(Locale.ROOT, "\"%s\",%d,%d,%d,%.4f,%.4f,%d,%d,%.4f,%.4f,%.1f,%d,%d,%d,%s,%s,%d,%d,%d%n", e.getKey(),
                        r.delay(), r.threads(), r.repeat(), r.wallNsPerOp(), r.baseWallNsPerOp(), r.counted(), r.correct(),
                        r.cpuNsPerOp(), r.baseCpuNsPerOp(), r.opsPerSec(), r.countedSum(), r.correctSum(), r.redone(), r.phase(),
                        Double.isNaN(r.afterBaseWallNsPerOp()) ? "" : String.format(Locale.ROOT, "%.4f", r.afterBaseWallNsPerOp()),
                        r.badIntervals(), r.minSeen(), r.maxSeen()));
            }
        }
        return sb.toString();
    }

    private static void console(Catalog.Kind kind, RunInfo info, Map<String, List<CellStats>> cells,
                                Map<String, List<Forker.Repeat>> results, Map<String, Boolean> articleSaysExact,
                                ArticleFigures figures, PrintStream out, CellStats.Rule rule) {
        Noise noise = Noise.of(cells, results);
        List<String> twoLevels = new ArrayList<>();
        List<Integer> fit = new ArrayList<>();
        List<Integer> over = new ArrayList<>();
        for (int t : info.threads()) {
            (t <= info.cores() ? fit : over).add(t);
        }
        out.printf("%n== Time per op, ns, minus the base (the article's measure): each worker thread's wall time over its"
                + " op count, averaged over the threads, minus the same for the loop without the update (the article's"
                + " EmptyCounter) in the same JVM. Rule: %s. ~ marks a figure within noise (%s). The base column is the"
                + " base itself (median). Right: the article's published figure for the row (%s; ns minus its base)."
                + "%s%n", rule.description, NOISE_RULE, figures.source, over.isEmpty() ? "" : " Thread counts above " + info.cores()
                + " cores are left out: with threads waiting for a core, wall time per op measures the scheduler;"
                + " see CPU time below.");
        int width = rule == CellStats.Rule.PAIRED ? 45 : 27;
        StringBuilder h = new StringBuilder(String.format("%-28s %5s %8s", "implementation", "delay", "base"));
        for (int t : fit) {
            h.append(String.format(" %" + width + "s", threadsLabel(t)));
        }
        h.append(" | article: base      1      2      6     12");
        out.println(h);
        for (var e : cells.entrySet()) {
            for (int d : info.delays()) {
                CellStats first = find(e.getValue(), d, info.threads().get(0));
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s %5d %8.2f", e.getKey(), d,
                        rule == CellStats.Rule.PAIRED ? median(results.get(e.getKey()), first) : first.base().mean()));
                for (int t : fit) {
                    CellStats c = find(e.getValue(), d, t);
                    row.append(' ').append(cellText(c, noise, rule));
                    Levels lv = noise.levels(c);
                    if (lv != null) {
                        twoLevels.add(String.format(Locale.ROOT, "  %s, delay %d, %s: %s", e.getKey(), d, threadsLabel(t), lv));
                    }
                }
                row.append(" |        ");
                ArticleFigures.Figure f = figures.get(kind, e.getKey(), d);
                row.append(num(f == null ? null : f.base()));
                for (int t : ArticleFigures.THREADS) {
                    row.append(num(f == null ? null : f.at(t)));
                }
                out.println(row);
            }
        }

        if (!twoLevels.isEmpty()) {
            out.printf("two levels (cells whose runs form two clusters: each level's median and its runs; no figure"
                    + " across them):%n%s%n", String.join("\n", twoLevels));
        }
        out.printf("noise floor, ns (%s):%n", NOISE_RULE);
        for (int d : info.delays()) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "  delay %5d:", d));
            for (int t : info.threads()) {
                row.append(String.format(Locale.ROOT, "  %s %.2f", threadsLabel(t), noise.floor(find(cells.get(noise.empty), d, t))));
            }
            out.println(row);
        }

        int redone = 0;
        int disturbedCells = 0;
        for (var e : cells.values()) {
            for (CellStats c : e) {
                redone += c.redone();
                disturbedCells += c.redone() > 0 ? 1 : 0;
            }
        }
        out.printf("(disturbed runs: %d run(s) in %d cell(s) were made again because their base, with threads that fit"
                + " the cores, ran over %.0f %% slower than with one thread: the threads did not each get a full core"
                + " although the OS scheduled them, i.e. the host shared or stole the CPUs; checked before each run and by"
                + " a probe right after it; the CSV's redone column says where; at delay 0 the base loop does no delay work and this"
                + " cannot be seen)%n", redone, disturbedCells,
                (CellRunner.DISTURBED - 1) * 100);

        out.printf("%n== Thread CPU time per op, ns, minus the base's (rule: %s; [min..max]): valid with more threads than"
                + " cores too (a thread waiting for a core burns no CPU time); a thread blocked on a lock burns none either,"
                + " so compare with the wall times above up to %d threads.%n", rule == CellStats.Rule.PAIRED ? "paired median"
                : "the article's", info.cores());
        h = new StringBuilder(String.format("%-28s %5s %8s", "implementation", "delay", "base cpu"));
        for (int t : info.threads()) {
            h.append(String.format(" %27s", threadsLabel(t) + (t > info.cores() ? "*" : "")));
        }
        out.println(h);
        for (var e : cells.entrySet()) {
            for (int d : info.delays()) {
                CellStats first = find(e.getValue(), d, info.threads().get(0));
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s %5d %8.2f", e.getKey(), d,
                        first.baseCpu().mean()));
                for (int t : info.threads()) {
                    CellStats c = find(e.getValue(), d, t);
                    if (rule == CellStats.Rule.PAIRED) {
                        Paired p = c.pairedCpu();
                        row.append(String.format(Locale.ROOT, " %8.2f [%7.2f..%7.2f]", p.median(), p.min(), p.max()));
                    } else {
                        double b = c.baseCpu().mean();
                        row.append(String.format(Locale.ROOT, " %8.2f [%7.2f..%7.2f]", c.cpuMinusBase(), c.cpu().min() - b,
                                c.cpu().max() - b));
                    }
                }
                out.println(row);
            }
        }
        if (!over.isEmpty()) {
            out.printf("(* oversubscribed: more threads than the %d cores)%n", info.cores());
        }

        out.printf("%n== Throughput, million updates per second, all threads together (wall clock; includes the delay"
                + " loop)%n");
        h = new StringBuilder(String.format("%-28s %5s", "implementation", "delay"));
        for (int t : info.threads()) {
            h.append(String.format(" %12s", threadsLabel(t) + (t > info.cores() ? "*" : "")));
        }
        out.println(h);
        for (var e : cells.entrySet()) {
            for (int d : info.delays()) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s %5d", e.getKey(), d));
                for (int t : info.threads()) {
                    row.append(String.format(Locale.ROOT, " %12.2f", find(e.getValue(), d, t).opsPerSec() / 1e6));
                }
                out.println(row);
            }
        }

        boolean gauges = kind == Catalog.Kind.GAUGES;
        out.printf("%n== Counted minus correct, judged per run (warm-up and redone runs included, so that errors of"
                + " opposite sign cannot cancel): per cell the worst run that lost (negative) and the worst that counted"
                + " twice (positive), 0 = every run exact, and how many of the cell's runs were not exact.%s The last"
                + " column is what the article says of the implementation.%n", gauges ? " Gauges: counts / sums of the"
                + " values, and a run is exact only if every retrieved interval had 0 <= min <= max <= 1023 and the run saw"
                + " min 0 and max 1023 (bad intervals listed below)." : "");
        h = new StringBuilder(String.format("%-28s %5s", "implementation", "delay"));
        for (int t : info.threads()) {
            h.append(String.format(" %" + (gauges ? 36 : 24) + "s", threadsLabel(t)));
        }
        h.append("  here        article");
        out.println(h);
        List<String> badIntervals = new ArrayList<>();
        for (var e : cells.entrySet()) {
            Boolean claim = articleSaysExact.get(e.getKey());
            boolean base = noise.isEmpty(e.getValue().get(0));
            for (int d : info.delays()) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s %5d", e.getKey(), d));
                boolean exact = true;
                for (int t : info.threads()) {
                    CellStats.Exactness x = find(e.getValue(), d, t).exactness();
                    exact &= x.exact();
                    String runs = x.exact() ? String.format("(%d runs)", x.runs()) : String.format("(%d of %d)", x.inexactRuns(), x.runs());
                    if (base) {
                        row.append(String.format(" %" + (gauges ? 36 : 24) + "s", "-"));
                    } else if (gauges) {
                        row.append(String.format(Locale.ROOT, " %s/%s %10s", range(x.worstLost(), x.worstExtra(), 10),
                                range(x.worstSumLost(), x.worstSumExtra(), 13), runs));
                        if (x.badIntervals() > 0 || x.maxSeen() != Forker.Repeat.UNKNOWN && (x.minSeen() != 0 || x.maxSeen() != CellRunner.GAUGE_MAX)) {
                            badIntervals.add(String.format(Locale.ROOT, "  %s, delay %d, %s: %d bad interval(s); min seen %d, max seen %d",
                                    e.getKey(), d, threadsLabel(t), x.badIntervals(), x.minSeen(), x.maxSeen()));
                        }
                    } else {
                        row.append(String.format(Locale.ROOT, " %s %10s", range(x.worstLost(), x.worstExtra(), 13), runs));
                    }
                }
                row.append(base ? "  counts nothing" : exact ? "  exact      " : "  NOT EXACT  ");
                if (!base && claim != null) {
                    row.append(claim ? "  exact" : "  not exact");
                }
                out.println(row);
            }
        }
        if (!badIntervals.isEmpty()) {
            out.printf("gauges' impossible min or max:%n%s%n", String.join("\n", badIntervals));
        }
    }

    /** {@code 0}, or the worst loss and the worst excess of a cell's runs ({@code -465/+0}). */
    private static String range(long lost, long extra, int width) {
        return String.format("%" + width + "s", lost == 0 && extra == 0 ? "0" : lost + "/+" + extra);
    }

    /** A time cell: the figure by {@code rule} (~ within noise; "2 levels" instead when two), its spread. */
    static String cellText(CellStats c, Noise noise, CellStats.Rule rule) {
        String mark = noise.withinNoise(c, rule) && !noise.isEmpty(c) ? "~" : " ";
        String fig = noise.levels(c) != null ? "2 levels" : String.format(Locale.ROOT, "%8.2f", c.wallFigure(rule));
        if (rule == CellStats.Rule.PAIRED) {
            Paired p = c.pairedWall();
            return String.format(Locale.ROOT, "%8s%s[%7.2f..%7.2f] {%7.2f..%7.2f}", fig, mark, p.q1(), p.q3(), p.min(), p.max());
        }
        double b = c.base().mean();
        return String.format(Locale.ROOT, "%8s%s[%7.2f..%7.2f]", fig, mark, c.wall().min() - b, c.wall().max() - b);
    }

    /** The median base of a cell's measured runs. */
    private static double median(List<Forker.Repeat> reps, CellStats c) {
        return Paired.of(reps.stream().filter(r -> r.measured() && r.delay() == c.delay() && r.threads() == c.threads())
                .mapToDouble(Forker.Repeat::baseWallNsPerOp).toArray()).median();
    }

    private static String threadsLabel(int t) {
        return t + (t == 1 ? " thread" : " threads");
    }

    private static String num(Double v) {
        return v == null ? String.format("%7s", "-") : String.format(Locale.ROOT, "%7.0f", v);
    }
}
