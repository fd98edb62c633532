package dev.statvar.prometheus;

import dev.statvar.ExponentialBuckets;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import dev.statvar.export.ExportOptions;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.NativeHistogramBuckets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Arrays;
import java.util.Locale;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stated bound, end to end: random values recorded in statvar, converted, and for each quantile the
 * native bucket that holds its rank (where any estimate, Prometheus' histogram_quantile's included, lies)
 * compared with the exact quantile of the recorded values. Both ends of that bucket must be within
 * {@link StatvarSnapshots#relativeErrorBound} of it. Nanoseconds exposed in seconds (not aligned with
 * powers of two), values as they are, several precisions and schemas, zeros mixed in.
 */
@Timeout(120)
class NativeErrorBoundTest {
    private static final double[] QUANTILES = {0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0};

    @Test
    void nanosecondsInSecondsAtTheDefaults() {
        check("latency_nanoseconds", HistogramPrecision.DEFAULT, StatvarSnapshots.SCHEMA_FROM_PRECISION, 1e-9, 1);
    }

    @Test
    void valuesAsTheyAre() {
        check("size_bytes", HistogramPrecision.DEFAULT, StatvarSnapshots.SCHEMA_FROM_PRECISION, 1, 2);
    }

    @Test
    void otherPrecisionsAndSchemas() {
        check("a_nanoseconds", HistogramPrecision.ofSubBucketBits(3), StatvarSnapshots.SCHEMA_FROM_PRECISION, 1e-9, 3);
        check("b_nanoseconds", HistogramPrecision.ofSubBucketBits(9), StatvarSnapshots.SCHEMA_FROM_PRECISION, 1e-9, 4);
        check("c_millionths", HistogramPrecision.DEFAULT, 3, 1e-6, 5);
        check("d", HistogramPrecision.ofSubBucketBits(10), 8, 1, 6);
    }

    /** Records 20,000 values (1 % zeros, the rest log-uniform over 1 .. 10^10) and checks every quantile. */
    private static void check(String name, HistogramPrecision precision, int schema, double scale, long seed) {
        StatRegistry registry = StatRegistry.create();
        Histogram h = registry.histogram(name, "", precision);
        Random rnd = new Random(seed);
        long[] values = new long[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = rnd.nextInt(100) == 0 ? 0 : (long) Math.pow(10, 10 * rnd.nextDouble());
            h.record(values[i]);
        }
        Arrays.sort(values);
        HistogramValue recorded = registry.collect().histogram(name);
        StatvarSnapshots conversion = StatvarSnapshots.of(ExportOptions.defaults()).withNativeSchema(schema)
                .withMaxNativeBuckets(10_000); // the bound at the schema asked for; BucketLimitTest lowers it
        MetricSnapshots s = conversion.convert(java.util.List.of(recorded), null, null);
        HistogramSnapshot.HistogramDataPointSnapshot d = ((HistogramSnapshot) s.get(0)).getDataPoints().get(0);
        int used = d.getNativeSchema();
        assertEquals(schema == StatvarSnapshots.SCHEMA_FROM_PRECISION ? StatvarSnapshots.schemaFor(precision) : schema, used);
        double bound = StatvarSnapshots.relativeErrorBound(precision, used);
        NativeHistogramBuckets pos = d.getNativeBucketsForPositiveValues();
        double worst = 0;
        for (double q : QUANTILES) {
            long rank = Math.max(1, (long) Math.ceil(q * values.length));
            double exact = values[(int) rank - 1] * scale;
            long seen = d.getNativeZeroCount();
            if (seen >= rank) {
                assertEquals(0.0, exact, name + ": q" + q + " in the zero bucket");
                continue;
            }
            int k = 0;
            while ((seen += pos.getCount(k)) < rank) {
                k++;
            }
            double lo = ExponentialBuckets.upperBound(pos.getBucketIndex(k) - 1, used);
            double hi = ExponentialBuckets.upperBound(pos.getBucketIndex(k), used);
            double err = Math.max(Math.abs(lo - exact), Math.abs(hi - exact)) / exact;
            worst = Math.max(worst, err);
            assertTrue(err <= bound * (1 + 1e-9), String.format(Locale.ROOT,
                    "%s: q%s exact %s, native bucket (%s, %s]: %.4f %% > bound %.4f %%", name, q, exact, lo, hi,
                    err * 100, bound * 100));
        }
        System.out.printf(Locale.ROOT, "NativeErrorBoundTest %s: subBucketBits %d, schema %d: worst bucket end %.3f %% "
                + "of the exact quantile, bound %.3f %%%n", name, precision.subBucketBits(), used, worst * 100, bound * 100);
    }
}
