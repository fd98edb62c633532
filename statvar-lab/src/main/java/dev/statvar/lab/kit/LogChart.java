package dev.statvar.lab.kit;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Line charts with a logarithmic y axis (XChart, PNG), one line per series: over integer x values
 * (thread counts, {@link #write}) or over points of their own on a logarithmic x axis as well
 * ({@link #writeLogLog}, HdrHistogram's percentile spectrum). Points that are not positive and finite
 * (a hung run, nothing measured) are left out of their line.
 */
public final class LogChart {
    private LogChart() {
    }

    /**
     * Writes the chart of {@code series} (name to one y per {@code x}) to {@code file}; on a machine
     * that cannot render it, says why on {@code out}.
     */
    public static void write(Path file, String title, String xTitle, String yTitle, List<Integer> x,
                             Map<String, double[]> series, PrintStream out) {
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        for (Map.Entry<String, double[]> e : series.entrySet()) {
            List<double[]> line = new ArrayList<>();
            for (int i = 0; i < x.size(); i++) {
                line.add(new double[] {x.get(i), e.getValue()[i]});
            }
            points.put(e.getKey(), line);
        }
        draw(file, title, xTitle, yTitle, false, points, out);
    }

    /**
     * Writes a chart with both axes logarithmic; {@code series}: name to its {x, y} points in order.
     * On a machine that cannot render it, says why on {@code out}.
     */
    public static void writeLogLog(Path file, String title, String xTitle, String yTitle,
                                   Map<String, List<double[]>> series, PrintStream out) {
        draw(file, title, xTitle, yTitle, true, series, out);
    }

    private static void draw(Path file, String title, String xTitle, String yTitle, boolean logX,
                             Map<String, List<double[]>> series, PrintStream out) {
        try {
            XYChart chart = new XYChartBuilder().width(1200).height(750).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setXAxisLogarithmic(logX);
            chart.getStyler().setLegendPosition(logX ? Styler.LegendPosition.InsideNW : Styler.LegendPosition.OutsideE);
            if (!logX) {
                chart.getStyler().setXAxisDecimalPattern("0");
            }
            for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (double[] p : e.getValue()) {
                    if (p[1] > 0 && Double.isFinite(p[1]) && (!logX || p[0] > 0)) {
                        xs.add(p[0]);
                        ys.add(p[1]);
                    }
                }
                if (!xs.isEmpty()) {
                    chart.addSeries(e.getKey(), xs, ys);
                }
            }
            if (chart.getSeriesMap().isEmpty()) {
                return;
            }
            String name = file.toString();
            BitmapEncoder.saveBitmap(chart, name.endsWith(".png") ? name.substring(0, name.length() - 4) : name,
                    BitmapEncoder.BitmapFormat.PNG);
        } catch (Exception | Error e) { // headless machines without fonts throw Errors from AWT
            out.println("chart " + file.getFileName() + " not drawn: " + e);
        }
    }
}
