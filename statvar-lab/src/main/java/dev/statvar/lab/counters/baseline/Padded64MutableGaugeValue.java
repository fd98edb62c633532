package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges" (first padding): {@link MutableGaugeValue} padded to 64 bytes "by two
 * extra longs" ({@code dummy1}, {@code dummy2}). The article adds them to the class itself; here
 * a subclass adds them after the inherited fields, which gives the same layout (48 + 16 bytes).
 *
 * <p>Known bug: the objects are 64 bytes long but not 64-byte aligned, so the last field of one
 * object can still share a cache line with the first field of the next (the article's
 * measurement of this variant is "a bit better but still far from ideal").
 */
public class Padded64MutableGaugeValue extends MutableGaugeValue {
    public long dummy1;
    public long dummy2;
}
