package dev.statvar.micrometer;

import dev.statvar.Histogram;
import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.cumulative.CumulativeCounter;
import io.micrometer.core.instrument.cumulative.CumulativeDistributionSummary;
import io.micrometer.core.instrument.cumulative.CumulativeTimer;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.pause.PauseDetector;

import java.util.concurrent.TimeUnit;

/**
 * The meters of a family past its cap: statvar answers new label values with the family's one
 * overflow series ({@code otel_metric_overflow="true"}), from which a meter cannot read its own counts
 * back. Such a meter is Micrometer's cumulative meter (its reads and the scrape stay exact) that also
 * records into the overflow series, so statvar's own exporters lose no update to the cap either.
 * A counter's fractional amounts reach only the Micrometer side.
 *
 * <h2>Threading contract</h2>
 * As the Micrometer meters they extend: updates from any thread (Micrometer's adders, then one statvar
 * update).
 */
final class OverflowMeters {
    private OverflowMeters() {
    }

    static final class OverflowCounter extends CumulativeCounter {
        private final dev.statvar.Counter overflow;

        OverflowCounter(Id id, dev.statvar.Counter overflow) {
            super(id);
            this.overflow = overflow;
        }

        @Override
        public void increment(double amount) {
            super.increment(amount);
            long whole = (long) amount;
            if (whole == amount && whole > 0) {
                overflow.add(whole);
            }
        }
    }

    static final class OverflowTimer extends CumulativeTimer {
        private final Histogram overflow;

        OverflowTimer(Id id, Clock clock, DistributionStatisticConfig config, PauseDetector pauseDetector,
                      TimeUnit baseTimeUnit, Histogram overflow) {
            super(id, clock, config, pauseDetector, baseTimeUnit, true);
            this.overflow = overflow;
        }

        @Override
        protected void recordNonNegative(long amount, TimeUnit unit) {
            super.recordNonNegative(amount, unit);
            overflow.record(unit.toNanos(amount));
        }
    }

    static final class OverflowSummary extends CumulativeDistributionSummary {
        private final Histogram overflow;

        OverflowSummary(Id id, Clock clock, DistributionStatisticConfig config, double scale, Histogram overflow) {
            super(id, clock, config, scale, true);
            this.overflow = overflow;
        }

        @Override
        protected void recordNonNegative(double amount) { // amount already scaled
            super.recordNonNegative(amount);
            overflow.record(Math.round(amount));
        }
    }
}
