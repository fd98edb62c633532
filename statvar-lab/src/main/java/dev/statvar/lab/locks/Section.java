package dev.statvar.lab.locks;

/**
 * The workload's sections, each a lock made at its own line of {@link LockWorkload} (its creation
 * site) and used with a designed contention level: the time a thread holds the lock against the
 * time it works outside it.
 */
enum Section {
    /** One lock per thread, all made at one site: never contended (exactly 0 expected). */
    QUIET("none: a lock per thread", 1_000, 1_000),
    /** One shared lock held 0.5 us, 20 us of work outside it. */
    LIGHT("light: held 0.5 us, 20 us outside", 500, 20_000),
    /** One shared lock held 20 us, 1 us of work outside it. */
    HEAVY("heavy: held 20 us, 1 us outside", 20_000, 1_000),
    /** A read-write lock: reads held 2 us, one write in 20 held 10 us. */
    READ_MOSTLY("read-mostly: reads 2 us, 1 write in 20 of 10 us", 2_000, 2_000),
    /** A lock a batch thread holds 30 ms every 250 ms, taken by a worker every 5 ms. */
    LONG_HOLD("rare long holds: 30 ms every 250 ms, tried every 5 ms", 30_000_000, 5_000_000);

    final String design;
    final long holdNs;
    final long outsideNs;

    Section(String design, long holdNs, long outsideNs) {
        this.design = design;
        this.holdNs = holdNs;
        this.outsideNs = outsideNs;
    }

    /** The statvar family prefix of the section's lock. */
    String family() {
        return name().toLowerCase(java.util.Locale.ROOT) + "_lock";
    }
}
