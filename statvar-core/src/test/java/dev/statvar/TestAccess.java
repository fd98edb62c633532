package dev.statvar;

/** Package-private measurements of a registry, for tests in other packages. */
public final class TestAccess {
    private TestAccess() {
    }

    /** The longest single hold of the registry's lock by its last collect(), in ns (wall time). */
    public static long lastCollectLongestHoldNanos(StatRegistry r) {
        return r.lastCollectLongestHoldNanos();
    }

    /** Per-thread cell arrays the registry holds. */
    public static int threadBlocks(StatRegistry r) {
        return r.threadBlocks();
    }
}
