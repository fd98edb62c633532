package dev.statvar.lab.counters.baseline;

/**
 * The gauge counterpart of {@link EmptyCounter}: records nothing. The article's gauge tables give
 * base times (2, 47, 394, 898 ns) measured with it; its repository has it. Known bug: none, but
 * it never records ({@link #getAndReset()} returns the empty value).
 */
public final class EmptyGauge extends ServerGauge {
    @Override
    public void report(long value) {
    }

    @Override
    public GaugeValue getAndReset() {
        return new SimpleGaugeValue();
    }
}
