package dev.statvar.lab.throughput;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One second of a {@link Timeline}: what each worker counted in it, how long it really was, and
 * what the JVM and the OS did meanwhile. Immutable; its arrays are copies.
 *
 * @param second       0, 1, ...: the interval's number, counted from the timeline's start
 * @param partial      whether it is the last, shorter interval closed when the timeline finished
 *                     (its counts belong to the total, its rate to no statistic)
 * @param millis       the interval's real length, ms (the sampler wakes up a little late at times:
 *                     rates divide by this, not by 1,000)
 * @param ops          each worker's count in the interval (statvar counter, exact)
 * @param total        the sum of the workers counted in the total (see {@link Timeline.Worker})
 * @param compilations JIT compilations finished in the interval, OSR ones included (JFR
 *                     {@code jdk.Compilation}, the whole JVM's)
 * @param osr          of them, on-stack-replacement compilations ({@code isOsr})
 * @param gcPauseMillis the sum of GC pauses that began in the interval (JFR
 *                     {@code jdk.GarbageCollection}, {@code sumOfPauses}), ms
 * @param migrations   each worker's moves to another CPU seen in the interval (the
 *                     {@code processor} field of its {@code /proc/self/task/<tid>/stat}, polled;
 *                     -1: the worker's thread was not found)
 * @param cpus         the CPU each worker was last seen on (-1: not seen)
 * @param startNanos   when the interval began, {@link System#nanoTime()} of the JVM that measured it
 * @param endNanos     when it ended (right before its collect), the same clock
 * @param sharedCpu    the fraction of the interval's polls in which two workers were last seen on
 *                     the same CPU (then they took turns on it instead of running side by side)
 */
public record TimelineSecond(int second, boolean partial, long startNanos, long endNanos, double millis, long[] ops, long total, int compilations,
                             int osr, double gcPauseMillis, int[] migrations, int[] cpus, double sharedCpu) {
    public TimelineSecond {
        ops = ops.clone();
        migrations = migrations.clone();
        cpus = cpus.clone();
    }

    /** The total's rate, ops per second of real time. */
    public double rate() {
        return millis > 0 ? total * 1000.0 / millis : 0;
    }

    /** Worker {@code w}'s rate, ops per second. */
    public double rate(int w) {
        return millis > 0 ? ops[w] * 1000.0 / millis : 0;
    }

    @Override
    public long[] ops() {
        return ops.clone();
    }

    @Override
    public int[] migrations() {
        return migrations.clone();
    }

    @Override
    public int[] cpus() {
        return cpus.clone();
    }

    /**
     * One line for a parent process to parse ({@link #parse}): {@code <tag> second=3 partial=0
     * start_ns=… end_ns=… ms=1000.12 total=… ops=a;b compilations=… osr=… gc_ms=… migrations=a;b cpus=a;b
 * shared_cpu=0.25}, after
     * {@code extra} fields ({@code key=value}, no spaces) the caller adds, such as the run's name.
     */
    public String toLine(String tag, Map<String, String> extra) {
        StringBuilder b = new StringBuilder(tag);
        extra.forEach((k, v) -> b.append(' ').append(k).append('=').append(v));
        b.append(String.format(Locale.ROOT, " second=%d partial=%d start_ns=%d end_ns=%d ms=%.3f total=%d ops=%s"
                        + " compilations=%d osr=%d gc_ms=%.3f migrations=%s cpus=%s shared_cpu=%.3f", second, partial ? 1 : 0,
                startNanos, endNanos, millis, total, join(ops),
                compilations, osr, gcPauseMillis, join(migrations), join(cpus), sharedCpu));
        return b.toString();
    }

    /** The fields of a {@link #toLine} line, by name, in order (the tag left out). */
    public static Map<String, String> fields(String line) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String f : line.substring(line.indexOf(' ') + 1).trim().split(" ")) {
            int eq = f.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("not a key=value field: " + f + " in " + line);
            }
            m.put(f.substring(0, eq), f.substring(eq + 1));
        }
        return m;
    }

    /** The second written by {@link #toLine}. */
    public static TimelineSecond parse(String line) {
        Map<String, String> f = fields(line);
        return new TimelineSecond(Integer.parseInt(f.get("second")), f.get("partial").equals("1"),
                Long.parseLong(f.get("start_ns")), Long.parseLong(f.get("end_ns")), Double.parseDouble(f.get("ms")),
                Arrays.stream(f.get("ops").split(";")).mapToLong(Long::parseLong).toArray(),
                Long.parseLong(f.get("total")), Integer.parseInt(f.get("compilations")), Integer.parseInt(f.get("osr")),
                Double.parseDouble(f.get("gc_ms")), ints(f.get("migrations")), ints(f.get("cpus")),
                Double.parseDouble(f.get("shared_cpu")));
    }

    private static int[] ints(String s) {
        return Arrays.stream(s.split(";")).mapToInt(Integer::parseInt).toArray();
    }

    private static String join(long[] a) {
        List<String> s = new ArrayList<>();
        for (long v : a) {
            s.add(Long.toString(v));
        }
        return String.join(";", s);
    }

    private static String join(int[] a) {
        List<String> s = new ArrayList<>();
        for (int v : a) {
            s.add(Integer.toString(v));
        }
        return String.join(";", s);
    }
}
