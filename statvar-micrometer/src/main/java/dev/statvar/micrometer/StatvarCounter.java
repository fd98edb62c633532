package dev.statvar.micrometer;

import dev.statvar.CounterValue;
import io.micrometer.core.instrument.AbstractMeter;
import io.micrometer.core.instrument.Counter;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.DoubleAdder;

/**
 * A Micrometer {@link Counter} backed by a statvar counter.
 *
 * <h2>Threading contract</h2>
 * {@link #increment(double)} from any thread. A whole amount (the usual {@code increment()}) is one
 * statvar {@code add}: on a platform thread no lock and no locked instruction. The fraction of a
 * fractional amount goes to a {@link DoubleAdder} (a CAS: the only locked instruction, and only for
 * fractional amounts); before each interval closes its whole units are moved into the statvar
 * counter, so the export sees them and nothing is lost. Negative, NaN and infinite amounts are
 * ignored, as Micrometer's Prometheus registry cannot count them either.
 * {@link #count()} closes an interval (see {@link StatvarMeterRegistry}) and returns the total since
 * registration, fractions included.
 */
final class StatvarCounter extends AbstractMeter implements Counter {
    private final dev.statvar.Counter stat;
    private final Series series;
    private final SnapshotFeed feed;
    private final DoubleAdder fractions = new DoubleAdder();
    private final AtomicBoolean carrying = new AtomicBoolean();
    /** Whole units moved from {@code fractions} into the stat; written by carry() only (collects are serialised). */
    private volatile long carried;

    StatvarCounter(Id id, dev.statvar.Counter stat, Series series, SnapshotFeed feed) {
        super(id);
        this.stat = stat;
        this.series = series;
        this.feed = feed;
    }

    @Override
    public void increment(double amount) {
        long whole = (long) amount;
        if (whole == amount && whole > 0) { // whole, positive, finite: the common path
            stat.add(whole);
        } else if (amount > 0 && amount != Double.POSITIVE_INFINITY) {
            fractional(whole, amount - whole);
        } // zero, negative, NaN, infinite: nothing to count
    }

    @SlowPath("a fractional amount: DoubleAdder.add (a CAS), and once per counter the sampler's registration")
    private void fractional(long whole, double fraction) {
        if (whole > 0) {
            stat.add(whole);
        }
        fractions.add(fraction);
        if (!carrying.get() && carrying.compareAndSet(false, true)) {
            feed.addSampler(this::carry);
        }
    }

    /** Before each interval closes: moves the whole units the fractions add up to into the stat. */
    private void carry() {
        long units = (long) Math.floor(fractions.sum()) - carried;
        if (units > 0) {
            stat.add(units);
            carried = carried + units; // volatile write by the one collecting thread: pairs with count()
        }
    }

    @Override
    public double count() {
        CounterValue v = feed.fresh().counterValue(series.name(), series.labels());
        double rest = carrying.get() ? fractions.sum() - carried : 0; // volatile read: pairs with carry()
        return Meters.unsigned(v.total()) + Math.max(0, rest);
    }
}
