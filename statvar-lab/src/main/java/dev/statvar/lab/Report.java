package dev.statvar.lab;

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

    /** Every cell of every implementation, in the run's order. */
    static Map<String, List<CellStats>> cells(Map<String, List<Forker.Repeat>> results, List<Integer> delays,
                                              List<Integer> threads) {
        Map<String, List<CellStats>> out = new LinkedHashMap<>();
        for (var e : results.entrySet()) {
            List<CellStats> list = new ArrayList<>();
            for (int d : delays) {
                for (int t : threads) {
                    list.add(CellStats.of(e.getKey(), e.getValue(), d, t));
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
                      Map<String, Boolean> articleSaysExact, SeedFigures seed, Path dir, PrintStream out) throws IOException {
        Map<String, List<CellStats>> cells = cells(results, info.delays(), info.threads());
        console(kind, info, cells, articleSaysExact, seed, out);
        Path csv = dir.resolve(csvName(kind));
        Files.writeString(csv, csv(results));
        Path json = dir.resolve(kind.name().toLowerCase(Locale.ROOT) + ".json");
        JsonReport.write(json, kind, info, cells, results, articleSaysExact, seed);
        List<Path> charts = Charts.write(kind, info, cells, dir, out);
        out.printf("%nresults: %s%n  %s%n  %s%n", dir.toAbsolutePath(), csv.getFileName(), json.getFileName());
        for (Path c : charts) {
            out.printf("  %s%n", c.getFileName());
        }
    }

    static String csvName(Catalog.Kind kind) {
        return kind == Catalog.Kind.COUNTERS ? "counters.csv" : "gauges.csv";
    }

    /** One row per measured repeat; {@code base_ns} is the base run made right before it in the same JVM. */
    static String csv(Map<String, List<Forker.Repeat>> results) {
        StringBuilder sb = new StringBuilder("implementation,delay,threads,repeat,ns_per_op,base_ns,counted,correct,"
                + "cpu_ns_per_op,base_cpu_ns,ops_per_sec,counted_sum,correct_sum,redone\n");
        for (var e : results.entrySet()) {
            for (Forker.Repeat r : e.getValue()) {
                sb.append(String.format(Locale.ROOT, "\"%s\",%d,%d,%d,%.4f,%.4f,%d,%d,%.4f,%.4f,%.1f,%d,%d,%d%n", e.getKey(),
                        r.delay(), r.threads(), r.repeat(), r.wallNsPerOp(), r.baseWallNsPerOp(), r.counted(), r.correct(),
                        r.cpuNsPerOp(), r.baseCpuNsPerOp(), r.opsPerSec(), r.countedSum(), r.correctSum(), r.redone()));
            }
        }
        return sb.toString();
    }

    private static void console(Catalog.Kind kind, RunInfo info, Map<String, List<CellStats>> cells,
                                Map<String, Boolean> articleSaysExact, SeedFigures seed, PrintStream out) {
        List<Integer> fit = new ArrayList<>();
        List<Integer> over = new ArrayList<>();
        for (int t : info.threads()) {
            (t <= info.cores() ? fit : over).add(t);
        }
        out.printf("%n== Time per op, ns, minus the base (the article's measure): each worker thread's wall time over its"
                + " op count, averaged over the threads, minus the same for the loop without the update (the article's"
                + " EmptyCounter) in the same JVM; [min..max] over all the runs. The base column is the base itself."
                + " Right: the article's published figure for the row (%s; ns minus its base)."
                + "%s%n", seed.source, over.isEmpty() ? "" : " Thread counts above " + info.cores()
                + " cores are left out: with threads waiting for a core, wall time per op measures the scheduler;"
                + " see CPU time below.");
        StringBuilder h = new StringBuilder(String.format("%-28s %5s %8s", "implementation", "delay", "base"));
        for (int t : fit) {
            h.append(String.format(" %27s", threadsLabel(t)));
        }
        h.append(" | article: base      1      2      6     12");
        out.println(h);
        for (var e : cells.entrySet()) {
            for (int d : info.delays()) {
                CellStats first = find(e.getValue(), d, info.threads().get(0));
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s %5d %8.2f", e.getKey(), d,
                        first.base().mean()));
                for (int t : fit) {
                    CellStats c = find(e.getValue(), d, t);
                    double b = c.base().mean();
                    row.append(String.format(Locale.ROOT, " %8.2f [%7.2f..%7.2f]", c.wallMinusBase(),
                            c.wall().min() - b, c.wall().max() - b));
                }
                row.append(" |        ");
                SeedFigures.Figure f = seed.get(kind, e.getKey(), d);
                row.append(num(f == null ? null : f.base()));
                for (int t : SeedFigures.THREADS) {
                    row.append(num(f == null ? null : f.at(t)));
                }
                out.println(row);
            }
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
                + " although the OS scheduled them, i.e. the host shared or stole the CPUs; the CSV's redone column"
                + " says where; at delay 0 the base is empty and this cannot be seen)%n", redone, disturbedCells,
                (CellRunner.DISTURBED - 1) * 100);

        out.printf("%n== Thread CPU time per op, ns, minus the base's: valid with more threads than cores too (a thread"
                + " waiting for a core burns no CPU time); a thread blocked on a lock burns none either, so compare with"
                + " the wall times above up to %d threads.%n", info.cores());
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
                    double b = c.baseCpu().mean();
                    row.append(String.format(Locale.ROOT, " %8.2f [%7.2f..%7.2f]", c.cpuMinusBase(), c.cpu().min() - b,
                            c.cpu().max() - b));
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
        out.printf("%n== Counted minus correct, over all measured runs of the cell: 0 = exact; negative = updates lost;"
                + " positive = counted twice.%s The last column is what the article says of the implementation.%n",
                gauges ? " For gauges: report count difference / sum-of-values difference." : "");
        h = new StringBuilder(String.format("%-28s %5s", "implementation", "delay"));
        for (int t : info.threads()) {
            h.append(String.format(" %" + (gauges ? 24 : 14) + "s", threadsLabel(t)));
        }
        h.append("  here        article");
        out.println(h);
        for (var e : cells.entrySet()) {
            Boolean claim = articleSaysExact.get(e.getKey());
            boolean base = e.getKey().equals(cells.keySet().iterator().next());
            for (int d : info.delays()) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-28s %5d", e.getKey(), d));
                boolean exact = true;
                for (int t : info.threads()) {
                    CellStats c = find(e.getValue(), d, t);
                    exact &= c.difference() == 0 && c.sumDifference() == 0;
                    if (base) {
                        row.append(String.format(" %" + (gauges ? 24 : 14) + "s", "-"));
                    } else if (gauges) {
                        row.append(String.format(Locale.ROOT, " %11d/%12d", c.difference(), c.sumDifference()));
                    } else {
                        row.append(String.format(Locale.ROOT, " %14d", c.difference()));
                    }
                }
                row.append(base ? "  counts nothing" : exact ? "  exact      " : "  NOT EXACT  ");
                if (!base && claim != null) {
                    row.append(claim ? "  exact" : "  not exact");
                }
                out.println(row);
            }
        }
    }

    private static String threadsLabel(int t) {
        return t + (t == 1 ? " thread" : " threads");
    }

    private static String num(Double v) {
        return v == null ? String.format("%7s", "-") : String.format(Locale.ROOT, "%7.0f", v);
    }
}
