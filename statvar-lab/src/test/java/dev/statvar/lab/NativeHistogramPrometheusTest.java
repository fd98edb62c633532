package dev.statvar.lab;

import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.testkit.PrometheusServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Tag;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus (Debian's {@code prometheus}, 2.40+) started with {@code --enable-feature=native-histograms}
 * scrapes the demo every second; with statvar-prometheus on the class path the scrape negotiates the
 * protobuf format and Prometheus stores native histograms. Checked: {@code histogram_quantile(0.5 | 0.9 |
 * 0.99, rate(x[10m]))} on the native histogram within 3 % of statvar's own percentiles of the same
 * window, and {@code histogram_count}/{@code histogram_sum} equal to statvar's totals; printed side by
 * side. The window: a histogram the test records into only after Prometheus has scraped it empty, so the
 * rate's range holds exactly what statvar counted. Thorough tier (tag {@code thorough}: {@code -Pthorough}, or
 * {@code STATVAR_THOROUGH=true} as {@code .ci/run} sets): about a minute. Skipped where the binary is missing, unless
 * {@code STATVAR_REQUIRE_PROMETHEUS=true}.
 */
@Tag("thorough")
@Timeout(300)
class NativeHistogramPrometheusTest {
    /** Recorded by this test only, in nanoseconds, exposed in seconds as {@code check_duration_seconds}. */
    static final String CHECK = "check_duration";
    static final String EXPOSED = CHECK + "_seconds";
    static final Duration TRAFFIC = Duration.ofSeconds(32);
    /** The bound: the native estimate within 3 % of statvar's own percentile. */
    static final double MAX_RELATIVE_DIFFERENCE = 0.03;

    @Test
    void prometheusStoresNativeHistogramsAndItsQuantilesMatchStatvars() throws Exception {
        try (Demo demo = Demo.start("127.0.0.1", 0, 2, Duration.ofMillis(200), null, r -> new ReentrantLock(), CHECK);
             PrometheusServer prom = PrometheusServer.scraping(demo.port(), List.of("--enable-feature=native-histograms"))) {
            Histogram check = demo.registry().histogram(CHECK, "latency check, ns");
            // histogram_count() of a classic histogram's series name is empty: a value means a native histogram
            prom.awaitValue("histogram_count(" + EXPOSED + ")", 0);
            SplittableRandom rnd = new SplittableRandom(33);
            long deadline = System.nanoTime() + TRAFFIC.toNanos();
            long recorded = 0;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < 500; i++) { // log-uniform 10 us .. 1 s
                    check.record((long) Math.exp(Math.log(10_000) + rnd.nextDouble() * Math.log(100_000)));
                }
                recorded += 500;
                Thread.sleep(5);
            }
            demo.finish(); // workers joined, the last interval handed to the exporter
            HistogramValue totals = demo.exporter().lastSnapshot().histogram(CHECK).totals();
            assertEquals(recorded, totals.count());
            prom.awaitValue("histogram_count(" + EXPOSED + ")", recorded);
            long handled = demo.handled();
            prom.awaitValue("sum(histogram_count(" + Demo.DURATION + "_seconds))", handled);
            assertEquals("", prom.targetLastError());

            double sum = prom.query("histogram_sum(" + EXPOSED + ")");
            double expectedSum = totals.sum() / 1e9;
            List<String> lines = new ArrayList<>();
            List<String> failures = new ArrayList<>();
            lines.add(String.format(Locale.ROOT, "histogram_count(%s) = %d, statvar %d; histogram_sum = %.9f s, statvar %.9f s",
                    EXPOSED, recorded, totals.count(), sum, expectedSum));
            if (Math.abs(sum - expectedSum) > 1e-9 * expectedSum) {
                failures.add("histogram_sum " + sum + " != statvar's " + expectedSum);
            }
            lines.add("quantile  PromQL histogram_quantile(q, rate(" + EXPOSED + "[10m]))  statvar valueAtPercentile  difference");
            for (double q : new double[]{0.5, 0.9, 0.99}) {
                double promq = prom.query("histogram_quantile(" + q + ", rate(" + EXPOSED + "[10m]))");
                double own = totals.valueAtPercentile(q * 100) / 1e9;
                double diff = promq / own - 1;
                lines.add(String.format(Locale.ROOT, "%-8s  %.6f s%36s%.6f s%18s%+.2f %%", q, promq, "", own, "", diff * 100));
                if (!(Math.abs(diff) <= MAX_RELATIVE_DIFFERENCE)) {
                    failures.add(String.format(Locale.ROOT, "q%s: %.6f vs %.6f (%+.2f %%)", q, promq, own, diff * 100));
                }
            }
            System.out.println("== native histograms on a real Prometheus (protobuf scrape), " + recorded + " values");
            lines.forEach(l -> System.out.println("   " + l));
            assertTrue(failures.isEmpty(), String.join("; ", failures) + "\n" + String.join("\n", lines));
        }
    }
}
