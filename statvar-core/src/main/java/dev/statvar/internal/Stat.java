package dev.statvar.internal;

import dev.statvar.Labels;
import dev.statvar.StatKind;

/**
 * Registration record of one stat plus the collector's running state for it. The collector
 * fields are guarded by {@link Engine}'s lock; the rest is immutable.
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
    /** First cell in every per-thread array. */
    final int offset;
    /** Array length a per-thread array needs to hold this stat: last cell + 1 + trailing padding. */
    final int limit;
    /** Where virtual threads' stripes keep it: {@code segment << VLOC_SHIFT | index in segment}. */
    final int vloc;
    /** Histograms: index among the registry's histograms; -1 for other kinds. */
    final int hindex;
    /** Histograms: sub-bucket bits of the precision; 0 for other kinds. */
    final int bits;
    /** Histograms, collector state (Engine.collectLock): cumulative buckets of live threads (this collect), delivered so far, of terminated threads. */
    final BucketCounts liveBuckets;
    final BucketCounts prevBuckets;
    final BucketCounts retiredBuckets;
    /** The public handle ({@code Counter}, {@code Gauge} or {@code Histogram}). */
    Object handle;

    // Collector state, guarded by Engine.collectLock.
    /** Cumulative count (counter total, gauge report count, histogram record count) delivered by the previous collect. */
    long prevTotal;
    /** Cumulative gauge sum delivered by the previous collect. */
    long prevSum;
    /** Final cumulative values of terminated threads whose cell arrays were released. */
    long retiredTotal;
    long retiredSum;
    /** Min and max over every interval delivered so far (a histogram's totals). */
    boolean allHasMin;
    long allMin;
    long allMax;

    Stat(String name, Labels labels, String help, StatKind kind, int index, int offset, int cells, int vloc) {
        this(name, labels, help, kind, index, offset, cells, vloc, -1, 0);
    }

    Stat(String name, Labels labels, String help, StatKind kind, int index, int offset, int cells, int vloc, int hindex,
         int bits) {
        this.labels = labels;
        this.vloc = vloc;
        this.hindex = hindex;
        this.bits = bits;
        boolean h = kind == StatKind.HISTOGRAM;
        this.liveBuckets = h ? new BucketCounts() : null;
        this.prevBuckets = h ? new BucketCounts() : null;
        this.retiredBuckets = h ? new BucketCounts() : null;
        this.name = name;
        this.help = help;
        this.kind = kind;
        this.index = index;
        this.offset = offset;
        this.limit = offset + cells + Layout.PAD;
    }
}
