package dev.statvar.lab.spin;

import java.util.Locale;

/**
 * One run of one cell, parsed from a {@link SpinRunner} RESULT line: episodes and nanoseconds of
 * the measured window, the barrier wait's p50/p99/max (ns), the workers' user and system CPU (ns),
 * their voluntary and involuntary context switches, the share of the CPUs other processes kept
 * busy meanwhile and how many times the run was made again for it; or {@code HUNG} and why.
 */
record SpinResult(BarrierDesign design, int threads, int work, int run, boolean hung, String why,
                  long episodes, long nanos, long p50, long p99, long max, long userNs, long sysNs,
                  long voluntary, long involuntary, double otherLoad, int redone) {

    static SpinResult parse(String line) {
        String[] p = line.split(" ", 7);
        BarrierDesign d = BarrierDesign.valueOf(p[1]);
        int threads = Integer.parseInt(p[2]);
        int work = Integer.parseInt(p[3]);
        int run = Integer.parseInt(p[4]);
        if (p[5].equals("HUNG")) {
            return hung(d, threads, work, run, p.length > 6 ? p[6] : "");
        }
        String[] v = p[6].split(" ");
        long[] n = new long[v.length];
        for (int i = 0; i < v.length; i++) {
            n[i] = Long.parseLong(v[i]);
        }
        return new SpinResult(d, threads, work, run, false, "", n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8],
                n[9] / 1000.0, (int) n[10]);
    }

    static SpinResult hung(BarrierDesign d, int threads, int work, int run, String why) {
        return new SpinResult(d, threads, work, run, true, why, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    double episodesPerSecond() {
        return hung || nanos == 0 ? 0 : episodes * 1e9 / nanos;
    }

    /** Wall time per episode, µs (infinite when hung or none completed). */
    double usPerEpisode() {
        return hung || episodes == 0 ? Double.POSITIVE_INFINITY : nanos / 1e3 / episodes;
    }

    double perEpisode(long v) {
        return episodes == 0 ? Double.NaN : v / (double) episodes;
    }

    String key() {
        return String.format(Locale.ROOT, "%s:%d:%d", design, threads, work);
    }
}
