package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges": the {@link LazyGauge} over a value padded to 88 bytes
 * ({@link Padded88MutableGaugeValue}): the article's third "Compound Lazy" gauge table and the one
 * in its summary; {@link FastGauge} is built on it.
 *
 * <p>Known bugs: those of {@link LazyGauge} apart from the false sharing (single client; exact
 * only in practice under lazy retrieval).
 */
public class Padded88LazyGauge extends ServerGauge {
    private volatile MutableGaugeValue current = new Padded88MutableGaugeValue();

    @Override
    public void report(long value) {
        current.report(value);
    }

    @Override
    public GaugeValue getAndReset() {
        GaugeValue result = current;
        current = new Padded88MutableGaugeValue();
        return result;
    }
}
