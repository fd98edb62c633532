package dev.statvar.micrometer;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * The fractional amounts of one statvar counter series, shared by every Micrometer counter registered
 * on that series (a counter removed and registered again continues them): a {@link DoubleAdder} whose
 * whole units are moved into the statvar counter before each interval closes, so the export sees them.
 * One sampler per series, added on the first fractional amount; the registry removes it with the series.
 *
 * <h2>Threading contract</h2>
 * {@link #add} from any thread (a CAS: the only locked instruction of a counter, and only for
 * fractional amounts). {@link #sample} runs in a collect and once more when the series is removed
 * (synchronized: those two may overlap), the only writer of {@code carried}; {@link #rest} from any
 * thread reads it volatile.
 */
final class CounterFractions implements SnapshotFeed.Sampler {
    private final dev.statvar.Counter stat;
    private final SnapshotFeed feed;
    private final DoubleAdder fractions = new DoubleAdder();
    private final AtomicBoolean sampling = new AtomicBoolean();
    /** Whole units moved into the stat; written by sample() only, under this object's lock. */
    private volatile long carried;

    CounterFractions(dev.statvar.Counter stat, SnapshotFeed feed) {
        this.stat = stat;
        this.feed = feed;
    }

    void add(double fraction) {
        fractions.add(fraction);
        if (!sampling.get() && sampling.compareAndSet(false, true)) {
            feed.addSampler(this);
        }
    }

    /** Before each interval closes: moves the whole units the fractions add up to into the stat. */
    @Override
    public synchronized void sample() { // a collect, or the series' removal (MeterStats): never both at once
        long units = (long) Math.floor(fractions.sum()) - carried;
        if (units > 0) {
            stat.add(units);
            carried = carried + units; // volatile write under this object's lock: pairs with rest()
        }
    }

    /** The fractions not yet moved into the stat (below one unit once a collect ran). */
    double rest() {
        return sampling.get() ? Math.max(0, fractions.sum() - carried) : 0; // volatile read: pairs with sample()
    }

    /** Stops sampling (the series is removed); its last whole units are moved first by the caller's sample(). */
    void stop() {
        feed.removeSampler(this);
    }
}
