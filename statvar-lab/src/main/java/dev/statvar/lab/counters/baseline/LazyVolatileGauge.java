package dev.statvar.lab.counters.baseline;

/**
 * Article section "The volatile option": the {@link LazyGauge} over a
 * {@link MutableVolatileGaugeValue}, measured as "Compound Lazy Volatile" in a
 * {@link LazyCompoundGauge}.
 *
 * <p>Known bugs: those of {@link LazyGauge} apart from register caching: exact only in practice
 * under lazy retrieval, still vulnerable to a client descheduled for longer than the cool-down.
 */
public class LazyVolatileGauge extends ServerGauge {
    private volatile MutableVolatileGaugeValue current = new MutableVolatileGaugeValue();

    @Override
    public void report(long value) {
        current.report(value);
    }

    @Override
    public GaugeValue getAndReset() {
        GaugeValue result = current;
        current = new MutableVolatileGaugeValue();
        return result;
    }
}
