package dev.statvar.lab.soak;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.Labels;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;

/**
 * The stats every soak worker updates, and their names as the exposition writes them. Immutable: shared by every
 * worker thread, the collector's sink and the main thread.
 */
record SoakStats(Counter ops, Counter bytes, Gauge queue, Histogram latency, StatFamily<Counter> requests) {
    static final String OPS = "soak_ops_total";
    static final String BYTES = "soak_bytes_total";
    static final String QUEUE = "soak_queue";
    static final String LATENCY = "soak_latency_ns";
    static final String REQUESTS = "soak_requests_total";
    /** The family's first label: the kind of thread that updated it (index 0: platform, 1: virtual). */
    static final String[] THREAD_TYPES = {"platform", "virtual"};
    /** The family's second label: a shard 0 .. SHARDS - 1 ({@code THREAD_TYPES.length * SHARDS} series). */
    static final int SHARDS = 16;
    /** Updates per op: ops.add(), bytes.add(n), queue.report(v), latency.record(v), requests.labels(..).add(). */
    static final int UPDATES_PER_OP = 5;

    static SoakStats register(StatRegistry r) {
        return new SoakStats(r.counter(OPS, "soak operations (5 updates each)"),
                r.counter(BYTES, "random amounts added"),
                r.gauge(QUEUE, "random values reported, negative ones included"),
                r.histogram(LATENCY, "random values over 41 octaves"),
                r.counterFamily(REQUESTS, "ops by thread type and shard", "thread", "shard"));
    }

    /** The family series' index in {@link SoakCounts#series}: thread type x SHARDS + shard. */
    static int seriesIndex(Labels l) {
        int type = l.get("thread").equals(THREAD_TYPES[0]) ? 0 : 1;
        return type * SHARDS + Integer.parseInt(l.get("shard"));
    }

    /** The family series of index {@code i} as the exposition writes it. */
    static String seriesKey(int i) {
        return REQUESTS + "{thread=\"" + THREAD_TYPES[i / SHARDS] + "\",shard=\"" + i % SHARDS + "\"}";
    }
}
