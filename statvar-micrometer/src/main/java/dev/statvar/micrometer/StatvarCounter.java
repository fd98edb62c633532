package dev.statvar.micrometer;

import dev.statvar.CounterValue;
import dev.statvar.Snapshot;
import io.micrometer.core.instrument.AbstractMeter;
import io.micrometer.core.instrument.Counter;


/**
 * A Micrometer {@link Counter} backed by a statvar counter.
 *
 * <h2>Threading contract</h2>
 * {@link #increment(double)} from any thread. A whole amount (the usual {@code increment()}) is one
 * statvar {@code add}: on a platform thread no lock and no locked instruction. The fraction of a
 * fractional amount goes to the series' {@link CounterFractions} (a CAS: the only locked instruction,
 * and only for fractional amounts); before each interval closes its whole units are moved into the
 * statvar counter, so the export sees them and nothing is lost. Negative, NaN and infinite amounts are
 * ignored, as Micrometer's Prometheus registry cannot count them either.
 * {@link #count()} closes an interval (see {@link StatvarMeterRegistry}) and returns the total since
 * registration, fractions included.
 */
final class StatvarCounter extends AbstractMeter implements Counter {
    private final dev.statvar.Counter stat;
    private final Series series;
    private final SnapshotFeed feed;
    /** Shared by the counters of this series (a re-registered counter continues them). */
    private final CounterFractions fractions;

    StatvarCounter(Id id, dev.statvar.Counter stat, Series series, SnapshotFeed feed, CounterFractions fractions) {
        super(id);
        this.stat = stat;
        this.series = series;
        this.feed = feed;
        this.fractions = fractions;
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

    @SlowPath("a fractional amount: DoubleAdder.add (a CAS), and once per series the sampler's registration")
    private void fractional(long whole, double fraction) {
        if (whole > 0) {
            stat.add(whole);
        }
        fractions.add(fraction);
    }

    @Override
    public double count() {
        return count(feed.fresh());
    }

    /** The count as of {@code stats}, a snapshot just collected: the series' total and the fractions below one unit. */
    double count(Snapshot stats) {
        CounterValue v = stats.counterValue(series.name(), series.labels());
        return Meters.unsigned(v.total()) + fractions.rest();
    }
}
