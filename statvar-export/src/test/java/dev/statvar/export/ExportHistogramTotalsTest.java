package dev.statvar.export;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A histogram's {@code _count}, {@code _sum} and {@code _bucket} lines are everything recorded since
 * registration, whichever intervals the exporter received, as counters' and gauges' totals always were:
 * a manual {@code collect()} beside the collector, a sink before the exporter that throws, an exporter
 * attached after several intervals. Each case records 1,000 values and checks every histogram line (and
 * the counter and gauge beside it) against what was recorded, in both text formats and in /stats.json.
 */
class ExportHistogramTotalsTest {
    private static final int N = 1_000;
    private static final Duration GENEROUS = Duration.ofSeconds(60);

    /** The stats of each case and what they were given. */
    private static final class Recorded {
        final Counter requests;
        final Gauge queue;
        final Histogram latency;
        final Histogram bySize; // a labelled series
        final long[] latencyValues = new long[N];
        final long[] sizeValues = new long[N];
        long queueSum;
        private final Random rnd = new Random(7);
        private int next;

        Recorded(StatRegistry r) {
            requests = r.counter("requests_total", "requests");
            queue = r.gauge("queue", "queue depth");
            latency = r.histogram("latency", "latency, ns");
            bySize = r.histogramFamily("size", "sizes", HistogramPrecision.DEFAULT, "kind").labels("a\"b");
        }

        /** Records the next {@code n} of the N values of each stat. */
        void record(int n) {
            for (int i = 0; i < n; i++, next++) {
                requests.add();
                long q = rnd.nextInt(100);
                queue.report(q);
                queueSum += q;
                latencyValues[next] = next == 0 ? 0 : (long) Math.exp(rnd.nextDouble() * 30); // 0 .. 1e13
                latency.record(latencyValues[next]);
                sizeValues[next] = rnd.nextInt(5_000);
                bySize.record(sizeValues[next]);
            }
        }
    }

    @Test
    void aManualCollectBesideTheCollectorLosesNoHistogramRecord() {
        StatRegistry r = StatRegistry.create();
        Recorded rec = new Recorded(r);
        StatExporter ex = new StatExporter();
        StatCollector collector = r.startCollector(Duration.ofHours(1), ex);
        rec.record(N);
        Snapshot taken = r.collect(); // someone else's collect: this interval never reaches the exporter
        assertEquals(N, taken.histogram("latency").count());
        collector.close(); // delivers the last, partial interval: no record in it
        assertEquals(0, ex.lastSnapshot().histogram("latency").count(), "the exporter saw only an empty interval");
        assertEverythingRecorded(ex, rec);
    }

    @Test
    void aThrowingSinkBeforeTheExporterLosesNoHistogramRecord() throws Exception {
        StatRegistry r = StatRegistry.create();
        Recorded rec = new Recorded(r);
        StatExporter ex = new StatExporter();
        rec.record(N); // all in the first interval, whose delivery the first sink breaks off
        CountDownLatch thrown = new CountDownLatch(1);
        Consumer<Snapshot> failsOnce = s -> {
            if (thrown.getCount() > 0) {
                thrown.countDown();
                throw new IllegalStateException("a sink failing once (expected in this test)");
            }
        };
        StatCollector collector = r.startCollector(Duration.ofMillis(20), failsOnce.andThen(ex));
        try {
            assertTrue(thrown.await(GENEROUS.toMillis(), TimeUnit.MILLISECONDS), "the first interval was delivered");
        } finally {
            collector.close(); // delivers the last interval to both sinks
        }
        assertEverythingRecorded(ex, rec);
    }

    @Test
    void anExporterAttachedLateShowsEverythingRecordedSinceRegistration() {
        StatRegistry r = StatRegistry.create();
        Recorded rec = new Recorded(r);
        for (int interval = 0; interval < 3; interval++) { // three intervals before the exporter exists
            rec.record(N / 4);
            r.collect();
        }
        rec.record(N - 3 * (N / 4));
        StatExporter ex = new StatExporter();
        ex.accept(r.collect()); // its first snapshot
        assertEverythingRecorded(ex, rec);
        ex.accept(r.collect()); // and an empty interval after it changes nothing
        assertEverythingRecorded(ex, rec);
    }

    /** Every line of the counter, the gauge summary and both histograms equals what was recorded, in every format. */
    private static void assertEverythingRecorded(StatExporter ex, Recorded rec) {
        for (Exposition.Format f : Exposition.Format.values()) {
            boolean om = f == Exposition.Format.OPENMETRICS_100;
            String text = om ? ex.openMetricsText() : ex.prometheusText();
            ExpositionTest.Parsed p = ExpositionTest.parse(text, om);
            ExpositionTest.checkInvariants(p, f);
            assertEquals(Long.toString(N), ExpositionTest.find(p, "requests_total", Map.of()).value(), f + " counter");
            assertEquals(Long.toString(N), ExpositionTest.find(p, "queue_count", Map.of()).value(), f + " gauge count");
            assertEquals(Long.toString(rec.queueSum), ExpositionTest.find(p, "queue_sum", Map.of()).value(), f + " gauge sum");
            assertHistogram(p, "latency", Map.of(), rec.latencyValues, f);
            assertHistogram(p, "size", Map.of("kind", "a\"b"), rec.sizeValues, f);
        }
        String json = ex.json();
        assertJsonTotal(json, "\"name\":\"latency\"", rec.latencyValues);
        assertJsonTotal(json, "\"name\":\"size\"", rec.sizeValues);
    }

    /** {@code _count}, {@code _sum}, and each {@code _bucket} (the number of values {@code <= le}), +Inf included. */
    private static void assertHistogram(ExpositionTest.Parsed p, String name, Map<String, String> labels, long[] values,
                                        Exposition.Format f) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        assertEquals(Long.toString(values.length), ExpositionTest.find(p, name + "_count", labels).value(), f + " " + name + "_count");
        assertEquals(Long.toString(sum), ExpositionTest.find(p, name + "_sum", labels).value(), f + " " + name + "_sum");
        int buckets = 0;
        for (ExpositionTest.Sample s : p.samples()) {
            if (!s.name().equals(name + "_bucket")) {
                continue;
            }
            Map<String, String> rest = new java.util.HashMap<>(s.labels());
            String le = rest.remove("le");
            if (!rest.equals(labels)) {
                continue;
            }
            long expected = 0;
            if (le.equals("+Inf")) {
                expected = values.length;
            } else {
                double bound = Double.parseDouble(le); // an integer bucket bound, exact as a double below 2^53
                for (long v : values) {
                    if (v <= bound) {
                        expected++;
                    }
                }
            }
            assertEquals(Long.toString(expected), s.value(), f + " " + name + "_bucket{le=\"" + le + "\"}");
            buckets++;
        }
        assertEquals(ExportOptions.defaultBoundaries().length + 1, buckets, f + " " + name + ": every default boundary and +Inf");
    }

    private static void assertJsonTotal(String json, String stat, long[] values) {
        long sum = 0;
        for (long v : values) {
            sum += v;
        }
        int at = json.indexOf(stat);
        assertTrue(at >= 0, json);
        int total = json.indexOf("\"total\":", at);
        String expected = "\"total\":{\"count\":" + values.length + ",\"sum\":" + sum + ",";
        assertEquals(expected, json.substring(total, total + expected.length()), "/stats.json total of " + stat);
    }
}
