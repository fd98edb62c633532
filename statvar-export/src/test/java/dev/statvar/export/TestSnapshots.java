package dev.statvar.export;

import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.lang.reflect.Constructor;
import java.time.Instant;
import java.util.List;

/**
 * Snapshots built by hand, for export tests that need a value no deterministic collect produces
 * (e.g. a gauge interval whose only min/max came from a report racing the switch). Snapshot's
 * constructor is package-private, so it is called reflectively: the tests run on the class path
 * (statvar-export's pom), where that is allowed; test scope only.
 */
final class TestSnapshots {
    private TestSnapshots() {
    }

    /** A snapshot of {@code values} over {@code start .. end}, each stat registered at {@code created}. */
    static Snapshot of(Instant start, Instant end, Instant created, List<StatValue> values) {
        long[] c = new long[values.size()];
        java.util.Arrays.fill(c, created.toEpochMilli());
        try {
            Constructor<Snapshot> k = Snapshot.class.getDeclaredConstructor(Instant.class, Instant.class, List.class, long[].class, long.class);
            k.setAccessible(true);
            return k.newInstance(start, end, values, c, 0L); // change count 0: a bound exporter adds the registered stats
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Snapshot(Instant, Instant, List, long[], long) not found", e);
        }
    }
}
