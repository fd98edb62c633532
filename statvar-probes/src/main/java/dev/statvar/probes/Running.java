package dev.statvar.probes;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The probes that run, by the stat they record into: at most one {@link HiccupMeter} per
 * histogram and one {@link JfrContention} per registry (two would record every value twice).
 *
 * <p>Threading: any thread; a key is claimed by one atomic {@code putIfAbsent} and released by
 * its claimant only (compared by identity). The keys (a meter's histogram, a record of a bridge's registry) compare
 * by identity, as neither a stat nor a registry overrides {@code equals}: the same name of the
 * same registry is the same key.
 */
final class Running {
    private static final Map<Object, Object> CLAIMS = new ConcurrentHashMap<>();

    private Running() {
    }

    /**
     * Claims {@code key} for {@code owner} until {@link #release}.
     *
     * @throws IllegalStateException naming {@code what} if another owner holds the key
     */
    static void claim(Object key, Object owner, String what) {
        Object holder = CLAIMS.putIfAbsent(key, owner);
        if (holder != null) {
            throw new IllegalStateException(what + " is already running: a second one would record every value"
                    + " twice; close the first before starting another");
        }
    }

    /**
     * Releases {@code key} if {@code owner} itself (the same object) holds it; otherwise does
     * nothing, so a second close of an earlier owner cannot release a later one's claim.
     */
    static void release(Object key, Object owner) {
        CLAIMS.computeIfPresent(key, (k, holder) -> holder == owner ? null : holder);
    }
}
