package dev.statvar;

import java.time.Instant;
import java.util.List;

/**
 * Snapshots built by hand, for export tests that need a value no deterministic collect produces
 * (e.g. a gauge interval whose only min/max came from a report racing the switch). In package
 * {@code dev.statvar} for Snapshot's package-private constructor; test scope only.
 */
public final class TestSnapshots {
    private TestSnapshots() {
    }

    /** A snapshot of {@code values} over {@code start .. end}, each stat registered at {@code created}. */
    public static Snapshot of(Instant start, Instant end, Instant created, List<StatValue> values) {
        long[] c = new long[values.size()];
        java.util.Arrays.fill(c, created.toEpochMilli());
        return new Snapshot(start, end, values, c);
    }
}
