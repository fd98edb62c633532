package dev.statvar.lab.counters;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A study's charts (XChart, PNG): for each delay factor, time per op against threads, one line
 * per implementation and a dashed line for the base (the loop without the update). The y axis
 * is logarithmic and shows the whole time per op (not minus the base, which can be negative):
 * an implementation's cost is its distance above the base line.
 * <ul>
 *   <li>{@code <study>-delay-<d>.png}: wall time per op, thread counts up to the core count;</li>
 *   <li>{@code <study>-delay-<d>-cpu.png}: thread CPU time per op, every thread count (valid
 *       when oversubscribed).</li>
 * </ul>
 */
final class Charts {
    /**
     * Below this a time per op is not drawn on the log axis: a loop the JIT optimised away (the
     * base at delay 0); the chart names what it leaves out.
     */
    static final double MIN_DRAWN_NS = 0.01;

    private Charts() {
    }

    /** Writes the charts into {@code dir}; on a machine that cannot render them, says why and returns none. */
    static List<Path> write(Catalog.Kind kind, RunInfo info, Map<String, List<CellStats>> cells, Path dir, PrintStream out) {
        List<Path> files = new ArrayList<>();
        String study = kind.name().toLowerCase(Locale.ROOT);
        try {
            for (int d : info.delays()) {
                List<Integer> fit = new ArrayList<>();
                for (int t : info.threads()) {
                    if (t <= info.cores()) {
                        fit.add(t);
                    }
                }
                if (!fit.isEmpty()) {
                    files.add(chart(study, d, fit, cells, false, dir.resolve(study + "-delay-" + d)));
                }
                if (fit.size() < info.threads().size()) {
                    files.add(chart(study, d, info.threads(), cells, true, dir.resolve(study + "-delay-" + d + "-cpu")));
                }
            }
        } catch (Exception | LinkageError e) {
            // e.g. a JDK without AWT, or no fonts: the tables, CSV and JSON are still complete
            out.printf("%ncharts not drawn: %s (install fonts, e.g. Debian's fonts-dejavu-core, and a JDK with"
                    + " java.desktop)%n", e);
        }
        return files;
    }

    private static Path chart(String study, int delay, List<Integer> threads, Map<String, List<CellStats>> cells,
                              boolean cpu, Path file) throws java.io.IOException {
        XYChart chart = new XYChartBuilder().width(1400).height(850)
                .title(String.format(Locale.ROOT, "%s, delay factor %d: %s per op (log scale; dashed: the base, no update)",
                        study, delay, cpu ? "thread CPU time" : "wall time"))
                .xAxisTitle("threads" + (cpu ? " (above the core count: oversubscribed)" : ""))
                .yAxisTitle(cpu ? "CPU ns per op" : "ns per op").build();
        Styler s = chart.getStyler();
        chart.getStyler().setYAxisLogarithmic(true);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setXAxisDecimalPattern("0");
        double[] x = new double[threads.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = threads.get(i);
        }
        boolean baseDrawn = false;
        List<String> skipped = new ArrayList<>();
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (var e : cells.entrySet()) {
            if (!baseDrawn) {
                // the base of the first implementation's JVM (each JVM measures its own)
                double[] b = series(e.getValue(), delay, threads, cpu, true);
                if (b != null) {
                    for (double v : b) {
                        lo = Math.min(lo, v);
                        hi = Math.max(hi, v);
                    }
                    XYSeries bs = chart.addSeries("base (no update)", x, b);
                    bs.setLineColor(Color.BLACK);
                    bs.setMarkerColor(Color.BLACK);
                    bs.setLineStyle(SeriesLines.DASH_DASH);
                    bs.setMarker(SeriesMarkers.NONE);
                    bs.setLineWidth(2f);
                } else {
                    skipped.add("the base");
                }
                baseDrawn = true;
            }
            double[] y = series(e.getValue(), delay, threads, cpu, false);
            if (y == null) {
                skipped.add(e.getKey());
                continue;
            }
            for (double v : y) {
                lo = Math.min(lo, v);
                hi = Math.max(hi, v);
            }
            XYSeries series = chart.addSeries(e.getKey(), x, y);
            if (e.getKey().startsWith("statvar")) { // ours stand out
                Color c = e.getKey().contains("localView") ? new Color(0xB0, 0, 0) : new Color(0xFF, 0x40, 0x40);
                series.setLineColor(c);
                series.setMarkerColor(c);
                series.setLineStyle(SeriesLines.SOLID);
                series.setMarker(SeriesMarkers.DIAMOND);
                series.setLineWidth(3.5f);
            } else {
                series.setLineWidth(1.5f);
            }
        }
        if (hi > 0) { // whole decades, so that the log axis labels at least two of them
            chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lo))));
            chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(hi * 1.0001))));
        }
        if (!skipped.isEmpty()) {
            chart.setXAxisTitle(chart.getXAxisTitle() + "    [not drawn, below " + MIN_DRAWN_NS
                    + " ns per op (a loop the JIT optimised away): " + String.join(", ", skipped) + "]");
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        return Path.of(file + ".png");
    }

    /** The series, or null when a point is too small to draw on a log axis. */
    private static double[] series(List<CellStats> cells, int delay, List<Integer> threads, boolean cpu, boolean base) {
        double[] y = new double[threads.size()];
        for (int i = 0; i < y.length; i++) {
            CellStats c = Report.find(cells, delay, threads.get(i));
            y[i] = cpu ? (base ? c.baseCpu() : c.cpu()).mean() : (base ? c.base() : c.wall()).mean();
            if (!(y[i] >= MIN_DRAWN_NS)) {
                return null;
            }
        }
        return y;
    }
}
