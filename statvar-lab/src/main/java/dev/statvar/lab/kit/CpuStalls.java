package dev.statvar.lab.kit;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * What kept this machine's runnable threads off a CPU during a window, from the three places Linux
 * counts it, so that a study can say which one caused a delay instead of guessing:
 * <ul>
 *   <li><b>steal</b>: time the hypervisor ran something else on this guest's vCPUs
 *       ({@code /proc/stat}, line {@code cpu}, the 8th number, in USER_HZ ticks of 10 ms);</li>
 *   <li><b>throttling</b>: periods in which the process's cgroup used up its CPU quota and was stopped
 *       until the next period ({@code cpu.stat}: {@code nr_throttled} and {@code throttled_usec} in
 *       cgroup v2, {@code throttled_time} ns in v1), and the quota itself ({@code cpu.max} or
 *       {@code cpu.cfs_quota_us / cpu.cfs_period_us}; "none" when unlimited);</li>
 *   <li><b>CPU pressure</b>: time in which at least one runnable thread waited for a CPU, summed over the
 *       machine ({@code /proc/pressure/cpu}, {@code some total=} in µs): the scheduler's queueing.</li>
 * </ul>
 * {@link #now()} reads all three; {@link Snapshot#until} gives the window between two readings. A
 * counter this kernel does not expose is -1 in both, and its difference -1 ("not available").
 * Reading costs a few file reads (microseconds); the studies read before and after a child JVM, in the
 * parent, so the measured JVM runs nothing extra.
 */
public final class CpuStalls {
    /** USER_HZ: /proc/stat's tick, fixed at 100 per second by the kernel's ABI. */
    static final int TICKS_PER_SECOND = 100;

    private CpuStalls() {
    }

    /** The counters at one moment (-1: not available here). */
    public record Snapshot(long stealTicks, long pressureSomeUs, long throttledPeriods, long throttledUs, String quota) {
        /** The window from this reading to {@code later}. */
        public Window until(Snapshot later) {
            return new Window(stealMs(later), pressureMs(later), diff(later.throttledPeriods, throttledPeriods),
                    diff(later.throttledUs, throttledUs) < 0 ? -1 : diff(later.throttledUs, throttledUs) / 1000.0, later.quota, -1, -1);
        }

        double stealMs(Snapshot later) {
            long d = diff(later.stealTicks, stealTicks);
            return d < 0 ? -1 : d * 1000.0 / TICKS_PER_SECOND;
        }

        double pressureMs(Snapshot later) {
            long d = diff(later.pressureSomeUs, pressureSomeUs);
            return d < 0 ? -1 : d / 1000.0;
        }

        private static long diff(long later, long earlier) {
            return later < 0 || earlier < 0 ? -1 : later - earlier;
        }
    }

    /**
     * A window's stalls: steal (ms, summed over the vCPUs), CPU pressure (ms in which some runnable
     * thread waited), the cgroup's throttled periods and throttled time (ms), and its quota; -1 where the
     * kernel does not say.
     */
    public record Window(@JsonProperty("steal_ms") double stealMs, @JsonProperty("cpu_pressure_ms") double pressureMs,
                         @JsonProperty("throttled_periods") long throttledPeriods,
                         @JsonProperty("throttled_ms") double throttledMs, @JsonProperty("cgroup_cpu_quota") String quota,
                         @JsonProperty("peak_steal_ms") double peakStealMs, @JsonProperty("peak_cpu_pressure_ms") double peakPressureMs) {
        /** One line for a report: {@code steal 12.0 ms (at most 10.0 in 100 ms), CPU pressure ..., cgroup throttled 0 periods (0.0 ms; quota none)}. */
        public String line() {
            return String.format(Locale.ROOT, "steal %s%s, CPU pressure %s%s, cgroup throttled %s periods (%s; quota %s)",
                    ms(stealMs), peak(peakStealMs), ms(pressureMs), peak(peakPressureMs),
                    throttledPeriods < 0 ? "n/a" : Long.toString(throttledPeriods), ms(throttledMs), quota);
        }

        private static String peak(double v) {
            return v < 0 ? "" : String.format(Locale.ROOT, " (at most %.1f ms in one %d ms window)", v, Watch.EVERY_MS);
        }

        private static String ms(double v) {
            return v < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f ms", v);
        }
    }

    /**
     * A window read every {@value #EVERY_MS} ms by a daemon thread of the reading (parent) process, so
     * that the largest steal and pressure within one such window are known beside the totals: a delay of
     * a measured thread that long can then be set beside them. Started by {@link #watch()}; {@link #stop()}
     * ends it. One owner thread calls {@link #stop()}; the sampling thread's peaks are published to it by
     * {@link Thread#join} (JLS 17.4.5: the sampler's actions happen-before join's return).
     */
    public static final class Watch {
        static final int EVERY_MS = 100;
        private final Snapshot first = now();
        private final Thread sampler;
        private volatile boolean stopped; // written by the owner in stop(), read by the sampler each round
        private double peakSteal; // written by the sampler only; read by the owner after join
        private double peakPressure;

        private Watch() {
            sampler = new Thread(this::sample, "cpu-stalls");
            sampler.setDaemon(true);
            sampler.start();
        }

        private void sample() {
            Snapshot last = first;
            while (!stopped) {
                try {
                    Thread.sleep(EVERY_MS);
                } catch (InterruptedException e) {
                    return;
                }
                Snapshot s = now();
                peakSteal = Math.max(peakSteal, last.stealMs(s));
                peakPressure = Math.max(peakPressure, last.pressureMs(s));
                last = s;
            }
        }

        /** The window since {@link #watch()}, with its peaks. */
        public Window stop() throws InterruptedException {
            stopped = true;
            sampler.join();
            Window w = first.until(now());
            return new Window(w.stealMs(), w.pressureMs(), w.throttledPeriods(), w.throttledMs(), w.quota(),
                    w.stealMs() < 0 ? -1 : peakSteal, w.pressureMs() < 0 ? -1 : peakPressure);
        }
    }

    /** Starts a {@link Watch}: the window from now until its {@link Watch#stop()}. */
    public static Watch watch() {
        return new Watch();
    }

    /** {@link Window#line()} of a window written into a JSON object (its fields beside others'). */
    public static String describe(com.fasterxml.jackson.databind.JsonNode n) {
        return new Window(n.path("steal_ms").asDouble(-1), n.path("cpu_pressure_ms").asDouble(-1), n.path("throttled_periods").asLong(-1),
                n.path("throttled_ms").asDouble(-1), n.path("cgroup_cpu_quota").asText("unknown"), n.path("peak_steal_ms").asDouble(-1),
                n.path("peak_cpu_pressure_ms").asDouble(-1)).line();
    }

    /** The counters now. */
    public static Snapshot now() {
        Path cg = cgroupDir();
        long periods = -1;
        long throttledUs = -1;
        String quota = "unknown";
        if (cg != null) {
            for (String l : lines(cg.resolve("cpu.stat"))) {
                String[] f = l.trim().split("\\s+");
                if (f.length != 2) {
                    continue;
                }
                switch (f[0]) {
                    case "nr_throttled" -> periods = parse(f[1]);
                    case "throttled_usec" -> throttledUs = parse(f[1]); // v2
                    case "throttled_time" -> throttledUs = parse(f[1]) < 0 ? -1 : parse(f[1]) / 1000; // v1: ns
                    default -> { }
                }
            }
            quota = quota(cg);
        }
        return new Snapshot(steal(), pressure(), periods, throttledUs, quota);
    }

    /** The cgroup directory holding this process's CPU controller files (v2, or v1's cpu controller), or null. */
    static Path cgroupDir() {
        String v2 = null;
        String v1 = null;
        for (String l : lines(Path.of("/proc/self/cgroup"))) {
            String[] f = l.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            if (f[0].equals("0") && f[1].isEmpty()) {
                v2 = f[2];
            } else if (List.of(f[1].split(",")).contains("cpu")) {
                v1 = f[2];
            }
        }
        if (v1 != null && Files.exists(Path.of("/sys/fs/cgroup/cpu", v1, "cpu.stat"))) {
            return Path.of("/sys/fs/cgroup/cpu", v1);
        }
        if (v2 != null && Files.exists(Path.of("/sys/fs/cgroup", v2, "cpu.stat"))) {
            return Path.of("/sys/fs/cgroup", v2);
        }
        return null;
    }

    private static String quota(Path cg) {
        List<String> max = lines(cg.resolve("cpu.max"));
        if (!max.isEmpty()) { // v2: "<quota|max> <period>"
            String[] f = max.get(0).trim().split("\\s+");
            return f[0].equals("max") ? "none" : f[0] + " µs per " + (f.length > 1 ? f[1] : "?") + " µs";
        }
        List<String> q = lines(cg.resolve("cpu.cfs_quota_us"));
        List<String> p = lines(cg.resolve("cpu.cfs_period_us"));
        if (q.isEmpty()) {
            return "unknown";
        }
        return q.get(0).trim().equals("-1") ? "none" : q.get(0).trim() + " µs per " + (p.isEmpty() ? "?" : p.get(0).trim()) + " µs";
    }

    private static long steal() {
        for (String l : lines(Path.of("/proc/stat"))) {
            if (l.startsWith("cpu ")) {
                String[] f = l.trim().split("\\s+");
                return f.length > 8 ? parse(f[8]) : -1;
            }
        }
        return -1;
    }

    private static long pressure() {
        for (String l : lines(Path.of("/proc/pressure/cpu"))) {
            if (l.startsWith("some ")) {
                int at = l.indexOf("total=");
                return at < 0 ? -1 : parse(l.substring(at + 6).trim());
            }
        }
        return -1;
    }

    private static long parse(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
