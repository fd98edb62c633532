package dev.statvar.lab.signals;

import com.fasterxml.jackson.databind.JsonNode;
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
 * A percentile spectrum as HdrHistogram plots it: x is {@code 1 / (1 - p/100)} on a log axis
 * (1 at the median's left, 10 at p90, 1,000 at p99.9; the maximum drawn at x = count), y the
 * latency in µs on a log axis; one line per series.
 */
final class SpectrumChart {
    private SpectrumChart() {
    }

    /** x of percentile {@code p} in a distribution of {@code count} values. */
    static double x(double p, long count) {
        return p >= 100 ? Math.max(count, 1) : 1 / (1 - p / 100);
    }

    /** Writes one chart; {@code series}: name to a cell's {@code spectrum} ([[p, ns], ...]) and count. */
    static void write(Path file, String title, Map<String, JsonNode> series, PrintStream out) {
        try {
            XYChart chart = new XYChartBuilder().width(1200).height(750).title(title)
                    .xAxisTitle("percentile, as 1 / (1 - p): 10 = p90, 100 = p99, 1000 = p99.9; the last point is the max")
                    .yAxisTitle("latency, us").build();
            chart.getStyler().setXAxisLogarithmic(true);
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNW);
            for (Map.Entry<String, JsonNode> e : series.entrySet()) {
                long count = e.getValue().path("count").asLong();
                List<Double> xs = new ArrayList<>();
                List<Double> ys = new ArrayList<>();
                for (JsonNode pt : e.getValue().path("spectrum")) {
                    double v = pt.get(1).asDouble() / 1e3;
                    if (v > 0) {
                        xs.add(x(pt.get(0).asDouble(), count));
                        ys.add(v);
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
