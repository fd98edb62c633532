package dev.statvar.lab;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The study's console tables and its {@code counters.csv} / {@code gauges.csv}. */
final class Report {
    private Report() {
    }

    /** Mean (article's rule) of one measure of one cell. */
    static Summary cell(List<Forker.Repeat> reps, int delay, int threads, boolean cpu) {
        List<Double> v = new ArrayList<>();
        for (Forker.Repeat r : reps) {
            if (r.delay() == delay && r.threads() == threads) {
                v.add(cpu ? r.cpuNsPerOp() : r.wallNsPerOp());
            }
        }
        return Summary.of(v);
    }

    static void write(Catalog.Kind kind, Map<String, List<Forker.Repeat>> results, String base, List<Integer> delays,
                      List<Integer> threads, Path dir, PrintStream out) throws IOException {
        int cores = Runtime.getRuntime().availableProcessors();
        List<Forker.Repeat> baseReps = results.get(base);
        out.printf("%nTime per op, ns, minus the %s base of the same cell (wall time per thread / its ops;"
                + " meaningless above %d threads, see CPU time below); [min..max] of the kept runs%n", base, cores);
        table(results, base, baseReps, delays, threads, false, out);
        out.printf("%nThread CPU time per op, ns, minus the base (valid with more threads than cores)%n");
        table(results, base, baseReps, delays, threads, true, out);

        out.printf("%n%-30s %5s %7s %16s %16s %14s%n", "counted vs correct", "delay", "threads", "counted", "correct", "difference");
        for (var e : results.entrySet()) {
            for (int d : delays) {
                for (int t : threads) {
                    long counted = 0;
                    long correct = 0;
                    for (Forker.Repeat r : e.getValue()) {
                        if (r.delay() == d && r.threads() == t) {
                            counted += r.counted();
                            correct += r.correct();
                        }
                    }
                    if (!e.getKey().equals(base) && counted != correct) {
                        out.printf("%-30s %5d %7d %,16d %,16d %,+14d%n", e.getKey(), d, t, counted, correct, counted - correct);
                    }
                }
            }
        }
        out.println("(rows are listed only where the counted sum differs from the correct one; the base counts nothing)");

        Path csv = dir.resolve(kind == Catalog.Kind.COUNTERS ? "counters.csv" : "gauges.csv");
        StringBuilder sb = new StringBuilder(
                "implementation,delay,threads,repeat,ns_per_op,base_ns,counted,correct,cpu_ns_per_op,ops_per_sec,counted_sum,correct_sum\n");
        for (var e : results.entrySet()) {
            for (Forker.Repeat r : e.getValue()) {
                double b = cell(baseReps, r.delay(), r.threads(), false).mean();
                sb.append(String.format(Locale.ROOT, "\"%s\",%d,%d,%d,%.4f,%.4f,%d,%d,%.4f,%.1f,%d,%d%n", e.getKey(),
                        r.delay(), r.threads(), r.repeat(), r.wallNsPerOp(), b, r.counted(), r.correct(),
                        r.cpuNsPerOp(), r.opsPerSec(), r.countedSum(), r.correctSum()));
            }
        }
        Files.writeString(csv, sb.toString());
        out.printf("%nresults: %s%n", csv.toAbsolutePath());
    }

    private static void table(Map<String, List<Forker.Repeat>> results, String base, List<Forker.Repeat> baseReps,
                              List<Integer> delays, List<Integer> threads, boolean cpu, PrintStream out) {
        StringBuilder h = new StringBuilder(String.format("%-30s %5s %9s", "implementation", "delay", "base"));
        for (int t : threads) {
            h.append(String.format(" %22s", t + (t == 1 ? " thread" : " threads")));
        }
        out.println(h);
        for (var e : results.entrySet()) {
            if (e.getKey().equals(base)) {
                continue;
            }
            for (int d : delays) {
                StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-30s %5d %9.2f", e.getKey(), d,
                        cell(baseReps, d, threads.get(0), cpu).mean()));
                for (int t : threads) {
                    double b = cell(baseReps, d, t, cpu).mean();
                    Summary s = cell(e.getValue(), d, t, cpu);
                    row.append(String.format(Locale.ROOT, " %8.2f [%5.1f..%5.1f]", s.mean() - b, s.min() - b, s.max() - b));
                }
                out.println(row);
            }
        }
    }
}
