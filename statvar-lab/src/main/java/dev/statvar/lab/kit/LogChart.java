package dev.statvar.lab.kit;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A line chart with a logarithmic y axis (XChart, PNG): one line per series over integer x values
 * (thread counts). Points that are not positive and finite (a hung run, nothing measured) are left
 * out of their line.
 */
public final class LogChart {
    private LogChart() {
    }

    /** Writes the chart to {@code file}; on a machine that cannot render it, says why on {@code out}. */
    public static void write(Path file, String title, String xTitle, String yTitle, List<Integer> x,
                             Map<String, double[]> series, PrintStream out) {
        try {
            XYChart chart = new XYChartBuilder().width(1200).height(750).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
            chart.getStyler().setXAxisDecimalPattern("0");
            for (Map.Entry<String, double[]> e : series.entrySet()) {
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (int i = 0; i < x.size(); i++) {
                    double y = e.getValue()[i];
                    if (y > 0 && Double.isFinite(y)) {
                        xs.add((double) x.get(i));
                        ys.add(y);
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
