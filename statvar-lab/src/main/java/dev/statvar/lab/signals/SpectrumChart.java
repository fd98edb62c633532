package dev.statvar.lab.signals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.statvar.lab.kit.LogChart;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : series.entrySet()) {
            long count = e.getValue().path("count").asLong();
            List<double[]> line = new ArrayList<>();
            for (JsonNode pt : e.getValue().path("spectrum")) {
                line.add(new double[] {x(pt.get(0).asDouble(), count), pt.get(1).asDouble() / 1e3});
            }
            points.put(e.getKey(), line);
        }
        LogChart.writeLogLog(file, title,
                "percentile, as 1 / (1 - p): 10 = p90, 100 = p99, 1000 = p99.9; the last point is the max",
                "latency, us", points, out);
    }
}
