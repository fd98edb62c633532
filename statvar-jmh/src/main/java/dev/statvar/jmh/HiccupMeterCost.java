package dev.statvar.jmh;

import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import dev.statvar.probes.HiccupMeter;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;

/**
 * What a {@link HiccupMeter} costs: the CPU time of its thread per second of wall time (from
 * {@link ThreadMXBean#getThreadCpuTime}), per resolution, and what it recorded meanwhile. Not a
 * JMH benchmark: the meter's cost is its own thread's CPU, not a slowdown of a measured method.
 * The JVM is otherwise idle (only the meter runs), so the recorded hiccups are the machine's and
 * the JVM's background, not a load's.
 *
 * <p>Run: {@code java -cp statvar-jmh/target/benchmarks.jar dev.statvar.jmh.HiccupMeterCost [seconds] [resolutions in ms...]}
 * (default: 10 s each at 1, 10 and 100 ms)
 */
public final class HiccupMeterCost {
    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long[] resolutionsMs = args.length > 1
                ? java.util.Arrays.stream(args, 1, args.length).mapToLong(Long::parseLong).toArray()
                : new long[] {1, 10, 100};
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        if (!mx.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("thread CPU time is not supported by this JVM");
        }
        mx.setThreadCpuTimeEnabled(true);
        System.out.println("resolution  wall_s  cpu_us_per_s  cpu_%_of_core  samples  p50_us  p99_us  p99.9_us  max_us");
        for (long ms : resolutionsMs) {
            StatRegistry r = StatRegistry.create();
            String name = "hiccup_" + ms + "ms";
            try (HiccupMeter m = HiccupMeter.start(r, name, Duration.ofMillis(ms))) {
                Thread t = Thread.getAllStackTraces().keySet().stream()
                        .filter(x -> x.getName().equals(m.threadName())).findFirst().orElseThrow();
                long cpu0 = mx.getThreadCpuTime(t.getId());
                long w0 = System.nanoTime();
                Thread.sleep(seconds * 1000L);
                long cpu1 = mx.getThreadCpuTime(t.getId());
                double wall = (System.nanoTime() - w0) / 1e9;
                double cpuUsPerS = (cpu1 - cpu0) / 1e3 / wall;
                HistogramValue h = r.collect().histogram(name);
                System.out.printf("%7d ms  %6.1f  %12.1f  %13.3f  %7d  %6.1f  %6.1f  %8.1f  %6.1f%n", ms, wall, cpuUsPerS,
                        cpuUsPerS / 1e4, h.count(), h.valueAtPercentile(50) / 1e3, h.valueAtPercentile(99) / 1e3,
                        h.valueAtPercentile(99.9) / 1e3, h.max() / 1e3);
            }
        }
    }
}
