package dev.statvar.lab.hiccups;

import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import dev.statvar.lab.kit.ChildProcess;
import dev.statvar.lab.kit.JfrStream;
import dev.statvar.lab.kit.Machine;
import dev.statvar.probes.HiccupMeter;
import jdk.jfr.consumer.RecordedEvent;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The hiccups study's child JVM: statvar-probes' {@link HiccupMeter} runs through one
 * {@link Disturbance} while JFR records the JVM's own account of its pauses (every
 * {@code jdk.GCPhasePause} and every {@code jdk.ExecuteVMOperation} run at a safepoint). Usage:
 * {@code HiccupsRunner DISTURBANCE SECONDS RESOLUTION_MS}; prints a {@code PROGRESS} line and one
 * {@code RESULT <json>} line. A second of the meter alone comes first and is discarded (its thread
 * starting, the JIT), so the result covers the disturbance only. JFR's pauses count if they ended
 * by the moment the disturbance stopped; the histogram is collected {@link #SETTLE} (plus two
 * resolutions) after that, so the meter has woken up from each of them.
 */
public final class HiccupsRunner {
    private HiccupsRunner() {
    }

    public static void main(String[] args) throws Exception {
        Disturbance d = Disturbance.valueOf(args[0]);
        double seconds = Double.parseDouble(args[1]);
        long resolutionMs = Long.parseLong(args[2]);
        System.out.printf(Locale.ROOT, "PROGRESS %s%n", d);
        System.out.flush();
        ChildProcess.printResult(run(d, seconds, resolutionMs));
        System.out.flush();
    }

    /**
     * The JVM's pauses as JFR reports them, those that ended by {@code until} only: written by the
     * stream's thread, read under this monitor. JFR goes on recording after the meter's histogram
     * is collected (until a flush, up to a second, and its own safepoint operations on the way), so
     * a pause that ends after {@code until} may be one the meter was never asked about.
     */
    private static final class Pauses {
        private Instant until = Instant.MAX;
        long gcCount;
        long gcLongest;
        long gcTotal;
        long opCount;
        long opLongest;
        long opTotal;

        /** Pauses ending after this are left out: the meter's window ends here. */
        synchronized void until(Instant end) {
            until = end;
        }

        synchronized void gc(RecordedEvent e) {
            if (e.getEndTime().isAfter(until)) {
                return;
            }
            long d = e.getDuration().toNanos();
            gcCount++;
            gcTotal += d;
            gcLongest = Math.max(gcLongest, d);
        }

        synchronized void op(RecordedEvent e) {
            if (!e.getBoolean("safepoint") || e.getEndTime().isAfter(until)) {
                return;
            }
            long d = e.getDuration().toNanos();
            opCount++;
            opTotal += d;
            opLongest = Math.max(opLongest, d);
        }

        synchronized void into(Map<String, Object> r) {
            r.put("jfr_gc_pauses", gcCount);
            r.put("jfr_gc_longest_ns", gcLongest);
            r.put("jfr_gc_total_ns", gcTotal);
            r.put("jfr_safepoint_ops", opCount);
            r.put("jfr_safepoint_op_longest_ns", opLongest);
            r.put("jfr_safepoint_op_total_ns", opTotal);
        }
    }

    /** How long after the disturbance stops the meter's histogram is collected (plus two resolutions). */
    static final Duration SETTLE = Duration.ofMillis(100);

    static Map<String, Object> run(Disturbance d, double seconds, long resolutionMs) throws InterruptedException {
        StatRegistry registry = StatRegistry.create();
        Pauses pauses = new Pauses();
        JfrStream jfr = new JfrStream();
        jfr.stream().enable("jdk.GCPhasePause").withThreshold(Duration.ZERO);
        jfr.stream().enable("jdk.ExecuteVMOperation").withThreshold(Duration.ZERO);
        jfr.stream().onEvent("jdk.GCPhasePause", pauses::gc);
        jfr.stream().onEvent("jdk.ExecuteVMOperation", pauses::op);
        HistogramValue h;
        try (HiccupMeter meter = HiccupMeter.start(registry, "hiccup", Duration.ofMillis(resolutionMs))) {
            Thread.sleep(1000);
            registry.collect(); // the meter's first second: discarded
            jfr.start();
            d.start(Machine.cores());
            Thread.sleep((long) (seconds * 1000));
            d.stop();
            pauses.until(Instant.now());
            // The meter records a pause when its sleep ends after it: give it SETTLE to wake up and
            // record every pause that ended by `until`, then collect.
            Thread.sleep(SETTLE.toMillis() + 2 * resolutionMs);
            h = registry.collect().histogram("hiccup");
        } finally {
            jfr.stopAfterFlush();
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("disturbance", d.name());
        r.put("design", d.design);
        r.put("seconds", seconds);
        r.put("resolution_ms", resolutionMs);
        r.put("count", h.count());
        for (double p : new double[] {50, 90, 99, 99.9}) {
            r.put(p == 99.9 ? "p99_9_ns" : "p" + (int) p + "_ns", h.count() == 0 ? 0 : h.valueAtPercentile(p));
        }
        r.put("max_ns", h.count() == 0 ? 0 : h.max());
        pauses.into(r);
        return r;
    }
}
