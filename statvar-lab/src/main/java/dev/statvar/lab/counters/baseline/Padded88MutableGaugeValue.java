package dev.statvar.lab.counters.baseline;

/**
 * Article section "Gauges" (second padding): {@link MutableGaugeValue} padded with five extra
 * longs to 88 bytes, so that at least seven longs (56 bytes) separate the field blocks of two
 * adjacent objects and they never share a cache line, whatever the alignment. A subclass adds the
 * dummies after the inherited fields (same layout as the article's single class).
 *
 * <p>Known bug: none of its own; each value occupies two cache lines.
 */
public class Padded88MutableGaugeValue extends MutableGaugeValue {
    public long dummy1;
    public long dummy2;
    public long dummy3;
    public long dummy4;
    public long dummy5;
}
