package dev.statvar.lab.signals;

import dev.statvar.HistogramValue;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * statvar's percentiles against HdrHistogram's, both fed the same samples. Both define the value
 * at percentile p through rank {@code ceil(p / 100 * count)}; statvar promises a value within
 * {@link dev.statvar.HistogramPrecision#maxRelativeError()} of the exact order statistic x, and
 * HdrHistogram reports the highest value of x's bucket (x &lt;= h &lt; x + the bucket's width).
 * So {@code |statvar - h| <= maxRelativeError * h + width(h)} must hold: HdrHistogram's own
 * resolution is added to statvar's stated precision, and with 4 significant digits it is 1/16,384
 * of the value at most. p = 100 compares the maxima.
 */
final class PercentileCheck {
    /** The percentiles checked (100: the maximum). */
    static final double[] PERCENTILES = {50, 90, 95, 99, 99.9, 100};
    /** HdrHistogram's precision here. */
    static final int HDR_DIGITS = 4;

    private PercentileCheck() {
    }

    /** One percentile: statvar's value, HdrHistogram's, and how far apart they may be. */
    record Row(double percentile, long statvar, long hdr, long allowed) {
        boolean ok() {
            return Math.abs(statvar - hdr) <= allowed;
        }

        String line() {
            return String.format(Locale.ROOT, "p%s %d vs %d (diff %d, allowed %d)%s", label(percentile), statvar, hdr,
                    Math.abs(statvar - hdr), allowed, ok() ? "" : " FAILS");
        }
    }

    /** The check of one histogram: its rows, and whether the counts agree. */
    record Result(List<Row> rows, long statvarCount, long hdrCount) {
        boolean ok() {
            return statvarCount == hdrCount && rows.stream().allMatch(Row::ok);
        }

        /** The largest |difference| / allowed over the rows (below 1: passes). */
        double worstRatio() {
            double w = 0;
            for (Row r : rows) {
                w = Math.max(w, r.allowed() == 0 ? (r.statvar() == r.hdr() ? 0 : Double.POSITIVE_INFINITY)
                        : Math.abs(r.statvar() - r.hdr()) / (double) r.allowed());
            }
            return w;
        }

        String summary() {
            StringBuilder sb = new StringBuilder(ok() ? "ok" : "FAILS");
            sb.append(String.format(Locale.ROOT, " (count %d vs %d; worst difference %.2f of allowed)", statvarCount, hdrCount,
                    worstRatio()));
            if (!ok()) {
                for (Row r : rows) {
                    if (!r.ok()) {
                        sb.append("; ").append(r.line());
                    }
                }
            }
            return sb.toString();
        }
    }

    /** A fresh HdrHistogram fed {@code samples} (negative entries: no sample, skipped). */
    static Histogram hdr(long[][] samples) {
        Histogram h = new Histogram(HDR_DIGITS);
        for (long[] row : samples) {
            for (long v : row) {
                if (v >= 0) {
                    h.recordValue(v);
                }
            }
        }
        return h;
    }

    /** The check of statvar's {@code s} against HdrHistogram's {@code h}, fed the same samples. */
    static Result compare(HistogramValue s, Histogram h) {
        double eps = s.precision().maxRelativeError();
        List<Row> rows = new ArrayList<>();
        for (double p : PERCENTILES) {
            long sv = p == 100 ? s.max() : s.valueAtPercentile(p);
            long hv = h.getTotalCount() == 0 ? 0 : p == 100 ? h.getMaxValue() : h.getValueAtPercentile(p);
            rows.add(row(p, sv, hv, h.sizeOfEquivalentValueRange(hv), eps));
        }
        return new Result(rows, s.count(), h.getTotalCount());
    }

    /** One row: allowed difference {@code ceil(eps * hdr) + hdrWidth}. */
    static Row row(double p, long statvar, long hdr, long hdrWidth, double eps) {
        return new Row(p, statvar, hdr, (long) Math.ceil(eps * hdr) + hdrWidth);
    }

    /** {@code 99.9} as "99.9", {@code 50} as "50". */
    static String label(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p);
    }
}
