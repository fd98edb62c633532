package dev.statvar.lab.counters;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.StudyResults;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The counter and gauge studies' contributions to {@code lab report} and docs/LAB.md
 * ({@link StudyResults}): a finished run printed again by either rule ({@link CellStats.Rule}), and
 * the tables of {@code counters.json} / {@code gauges.json} by the paired rule.
 */
public abstract class CountersDoc implements StudyResults {
    private final Catalog.Kind kind;

    CountersDoc(Catalog.Kind kind) {
        this.kind = kind;
    }

    /** {@code lab counters}' results. */
    public static final class Counters extends CountersDoc {
        public Counters() {
            super(Catalog.Kind.COUNTERS);
        }
    }

    /** {@code lab gauges}' results. */
    public static final class Gauges extends CountersDoc {
        public Gauges() {
            super(Catalog.Kind.GAUGES);
        }
    }

    @Override
    public String study() {
        return kind.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public List<String> rules() {
        return List.of("paired", "article");
    }

    @Override
    public int again(Path dir, String rule, PrintStream out) throws IOException {
        JsonReport.Study st = JsonReport.read(dir.resolve(json()));
        print(st, dir, rule == null ? CellStats.Rule.PAIRED : CellStats.Rule.valueOf(rule.toUpperCase(Locale.ROOT)), out);
        return 0;
    }

    /** The report of {@code st} again, its CSV and charts rewritten in {@code dir}. */
    static void print(JsonReport.Study st, Path dir, CellStats.Rule rule, PrintStream out) throws IOException {
        out.println(st.info().machineLine());
        out.println(st.info().protocolLine());
        Report.write(st.kind(), st.info(), st.results(), exactness(st.kind()), ArticleFigures.load(), dir.toAbsolutePath(), out, rule);
    }

    /** Per implementation of {@code kind}, whether the article says it is exact. */
    static Map<String, Boolean> exactness(Catalog.Kind kind) {
        Map<String, Boolean> exact = new LinkedHashMap<>();
        for (var i : kind == Catalog.Kind.COUNTERS ? Catalog.counters() : Catalog.gauges()) {
            exact.put(i.name(), i.expectedExact());
        }
        return exact;
    }

    @Override
    public String tables(JsonNode root) {
        try {
            return tables(JsonReport.of(root, study() + " data"), ArticleFigures.load(), CellStats.Rule.PAIRED);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Runs of the empty implementation per cell from which the floor's convergence is shown. */
    static final int CONVERGENCE_RUNS = 20;

    /**
     * How the noise floor grows with the runs it is taken from (the largest |paired difference| of the
     * first 5, 10, 20 ... measured runs of the empty implementation, in the order they ran), beside the
     * 90th percentile of the same, when every cell has at least {@link #CONVERGENCE_RUNS}; otherwise
     * nothing. The floor is a maximum, so it can only grow with more runs; the percentile settles.
     */
    static String floorConvergence(List<Forker.Repeat> empty, RunInfo info) {
        List<Integer> ks = new java.util.ArrayList<>();
        int fewest = Integer.MAX_VALUE;
        for (int d : info.delays()) {
            for (int t : info.threads()) {
                fewest = Math.min(fewest, (int) empty.stream().filter(r -> r.measured() && r.delay() == d && r.threads() == t).count());
            }
        }
        if (fewest < CONVERGENCE_RUNS) {
            return "";
        }
        for (int k = 5; k < fewest; k *= 2) {
            ks.add(k);
        }
        ks.add(fewest);
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%n**How the noise floor converges**, ns: from the"
                + " first k measured runs of the empty implementation (%d per cell), the largest |paired difference| (the floor"
                + " rule) / the 90th percentile of |paired difference|%n%n| delay | threads |", fewest));
        for (int k : ks) {
            sb.append(" k = ").append(k).append(" |");
        }
        sb.append("\n|---:|---:|").append("---:|".repeat(ks.size())).append('\n');
        for (int d : info.delays()) {
            for (int t : info.threads()) {
                double[] runs = empty.stream().filter(r -> r.measured() && r.delay() == d && r.threads() == t)
                        .mapToDouble(Forker.Repeat::pairedWall).toArray();
                sb.append("| ").append(d).append(" | ").append(t).append(" |");
                for (int k : ks) {
                    double[] first = new double[k];
                    for (int i = 0; i < k; i++) {
                        first[i] = Math.abs(runs[i]);
                    }
                    java.util.Arrays.sort(first);
                    sb.append(String.format(Locale.ROOT, " %.2f / %.2f |", first[k - 1], Paired.quantile(first, 0.9)));
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }

    /** The markdown tables of a counter or gauge study. */
    static String tables(JsonReport.Study st, ArticleFigures figures, CellStats.Rule rule) {
        RunInfo info = st.info();
        Map<String, List<CellStats>> cells = Report.cells(st.kind(), st.results(), info.delays(), info.threads());
        Report.Noise noise = Report.Noise.of(cells, st.results());
        StringBuilder sb = new StringBuilder();
        List<Integer> fit = info.threads().stream().filter(t -> t <= info.cores()).toList();
        sb.append(String.format(Locale.ROOT, "Generated by `./statvar lab report` from [%s](%s): %s, %d cores, JDK %s. Rule: %s."
                        + " `~`: within noise (the empty implementation's largest paired difference in the same cell, the noise"
                        + " floor below). Article: the published figure of \"Statistical variables in Java: not quite legal but very fast\" (ns minus its base, Java 8 on a 12-core Xeon).%n%n",
                "the data", "DATA", info.machine().precise(), info.cores(), info.machine().jdk(), rule.description));
        for (int d : info.delays()) {
            sb.append(String.format(Locale.ROOT, "**Delay factor %d**: ns per op minus the base, median [quartiles]%n%n", d));
            sb.append("| implementation | base |");
            for (int t : fit) {
                sb.append(' ').append(t).append(t == 1 ? " thread |" : " threads |");
            }
            sb.append(" article 1 t | article 2 t |\n|---|---:|");
            sb.append("---:|".repeat(fit.size())).append("---:|---:|\n");
            for (var e : cells.entrySet()) {
                CellStats first = Report.find(e.getValue(), d, fit.get(0));
                sb.append("| ").append(e.getKey()).append(" | ").append(String.format(Locale.ROOT, "%.2f",
                        Paired.of(st.results().get(e.getKey()).stream().filter(r -> r.measured() && r.delay() == d
                                && r.threads() == first.threads()).mapToDouble(Forker.Repeat::baseWallNsPerOp).toArray()).median())).append(" |");
                for (int t : fit) {
                    CellStats c = Report.find(e.getValue(), d, t);
                    Levels lv = noise.levels(c);
                    if (noise.isEmpty(c)) {
                        sb.append(String.format(Locale.ROOT, " %.2f |", c.wallFigure(rule)));
                    } else if (lv != null) {
                        sb.append(" two levels: ").append(lv).append(" |");
                    } else {
                        Paired p = c.pairedWall();
                        sb.append(String.format(Locale.ROOT, " %.2f%s [%.2f..%.2f] |", c.wallFigure(rule),
                                noise.withinNoise(c, rule) ? " ~" : "", p.q1(), p.q3()));
                    }
                }
                ArticleFigures.Figure f = figures.get(st.kind(), e.getKey(), d);
                sb.append(' ').append(f == null || f.at(1) == null ? "–" : fmt0(f.at(1))).append(" | ")
                        .append(f == null || f.at(2) == null ? "–" : fmt0(f.at(2))).append(" |\n");
            }
            sb.append('\n');
        }
        sb.append("**Noise floor**, ns (the empty implementation's largest |paired difference| of a single run)\n\n| delay |");
        for (int t : info.threads()) {
            sb.append(' ').append(t).append(t == 1 ? " thread |" : " threads |");
        }
        sb.append("\n|---:|").append("---:|".repeat(info.threads().size())).append('\n');
        String empty = cells.keySet().iterator().next();
        for (int d : info.delays()) {
            sb.append("| ").append(d).append(" |");
            for (int t : info.threads()) {
                sb.append(String.format(Locale.ROOT, " %.2f |", noise.floor(Report.find(cells.get(empty), d, t))));
            }
            sb.append('\n');
        }
        sb.append(floorConvergence(st.results().get(empty), info));
        boolean gauges = st.kind() == Catalog.Kind.GAUGES;
        sb.append(String.format("%n**Counted minus correct, per run** (every run judged, warm-up and redone ones too; over all"
                + " delays: the worst loss / the worst excess%s, and how many runs were not exact)%n%n| implementation |", gauges
                ? " of the report count; a gauge run is also inexact if an interval's min or max was impossible or it never saw 0 and 1023" : ""));
        for (int t : info.threads()) {
            sb.append(' ').append(t).append(t == 1 ? " thread |" : " threads |");
        }
        sb.append(" the article says |\n|---|").append("---|".repeat(info.threads().size())).append("---|\n");
        Map<String, Boolean> claims = exactness(st.kind());
        for (var e : cells.entrySet()) {
            if (e.getKey().equals(empty)) {
                continue;
            }
            sb.append("| ").append(e.getKey()).append(" |");
            for (int t : info.threads()) {
                int runs = 0;
                int inexact = 0;
                long lost = 0;
                long extra = 0;
                for (int d : info.delays()) {
                    CellStats.Exactness x = Report.find(e.getValue(), d, t).exactness();
                    runs += x.runs();
                    inexact += x.inexactRuns();
                    lost = Math.min(lost, x.worstLost());
                    extra = Math.max(extra, x.worstExtra());
                }
                sb.append(inexact == 0 ? String.format(" exact (%d runs) |", runs)
                        : String.format(" %d / +%d (%d of %d runs) |", lost, extra, inexact, runs));
            }
            Boolean claim = claims.get(e.getKey());
            sb.append(claim == null ? " – |" : claim ? " exact |" : " not exact |").append('\n');
        }
        return sb.append('\n').toString(); // a blank line before the block's end marker ends the table
    }

    private static String fmt0(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
