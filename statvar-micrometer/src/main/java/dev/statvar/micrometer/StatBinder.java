package dev.statvar.micrometer;

import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Meter;

import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Binds a meter to its statvar stats. A name statvar already holds with another set of label names
 * (Micrometer allows one name with several sets of tag keys) is retried under an internal name of its
 * own: the meter's name with {@code __by_KEY1_KEY2..} ({@code __no_labels} without tags) appended before
 * the unit, e.g. the counter {@code jobs} with keys {@code queue, worker} becomes
 * {@code jobs__by_queue_worker_total}. A meter statvar cannot hold either way (a registry or family
 * full, a tag statvar reserves, a name taken by another kind) is rejected: reported through
 * {@code onMeterRegistrationFailed} and counted in {@code statvar_micrometer_meters_rejected_total{reason}}
 * ({@code reason="capacity"}: a limit of the {@link StatRegistry}; {@code "conflict"}: a name or label
 * statvar cannot give it); the caller then falls back to a Micrometer meter, so nothing it records is
 * lost to Micrometer's reads and the scrape.
 *
 * <h2>Threading</h2>
 * Any thread (Micrometer registers meters concurrently); the statvar registry is thread-safe.
 */
final class StatBinder {
    static final String REJECTED = "statvar_micrometer_meters_rejected_total";

    /** Registered up front, so a full registry can still count what it refuses. */
    private final dev.statvar.Counter capacity;
    private final dev.statvar.Counter conflict;
    private final BiConsumer<Meter.Id, String> failed;

    StatBinder(StatRegistry stats, BiConsumer<Meter.Id, String> failed) {
        StatFamily<dev.statvar.Counter> rejected = stats.counterFamily(REJECTED,
                "Micrometer meters statvar could not hold (recorded by Micrometer meters, exported by scrape())",
                "reason");
        this.capacity = rejected.labels("capacity");
        this.conflict = rejected.labels("conflict");
        this.failed = failed;
    }

    /**
     * {@code bind} applied to the meter's id, or to its variant when statvar holds the name with other
     * label names; null when rejected (reported and counted).
     */
    <T> T bind(Meter.Id id, Function<Meter.Id, T> bind) {
        RuntimeException first;
        try {
            return bind.apply(id);
        } catch (IllegalArgumentException | IllegalStateException e) {
            if (full(e)) {
                return reject(id, "capacity", e);
            }
            first = e;
        }
        try {
            return bind.apply(variant(id));
        } catch (IllegalArgumentException | IllegalStateException e) {
            return full(e) ? reject(id, "capacity", e) : reject(id, "conflict", first);
        }
    }

    /** statvar-core says a registry or family is full with "holds its maximum" (StatFamily, Registrations). */
    private static boolean full(RuntimeException e) {
        return e instanceof IllegalStateException || String.valueOf(e.getMessage()).contains("holds its maximum");
    }

    /** The id statvar knows a meter by when its name is taken with other label names. */
    static Meter.Id variant(Meter.Id id) {
        String[] keys = StatNames.labelNames(id);
        return id.withName(id.getName() + (keys.length == 0 ? "__no_labels" : "__by_" + String.join("_", keys)));
    }

    private <T> T reject(Meter.Id id, String reason, RuntimeException e) {
        (reason.equals("capacity") ? capacity : conflict).add(1);
        failed.accept(id, "statvar cannot hold this meter (" + reason + "): " + e.getMessage()
                + "; Micrometer records it and scrape() exports it, statvar's own exporters do not");
        return null;
    }
}
