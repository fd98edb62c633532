package dev.statvar;


/**
 * A histogram's bucket counts as one dense array over statvar bucket indices {@code first ..}: read with
 * {@link HistogramValue#bucketCount(int)} between the buckets of min and max (which cover every value
 * counted), without the {@link HistogramValue#buckets()} list and its objects; when min and max do not
 * cover the count (a value built by hand), from that list. Immutable once made; confined to one conversion.
 *
 * @param first  the statvar bucket index of {@code counts[0]}
 * @param counts counts of buckets {@code first, first + 1, ...}
 */
public record BucketRange(int first, long[] counts) {
    /**
     * The bucket counts of {@code h}.
     *
     * @param h a histogram value
     * @return its counts from the bucket of its min (or first bucket) on; empty when it counted nothing
     */
    public static BucketRange of(HistogramValue h) {
        if (h.count() == 0) {
            return new BucketRange(0, new long[0]);
        }
        HistogramPrecision p = h.precision();
        if (h.min() >= 0 && h.max() >= h.min()) {
            int lo = p.bucketIndex(h.min());
            long[] counts = new long[p.bucketIndex(h.max()) - lo + 1];
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                counts[i] = h.bucketCount(lo + i);
                seen += counts[i];
            }
            if (seen == h.count()) {
                return new BucketRange(lo, counts);
            }
        }
        var buckets = h.buckets(); // min/max do not cover the buckets
        int lo = p.bucketIndex(buckets.get(0).lowerBound());
        long[] counts = new long[p.bucketIndex(buckets.get(buckets.size() - 1).lowerBound()) - lo + 1];
        for (HistogramValue.Bucket b : buckets) {
            counts[p.bucketIndex(b.lowerBound()) - lo] = b.count();
        }
        return new BucketRange(lo, counts);
    }
}
