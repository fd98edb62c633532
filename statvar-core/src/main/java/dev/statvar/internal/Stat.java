package dev.statvar.internal;

import dev.statvar.StatKind;

/**
 * Registration record of one stat plus the collector's running state for it. The collector
 * fields are guarded by {@link Engine}'s lock; the rest is immutable.
 */
final class Stat {
    final String name;
    final String help;
    final StatKind kind;
    /** Index in registration order. */
    final int index;
    /** First cell in every per-thread array. */
    final int offset;
    /** Array length a per-thread array needs to hold this stat: last cell + 1 + trailing padding. */
    final int limit;
    /** Where virtual threads' stripes keep it: {@code segment << VLOC_SHIFT | index in segment}. */
    final int vloc;
    /** The public handle ({@code Counter} or {@code Gauge}). */
    Object handle;

    // Collector state, guarded by Engine.lock.
    /** Cumulative count (counter total, or gauge report count) delivered by the previous collect. */
    long prevTotal;
    /** Cumulative gauge sum delivered by the previous collect. */
    long prevSum;
    /** Final cumulative values of terminated threads whose cell arrays were released. */
    long retiredTotal;
    long retiredSum;
    boolean retiredHasMin;
    long retiredMin;
    long retiredMax;
    /** Min and max over every interval delivered so far. */
    boolean globalHasMin;
    long globalMin;
    long globalMax;

    Stat(String name, String help, StatKind kind, int index, int offset, int cells, int vloc) {
        this.vloc = vloc;
        this.name = name;
        this.help = help;
        this.kind = kind;
        this.index = index;
        this.offset = offset;
        this.limit = offset + cells + Layout.PAD;
    }
}
