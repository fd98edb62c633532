package dev.statvar.lab.soak;

/**
 * What was done to the soak's stats, counted in plain fields: by a worker of its own updates, by a slot or spawner
 * of its workers' (after {@code join()}), by the collector's sink of every interval. Not thread-safe: one thread
 * writes it, and another reads it only after a happens-before edge (a join, or the collector's close).
 */
final class SoakCounts {
    long ops;
    long bytes;
    long gaugeCount;
    long gaugeSum;
    long gaugeMin = Long.MAX_VALUE;
    long gaugeMax = Long.MIN_VALUE;
    long histCount;
    long histSum;
    /** Per family series ({@link SoakStats#seriesIndex}). */
    final long[] series = new long[SoakStats.THREAD_TYPES.length * SoakStats.SHARDS];

    void add(SoakCounts o) {
        ops += o.ops;
        bytes += o.bytes;
        gaugeCount += o.gaugeCount;
        gaugeSum += o.gaugeSum;
        gaugeMin = Math.min(gaugeMin, o.gaugeMin);
        gaugeMax = Math.max(gaugeMax, o.gaugeMax);
        histCount += o.histCount;
        histSum += o.histSum;
        for (int i = 0; i < series.length; i++) {
            series[i] += o.series[i];
        }
    }
}
