package dev.statvar.otel;

import dev.statvar.HistogramValue;

import java.util.ArrayList;
import java.util.List;

/*
 * Design
 * ------
 * OpenTelemetry's explicit-bucket histogram has bounds b0 < b1 < ... and counts for
 * (-inf, b0], (b0, b1], ..., (b_last, +inf). statvar's log-linear buckets hold whole integer
 * ranges [lo, hi]. The bounds are BucketBoundaries.at(precision), the ones the Prometheus
 * exposition uses: each requested boundary moved up to the upper bound of the statvar bucket that
 * holds it, so every statvar bucket lies wholly inside one OpenTelemetry bucket and no count is
 * estimated.
 */

/** The OpenTelemetry bucket bounds of one statvar precision, and a histogram's counts in them. Immutable. */
final class ExplicitBuckets {
    private final long[] bounds;
    private final List<Double> boundsAsDoubles;

    /** {@code bounds}: increasing, each the upper bound of a statvar bucket ({@code BucketBoundaries.at}). */
    ExplicitBuckets(long[] bounds) {
        this.bounds = bounds.clone();
        List<Double> d = new ArrayList<>(bounds.length);
        for (long le : bounds) {
            d.add((double) le); // exact: the bounds stay far below 2^53
        }
        this.boundsAsDoubles = List.copyOf(d);
    }

    /** The bounds, as OpenTelemetry takes them. */
    List<Double> bounds() {
        return boundsAsDoubles;
    }

    /**
     * Counts of {@code h} per OpenTelemetry bucket: {@code bounds().size() + 1} entries, the last
     * for values above the last bound. Exact: a statvar bucket never straddles a bound.
     */
    long[] counts(HistogramValue h) {
        long[] counts = new long[bounds.length + 1];
        int i = 0;
        for (HistogramValue.Bucket b : h.buckets()) {
            while (i < bounds.length && b.upperBound() > bounds[i]) {
                i++;
            }
            counts[i] += b.count();
        }
        return counts;
    }
}
