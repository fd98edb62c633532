package dev.statvar.otel;

import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/*
 * Design
 * ------
 * OpenTelemetry's explicit-bucket histogram has bounds b0 < b1 < ... and counts for
 * (-inf, b0], (b0, b1], ..., (b_last, +inf). statvar's log-linear buckets hold whole integer
 * ranges [lo, hi]. Each requested boundary is moved up to the upper bound of the statvar bucket
 * that holds it, as statvar-export's Prometheus exposition does (ExportOptions' "each is exposed
 * as the upper bound of the log-linear bucket holding it"): every statvar bucket then lies wholly
 * inside one OpenTelemetry bucket, so no count is estimated. Exposition's own helpers are
 * package-private in dev.statvar.export, hence this small equivalent; StatvarMetricProducerTest
 * checks that both give the same cumulative counts for the same histogram.
 */

/** The OpenTelemetry bucket bounds of one statvar precision, and a histogram's counts in them. Immutable. */
final class ExplicitBuckets {
    private final long[] bounds;
    private final List<Double> boundsAsDoubles;

    /** {@code requested}: increasing, {@code >= 0} (validated by the producer's builder). */
    ExplicitBuckets(long[] requested, HistogramPrecision precision) {
        long[] les = new long[requested.length];
        int n = 0;
        for (long b : requested) {
            long le = precision.upperBound(precision.bucketIndex(b));
            if (n == 0 || le > les[n - 1]) {
                les[n++] = le;
            }
        }
        this.bounds = Arrays.copyOf(les, n);
        List<Double> d = new ArrayList<>(n);
        for (long le : bounds) {
            d.add((double) le); // exact: the bounds stay far below 2^53
        }
        this.boundsAsDoubles = List.copyOf(d);
    }

    /** The bounds, as OpenTelemetry takes them. */
    List<Double> bounds() {
        return boundsAsDoubles;
    }

    /** The bounds as integers (each the inclusive upper end of a statvar bucket). */
    long[] longBounds() {
        return bounds.clone();
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
