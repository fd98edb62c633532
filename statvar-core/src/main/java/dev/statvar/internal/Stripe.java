package dev.statvar.internal;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Cells shared by virtual threads (which get no storage of their own). The stats are spread
 * over segments laid out like a thread's array (header, stats, padding); a segment is created
 * on first use and never moved, so counters can be updated with an atomic add and nothing is
 * lost to a copy. Gauges and histograms are updated under {@link #lock}, which parks rather than pins a carrier.
 */
final class Stripe {
    /** Segments per stripe; their capacities double, see {@link Stripes#place}. */
    static final int MAX_SEGMENTS = 32;

    /** Held by every gauge writer of this stripe. */
    final ReentrantLock lock = new ReentrantLock();
    /**
     * Segment arrays by segment number. Each slot is written once, under {@code Engine.lock}, with
     * setRelease; read with getAcquire by writers and under {@code Engine.lock} by the collector.
     */
    final long[][] segments = new long[MAX_SEGMENTS][];
    /**
     * Histogram arrays by histogram index, as a thread's {@code Block.hists}; written by holders of
     * {@link #lock} while also holding {@code Engine.lock}, read by holders of {@link #lock} and by
     * the collector under {@code Engine.lock}.
     */
    long[][] hists;
}
