package dev.statvar.micrometer;

/**
 * Feeds a monotonic double count (a {@code FunctionCounter}'s or {@code FunctionTimer}'s) into a statvar
 * counter in whole units; a count going down is a reset (adds nothing, counts on from the new value).
 * One per statvar series, shared by the meters registered on it: a function meter removed and
 * registered again on the same state continues from the units already added instead of adding them
 * twice.
 *
 * <h2>Threading</h2>
 * {@link #advanceTo} runs only in collects (a sampler; collects are serialised), so {@code last} is
 * confined to the collecting thread at any time, ordered between collects by the registry's collect lock.
 */
final class WholeUnits {
    private final dev.statvar.Counter stat;
    private long last;

    WholeUnits(dev.statvar.Counter stat) {
        this.stat = stat;
    }

    void advanceTo(double count) {
        if (!(count >= 0) || count == Double.POSITIVE_INFINITY) {
            return;
        }
        long whole = (long) Math.floor(count);
        if (whole > last) {
            stat.add(whole - last);
        }
        last = whole;
    }
}
