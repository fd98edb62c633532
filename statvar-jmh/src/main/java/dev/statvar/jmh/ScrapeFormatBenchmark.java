package dev.statvar.jmh;

import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import dev.statvar.export.StatExporter;
import dev.statvar.prometheus.ClientJavaProtobufExposition;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

/**
 * Issue 33, point 7: one scrape of 1,000 labelled histograms (one family {@code request_duration_nanoseconds},
 * label {@code route}, exposed in seconds; each with 1,000 values log-uniform over 1 µs .. 1 s, about 20
 * octaves: 648 .. 720 populated statvar buckets, 153 native ones on average after the 160-bucket limit lowers the
 * schema to 3 or 2), rendered by
 * statvar-export's text format 0.0.4 ({@link StatExporter#prometheusText()}, then UTF-8 bytes as the endpoint
 * sends them) and by statvar-prometheus' protobuf exposition (classic and native buckets, length-delimited),
 * side by side in one run. The set-up prints the bytes per histogram of each format, raw and gzipped, and
 * checks that both bodies are what they claim (the text has 1,000 {@code _count} lines; the protobuf parses).
 *
 * <p>{@link #main} is a paired measurement for a shared, noisy machine: the two renders alternate, each timed
 * by its thread's CPU time (time spent descheduled by other processes not counted), and the medians and
 * the median of the per-pair ratios are printed: {@code java -cp statvar-jmh/target/benchmarks.jar
 * dev.statvar.jmh.ScrapeFormatBenchmark [pairs]}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class ScrapeFormatBenchmark {
    static final int HISTOGRAMS = 1_000;
    static final int VALUES = 1_000;

    StatExporter exporter;
    Snapshot snapshot;
    ExportOptions options;

    @Setup
    public void setUp() {
        StatRegistry registry = StatRegistry.builder().maxSeriesPerFamily(HISTOGRAMS).build();
        StatFamily<Histogram> family = registry.histogramFamily("request_duration_nanoseconds", "request duration",
                HistogramPrecision.DEFAULT, "route");
        Random rnd = new Random(33);
        for (int i = 0; i < HISTOGRAMS; i++) {
            Histogram h = family.labels("/api/v1/resource" + i);
            for (int k = 0; k < VALUES; k++) {
                h.record((long) Math.pow(10, 3 + 6 * rnd.nextDouble()));
            }
        }
        exporter = StatExporter.of(registry);
        snapshot = registry.collect();
        exporter.accept(snapshot);
        options = exporter.options();
        if (!(exporter.protobufExposition() instanceof ClientJavaProtobufExposition)) {
            throw new IllegalStateException("statvar-prometheus' provider not found: " + exporter.protobufExposition());
        }
        byte[] t = text();
        byte[] p = protobuf();
        String body = new String(t, StandardCharsets.UTF_8);
        int counts = body.split("\nrequest_duration_seconds_count\\{", -1).length - 1;
        if (counts != HISTOGRAMS) {
            throw new IllegalStateException("text: " + counts + " _count lines, expected " + HISTOGRAMS);
        }
        System.out.printf(Locale.ROOT, "%nScrapeFormatBenchmark: %d histograms; bytes per histogram: text %d (gzip %d), "
                        + "protobuf %d (gzip %d)%n", HISTOGRAMS, t.length / HISTOGRAMS, gzip(t) / HISTOGRAMS,
                p.length / HISTOGRAMS, gzip(p) / HISTOGRAMS);
    }

    private static int gzip(byte[] b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.size();
    }

    /**
     * The paired CPU-time measurement (see the class comment).
     *
     * @param args the number of measured pairs (default 200), after 50 unmeasured ones
     */
    public static void main(String[] args) {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        ScrapeFormatBenchmark b = new ScrapeFormatBenchmark();
        b.setUp();
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long[] text = new long[pairs];
        long[] proto = new long[pairs];
        double[] ratio = new double[pairs];
        long sink = 0;
        for (int i = -50; i < pairs; i++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            sink += b.text().length;
            long t1 = cpu.getCurrentThreadCpuTime();
            sink += b.protobuf().length;
            long t2 = cpu.getCurrentThreadCpuTime();
            if (i >= 0) {
                text[i] = t1 - t0;
                proto[i] = t2 - t1;
                ratio[i] = (double) proto[i] / text[i];
            }
        }
        java.util.Arrays.sort(text);
        java.util.Arrays.sort(proto);
        java.util.Arrays.sort(ratio);
        System.out.printf(Locale.ROOT, "ScrapeFormatBenchmark, %d pairs, thread CPU time per scrape: text median %.1f ms "
                        + "(p10 %.1f, p90 %.1f), protobuf median %.1f ms (p10 %.1f, p90 %.1f); protobuf / text per pair: "
                        + "median %.2f (p10 %.2f, p90 %.2f) [%d]%n", pairs, text[pairs / 2] / 1e6, text[pairs / 10] / 1e6,
                text[pairs * 9 / 10] / 1e6, proto[pairs / 2] / 1e6, proto[pairs / 10] / 1e6, proto[pairs * 9 / 10] / 1e6,
                ratio[pairs / 2], ratio[pairs / 10], ratio[pairs * 9 / 10], sink % 10);
    }

    /**
     * statvar-export's text format 0.0.4, as the endpoint sends it. The exporter renders a body once per
     * interval and shares it between scrapes: handing it the snapshot again makes it a new interval, so each
     * call renders (as the first scrape of every interval does).
     */
    @Benchmark
    public byte[] text() {
        exporter.accept(snapshot);
        return exporter.prometheusText().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The protobuf exposition with classic and native buckets, as the endpoint sends it when it negotiates
     * protobuf (statvar-prometheus' provider, found by the exporter); rendered on each call, as {@link #text()}.
     */
    @Benchmark
    public byte[] protobuf() {
        exporter.accept(snapshot);
        return exporter.prometheusProtobuf();
    }
}
