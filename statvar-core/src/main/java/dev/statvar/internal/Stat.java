package dev.statvar.internal;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Labels;
import dev.statvar.StatKind;
import dev.statvar.StatValue;

/**
 * Registration record of one stat: immutable, published to readers by {@link StatList}. The
 * collector's running state per stat is in {@link IntervalCloser}.
 */
final class Stat {
    final String name;
    final String help;
    /** {@link Labels#EMPTY}, or its labels as a series of a family. */
    final Labels labels;
    final StatKind kind;
    /** Index in registration order. */
    final int index;
    /** When it was registered, ms since the epoch (OpenMetrics {@code _created}). */
    final long createdMillis = System.currentTimeMillis();
    /** First cell in every thread's array of its kind (a counter's in the counter arrays, a gauge's in the gauge arrays); 0 for histograms. */
    final int offset;
    /** Array length a thread's array of its kind needs to hold this stat: last cell + 1 + trailing padding; 0 for histograms. */
    final int limit;
    /** Where virtual threads' stripes keep it ({@link Stripes#place}); -1 for histograms. */
    final int vloc;
    /** Histograms: index among the registry's histograms; -1 for other kinds. */
    final int hindex;
    /** Histograms: sub-bucket bits of the precision; 0 for other kinds. */
    final int bits;
    /** The public handle ({@code Counter}, {@code Gauge} or {@code Histogram}); set once, before publication. */
    final Object handle;

    private Stat(String name, Labels labels, String help, StatKind kind, int index, int offset, int cells, int vloc,
                 int hindex, int bits, Object handle) {
        this.name = name;
        this.labels = labels;
        this.help = help;
        this.kind = kind;
        this.index = index;
        this.offset = offset;
        this.limit = cells == 0 ? 0 : offset + cells + Layout.PAD;
        this.vloc = vloc;
        this.hindex = hindex;
        this.bits = bits;
        this.handle = handle;
    }

    /** A counter or gauge of {@code cells} cells at {@code offset}, {@code vloc} in the stripes. */
    static Stat cells(String name, Labels labels, String help, StatKind kind, int index, int offset, int cells,
                      int vloc, Object handle) {
        return new Stat(name, labels, help, kind, index, offset, cells, vloc, -1, 0, handle);
    }

    /** A histogram: no cells in the threads' shared arrays; {@code hindex} among the histograms. */
    static Stat histogram(String name, Labels labels, String help, int index, int hindex, int bits, Object handle) {
        return new Stat(name, labels, help, StatKind.HISTOGRAM, index, 0, 0, -1, hindex, bits, handle);
    }

    /** Its value in an interval without updates and before any: zero, no min/max; a histogram's totals empty too. */
    StatValue emptyValue() {
        return switch (kind) {
            case COUNTER -> new CounterValue(name, help, labels, 0, 0);
            case GAUGE -> new GaugeValue(name, help, labels, 0, 0, 0, 0, 0, 0);
            case HISTOGRAM -> {
                HistogramValue e = HistogramValue.empty(name, help, new HistogramPrecision(bits)).withLabels(labels);
                yield e.withTotals(e);
            }
        };
    }
}
