package dev.statvar.lab.kit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How busy the machine was around a study's runs, from {@code /proc/loadavg}: a study reads it
 * before and after and keeps both beside its data, so that a run shared with other programs can be
 * told from an idle one. The averages decay slowly (the 1-minute one still shows a build that ended
 * a minute ago); the runnable count is the moment's.
 */
public final class LoadAverage {
    /** What a "before, after" pair of {@link #now()} means, for reports. */
    public static final String MEANING = "/proc/loadavg: 1, 5, 15 min averages, which decay slowly after another"
            + " program's run; runnable now / all threads";

    /** The load average of a result written before it was kept. */
    public static final String NOT_RECORDED = "not recorded";

    private LoadAverage() {
    }

    /** {@code loadAverage}, or {@value #NOT_RECORDED} when null (absent from the JSON it was read from). */
    public static String orNotRecorded(String loadAverage) {
        return loadAverage == null ? NOT_RECORDED : loadAverage;
    }

    /** The three load averages and the runnable / all threads now ({@code 1.87 2.25 3.16 (runnable now 3/93)}), or "unknown". */
    public static String now() {
        String[] f = fields();
        return f == null ? "unknown" : f[0] + " " + f[1] + " " + f[2] + " (runnable now " + f[3] + ")";
    }

    /** The 1-minute load average, or "unknown". */
    public static String oneMinute() {
        String[] f = fields();
        return f == null ? "unknown" : f[0];
    }

    /** {@code "<before> before, <now> after (<MEANING><note>)"}: the line a report prints. */
    public static String beforeAndNow(String before, String note) {
        return before + " before, " + now() + " after (" + MEANING + note + ")";
    }

    private static String[] fields() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f.length >= 4 ? f : null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
