package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges": the {@link LazyGauge} over a value padded to 64 bytes
 * ({@link Padded64MutableGaugeValue}): the article's second "Compound Lazy" gauge table.
 *
 * <p>Known bugs: those of {@link LazyGauge} (single client; exact only in practice under lazy
 * retrieval); false sharing is reduced but not removed, as the 64-byte values are not 64-byte
 * aligned and the last field of one can share a cache line with the first of the next.
 */
public class Padded64LazyGauge extends ServerGauge {
    private volatile MutableGaugeValue current = new Padded64MutableGaugeValue();

    @Override
    public void report(long value) {
        current.report(value);
    }

    @Override
    public GaugeValue getAndReset() {
        GaugeValue result = current;
        current = new Padded64MutableGaugeValue();
        return result;
    }
}
