package dev.statvar.prometheus;

import dev.statvar.HistogramValue;
import dev.statvar.ExponentialBuckets;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;

/**
 * Native buckets of statvar histograms as client_java's model holds them: statvar-export's
 * {@link ExponentialBuckets} (the rule and its error bound are there, shared with statvar-otel's exponential
 * histograms) in a {@link NativeHistogramBuckets}. Stateless; thread-safe.
 */
final class NativeMapping {
    private NativeMapping() {
    }

    /** A histogram's native part: the schema used (lowered by the bucket limit), the zero count, the positive buckets. */
    record Result(int schema, long zeroCount, NativeHistogramBuckets positive) {
    }

    /**
     * The native buckets of {@code h} at {@code schema}, its values in {@code unit}, lowered one step at a time
     * (pairs merged) while more than {@code maxBuckets} are populated, down to schema -4 at the least.
     */
    static Result convert(HistogramValue h, Naming unit, int schema, int maxBuckets) {
        ExponentialBuckets b = ExponentialBuckets.of(h, unit.decimals(), schema, maxBuckets);
        NativeHistogramBuckets positive = b.size() == 0 ? NativeHistogramBuckets.EMPTY
                : NativeHistogramBuckets.of(b.indices(), b.counts());
        return new Result(b.schema(), b.zeroCount(), positive);
    }
}
