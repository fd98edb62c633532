package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges": the lazy gauge, the core of the lazy compound solution: the
 * {@link MutableGaugeValue} (unpadded, 48 bytes) referenced by a {@code volatile} field and
 * swapped for a fresh one on collection. Measured in a {@link LazyCompoundGauge} as the first
 * "Compound Lazy" gauge table.
 *
 * <p>Known bugs (deliberate, as in the article): single client only; exact only in practice under
 * lazy retrieval (read immediately, a value can miss updates or be half-updated); the unpadded
 * values allocated one after the other by the server share cache lines (false sharing), which
 * makes it slow.
 */
public class LazyGauge extends ServerGauge {
    private volatile MutableGaugeValue current = new MutableGaugeValue();

    @Override
    public void report(long value) {
        current.report(value);
    }

    @Override
    public GaugeValue getAndReset() {
        GaugeValue result = current;
        current = new MutableGaugeValue();
        return result;
    }
}
