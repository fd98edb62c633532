package dev.statvar.lab.spin;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This JVM's threads as Linux sees them ({@code /proc/self/task/<tid>/}): HotSpot gives each Java
 * thread its name as the task's {@code comm} (cut to 15 characters), so the workers of a run can
 * be picked out by a name prefix.
 */
final class TaskStatus {
    private TaskStatus() {
    }

    /** Linux's USER_HZ: the unit of utime and stime in {@code /proc/<pid>/task/<tid>/stat} (fixed at 100 on x86). */
    static final long TICKS_PER_SECOND = 100;

    /**
     * User time, system time (ns, from clock ticks of {@link #TICKS_PER_SECOND}), voluntary and
     * involuntary context switches ({@code status}: {@code voluntary_ctxt_switches},
     * {@code nonvoluntary_ctxt_switches}) of the threads whose name starts with {@code prefix},
     * summed; all -1 where there is no {@code /proc}.
     */
    static long[] sample(String prefix) {
        Path tasks = Path.of("/proc/self/task");
        long[] none = {-1, -1, -1, -1};
        if (!Files.isDirectory(tasks)) {
            return none;
        }
        long[] sum = new long[4];
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path t : ds) {
                try {
                    if (!Files.readString(t.resolve("comm")).startsWith(prefix)) {
                        continue;
                    }
                    String stat = Files.readString(t.resolve("stat"));
                    // fields after the comm's closing parenthesis: state is field 3, utime 14, stime 15
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    sum[0] += Long.parseLong(f[11]) * (1_000_000_000 / TICKS_PER_SECOND);
                    sum[1] += Long.parseLong(f[12]) * (1_000_000_000 / TICKS_PER_SECOND);
                    for (String l : Files.readAllLines(t.resolve("status"))) {
                        if (l.startsWith("voluntary_ctxt_switches:")) {
                            sum[2] += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                        } else if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                            sum[3] += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException gone) {
                    // the thread ended between listing and reading
                }
            }
        } catch (IOException e) {
            return none;
        }
        return sum;
    }

    /**
     * Busy clock ticks of the whole machine ({@code /proc/stat}: user, nice, system, irq, softirq,
     * steal) and of this process ({@code /proc/self/stat}: utime, stime); -1 where there is no
     * {@code /proc}. Their difference over a window is what other processes (and the host, as
     * steal) took of the CPUs meanwhile.
     */
    static long[] busyTicks() {
        try {
            String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0); // "cpu  user nice system idle iowait irq softirq steal ..."
            String[] f = cpu.trim().split("\\s+");
            long machine = Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                    + Long.parseLong(f[7]) + Long.parseLong(f[8]);
            String self = Files.readString(Path.of("/proc/self/stat"));
            String[] g = self.substring(self.lastIndexOf(')') + 2).split(" ");
            return new long[] {machine, Long.parseLong(g[11]) + Long.parseLong(g[12])};
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
    }
}
