package dev.statvar.lab.counters.baseline;

/**
 * Article section "Alternative solutions" ("Similar solution can be implemented for gauges"): the
 * gauge counterpart of {@link LazyAllocCounter}: the client allocates the (unpadded)
 * {@link MutableGaugeValue} on its first report after a collection. Measured as
 * "Compound LazyAlloc" in a {@link LazyCompoundGauge}.
 *
 * <p>Known bug (deliberate, described in the article): loses reports: the client's check-then-act
 * races the server's {@code current = null}, which can discard a value the client has just
 * published. {@link #getAndReset()} returns {@code null} when nothing was reported; only use it
 * inside a {@link LazyCompoundGauge}, whose {@link CompoundGaugeValue} skips nulls.
 */
public class LazyAllocGauge extends ServerGauge {
    private volatile MutableGaugeValue current = null;

    @Override
    public void report(long value) {
        MutableGaugeValue cur = current;
        if (cur == null) {
            cur = new MutableGaugeValue();
            current = cur;
        }
        cur.report(value);
    }

    @Override
    public GaugeValue getAndReset() {
        GaugeValue result = current;
        current = null;
        return result;
    }
}
