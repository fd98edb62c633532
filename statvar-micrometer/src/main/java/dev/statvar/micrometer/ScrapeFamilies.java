package dev.statvar.micrometer;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.NamingConvention;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Which meters the scrape may export, by micrometer-registry-prometheus 1.17.2's rule
 * ({@code applyToCollector}): the first meter of a Prometheus name owns it; a meter of another
 * Micrometer name or another type that maps to the same name is reported through
 * {@code onMeterRegistrationFailed} and left out of the scrape (it still records, in statvar too).
 * A name is free again when its last meter is removed.
 *
 * <h2>Threading</h2>
 * Any thread; every method synchronizes on this object (registration and removal only, never updates).
 */
final class ScrapeFamilies {
    private record Owner(String micrometerName, Meter.Type type, Set<Meter.Id> ids) {
    }

    private final Map<String, Owner> owners = new HashMap<>();
    private final Set<Meter.Id> refused = new HashSet<>();
    private final BiConsumer<Meter.Id, String> failed;

    ScrapeFamilies(BiConsumer<Meter.Id, String> failed) {
        this.failed = failed;
    }

    void claim(Meter.Id id, NamingConvention convention) {
        String name = id.getConventionName(convention);
        String reason = null;
        synchronized (this) {
            Owner o = owners.computeIfAbsent(name, n -> new Owner(id.getName(), id.getType(), new HashSet<>()));
            if (!o.micrometerName.equals(id.getName())) {
                reason = "A meter with the same Prometheus name (" + name + ") is already registered under another"
                        + " Micrometer name (" + o.micrometerName + "); this meter is left out of scrape()";
            } else if (o.type != id.getType()) {
                reason = "Prometheus requires that all meters with the same name have the same type. There is already"
                        + " an existing meter named '" + name + "' that is a " + o.type + "; this meter is a "
                        + id.getType() + " and is left out of scrape()";
            }
            if (reason == null) {
                o.ids.add(id);
            } else {
                refused.add(id);
            }
        }
        if (reason != null) {
            failed.accept(id, reason);
        }
    }

    synchronized void release(Meter.Id id, NamingConvention convention) {
        if (refused.remove(id)) {
            return;
        }
        String name = id.getConventionName(convention);
        Owner o = owners.get(name);
        if (o != null && o.ids.remove(id) && o.ids.isEmpty()) {
            owners.remove(name);
        }
    }

    /** Names owned and meters refused (tests). */
    synchronized int size() {
        return owners.size() + refused.size();
    }

    synchronized boolean exported(Meter.Id id) {
        return !refused.contains(id);
    }
}
