package dev.statvar.prometheus;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_4_36_2.Metrics;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Length-delimited {@code MetricFamily} messages parsed with client_java's generated classes. */
final class Decoded {
    private Decoded() {
    }

    /** Every family in {@code body}, by name; fails on any malformed or trailing byte. */
    static Map<String, Metrics.MetricFamily> families(byte[] body) {
        Map<String, Metrics.MetricFamily> out = new LinkedHashMap<>();
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        try {
            Metrics.MetricFamily f;
            while ((f = Metrics.MetricFamily.parseDelimitedFrom(in)) != null) {
                if (out.put(f.getName(), f) != null) {
                    throw new AssertionError("family " + f.getName() + " twice");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The absolute native bucket counts of {@code h}'s positive side, index to count, from its spans and deltas. */
    static Map<Integer, Long> positiveBuckets(Metrics.Histogram h) {
        Map<Integer, Long> out = new LinkedHashMap<>();
        int index = 0;
        int d = 0;
        long count = 0;
        for (Metrics.BucketSpan span : h.getPositiveSpanList()) {
            index += span.getOffset();
            for (int k = 0; k < span.getLength(); k++) {
                count += h.getPositiveDelta(d++);
                if (count != 0) {
                    out.put(index, count);
                }
                index++;
            }
        }
        if (d != h.getPositiveDeltaCount()) {
            throw new AssertionError(h.getPositiveDeltaCount() + " deltas for spans of " + d + " buckets");
        }
        return out;
    }

    /** The label values of {@code m}, by name. */
    static Map<String, String> labels(Metrics.Metric m) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Metrics.LabelPair p : m.getLabelList()) {
            out.put(p.getName(), p.getValue());
        }
        return out;
    }

    /** {@code body}'s families as a list, in order. */
    static List<Metrics.MetricFamily> list(byte[] body) {
        return new ArrayList<>(families(body).values());
    }
}
