package dev.statvar.lab.kit;

/**
 * The rule by which a study judges that the host slowed a run down, and makes it again. On this kind of virtual
 * machine the host sometimes runs the vCPUs at half speed for whole runs (both wall and thread CPU time double;
 * docs/LAB.md), which no scheduler statistic shows. A study times a probe of unshared work with its threads beside
 * a run and compares it with the same work on one thread: slower than {@link #FACTOR} x that marks the run as
 * disturbed, and it is made again, at most {@link #MAX_REDO} times; the report says how many were. (Not the
 * hiccups study's {@code Disturbance}, a load that study puts on the JVM on purpose.)
 */
public final class HostSlowdown {
    /** A probe this much slower than with one thread marks the run beside it as disturbed. */
    public static final double FACTOR = 1.25;
    /** Re-runs of a disturbed run, at most. */
    public static final int MAX_REDO = 3;

    private HostSlowdown() {
    }

    /** Whether a probe of {@code probe} (ns per op, or ns) against {@code oneThread} shows the host's slowdown. */
    public static boolean detected(double probe, double oneThread) {
        return probe > FACTOR * oneThread;
    }
}
