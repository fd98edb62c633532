package dev.statvar.lab.throughput;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

/**
 * The study's charts (XChart, PNG): ops per second against the second, one line per run.
 * {@code throughput.png}: each implementation alone (linear axis, so that levels show as levels);
 * {@code throughput-pitfalls.png}: every run (log axis: their rates are decades apart).
 */
final class ThroughputChart {
    private ThroughputChart() {
    }

    /** Writes the charts; on a machine that cannot render them, says why. */
    static void write(List<RunData> runs, Path dir, PrintStream out) {
        try {
            chart(runs, r -> r.label.equals("queue") || r.label.equals("ring"), false,
                    "each implementation alone in a fresh JVM: ops per second, each second", dir.resolve("throughput"));
            if (runs.stream().anyMatch(r -> r.label.contains("-"))) {
                chart(runs, r -> true, true, "every run, the pitfalls' too (log scale)", dir.resolve("throughput-pitfalls"));
            }
        } catch (Exception | LinkageError e) {
            out.printf("%ncharts not drawn: %s (install fonts, e.g. Debian's fonts-dejavu-core, and a JDK with java.desktop)%n", e);
        }
    }

    private static void chart(List<RunData> runs, Predicate<RunData> which, boolean log, String title, Path file) throws IOException {
        XYChart chart = new XYChartBuilder().width(1200).height(700).title(title).xAxisTitle("second")
                .yAxisTitle("ops per second (values consumed)").build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(log);
        chart.getStyler().setXAxisDecimalPattern("0");
        boolean any = false;
        for (RunData r : runs) {
            if (!which.test(r)) {
                continue;
            }
            List<TimelineSecond> full = r.seconds.stream().filter(x -> !x.partial() && x.total() > 0).toList();
            if (full.isEmpty()) {
                continue;
            }
            double[] x = full.stream().mapToDouble(TimelineSecond::second).toArray();
            double[] y = full.stream().mapToDouble(TimelineSecond::rate).toArray();
            chart.addSeries(r.label, x, y);
            any = true;
        }
        if (any) {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        }
    }
}
