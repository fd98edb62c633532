package dev.statvar.prometheus;

import dev.statvar.ExponentialBuckets;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Native bucket indices against client_java's own Histogram (the oracle: what Prometheus' Go and Java
 * clients put a value in), at every schema, for random values over 30 decades, powers of two and the
 * neighbours of bucket boundaries; and the pair merging that lowers a schema.
 */
@Timeout(120)
class NativeIndexTest {
    private static int clientJavaIndex(double value, int schema) {
        Histogram h = Histogram.builder().name("x").nativeOnly().nativeInitialSchema(schema)
                .nativeMaxNumberOfBuckets(0).withoutExemplars().build();
        h.observe(value);
        HistogramSnapshot.HistogramDataPointSnapshot d = h.collect().getDataPoints().get(0);
        assertEquals(0, d.getNativeZeroCount(), () -> value + " in client_java's zero bucket");
        return d.getNativeBucketsForPositiveValues().getBucketIndex(0);
    }

    @Test
    void indicesAreClientJavas() {
        Random rnd = new Random(33);
        int checked = 0;
        for (int schema = ExponentialBuckets.MIN_SCHEMA; schema <= ExponentialBuckets.MAX_SCHEMA; schema++) {
            for (int k = 0; k < 400; k++) {
                double v = Math.pow(10, -12 + 30 * rnd.nextDouble());
                assertEquals(clientJavaIndex(v, schema), ExponentialBuckets.index(v, schema), "value " + v + " schema " + schema);
                checked++;
            }
            for (int e = -40; e <= 40; e++) {
                double p = Math.scalb(1.0, e);
                for (double v : new double[]{p, Math.nextUp(p), Math.nextDown(p)}) {
                    assertEquals(clientJavaIndex(v, schema), ExponentialBuckets.index(v, schema), "value " + v + " schema " + schema);
                    checked++;
                }
            }
            for (int i = -70; i <= 70; i++) {
                double u = ExponentialBuckets.upperBound(i, schema);
                if (u < 1e-12 || u > 1e18) {
                    continue; // beyond any exposed statvar value (1e-9 .. 2^63)
                }
                for (double v : new double[]{u, Math.nextUp(u), Math.nextDown(u)}) {
                    assertEquals(clientJavaIndex(v, schema), ExponentialBuckets.index(v, schema), "value " + v + " schema " + schema);
                    checked++;
                }
            }
        }
        System.out.println("NativeIndexTest: " + checked + " values, schemas -4..8, same bucket as client_java's Histogram");
    }

    @Test
    void halvingNestsEachBucketInItsParent() {
        for (int schema = ExponentialBuckets.MIN_SCHEMA + 1; schema <= ExponentialBuckets.MAX_SCHEMA; schema++) {
            for (int i = -300; i <= 300; i++) {
                int j = ExponentialBuckets.mergedIndex(i);
                double lo = ExponentialBuckets.upperBound(i - 1, schema);
                double hi = ExponentialBuckets.upperBound(i, schema);
                double parentLo = ExponentialBuckets.upperBound(j - 1, schema - 1);
                double parentHi = ExponentialBuckets.upperBound(j, schema - 1);
                assertTrue(lo >= parentLo * (1 - 1e-12) && hi <= parentHi * (1 + 1e-12),
                        "bucket " + i + " of schema " + schema + " not inside bucket " + j + " of " + (schema - 1));
            }
        }
    }
}
