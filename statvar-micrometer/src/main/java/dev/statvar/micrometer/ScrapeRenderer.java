package dev.statvar.micrometer;

import dev.statvar.Snapshot;
import dev.statvar.micrometer.MeterExposition.Family;
import dev.statvar.micrometer.MeterExposition.Sample;
import dev.statvar.micrometer.MeterExposition.Type;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.NamingConvention;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Renders a registry's meters as micrometer-registry-prometheus 1.17.2 does
 * ({@code PrometheusMeterRegistry.newCounter} .. {@code newMeter}): names and tags through the naming
 * convention, counters {@code _total}; timers, summaries and long task timers a summary
 * ({@code _count}, {@code _sum}, {@code quantile} series when percentiles are published) or, when the
 * meter has histogram buckets (percentile histogram or SLOs), a histogram with exactly those {@code le}
 * values and {@code +Inf}; each with a {@code _max} gauge; function timers a summary; gauges read now.
 * statvar-backed meters are read from one statvar {@link Snapshot}; the other meters (Micrometer's own
 * pull-style meters and fallbacks) as Micrometer reads them.
 *
 * <h2>Threading</h2>
 * Stateless; each call builds its own {@link MeterExposition} on the calling thread.
 */
final class ScrapeRenderer {
    private ScrapeRenderer() {
    }

    static MeterExposition render(Iterable<Meter> meters, NamingConvention convention, Snapshot stats) {
        MeterExposition out = new MeterExposition();
        for (Meter m : meters) {
            Meter.Id id = m.getId();
            String name = metricName(id.getConventionName(convention));
            List<Tag> tags = id.getConventionTags(convention);
            String help = id.getDescription() != null ? id.getDescription() : " ";
            m.use(
                    g -> gauge(out, name, help, tags, g.value(), id.getName().endsWith(".info")),
                    c -> counter(out, name, help, tags, c instanceof StatvarCounter sc ? sc.count(stats) : c.count()),
                    t -> distribution(out, name, help, tags,
                            t instanceof StatvarTimer st ? st.snapshot(stats) : t.takeSnapshot(), true, false),
                    s -> distribution(out, name, help, tags,
                            s instanceof StatvarDistributionSummary ss ? ss.snapshot(stats) : s.takeSnapshot(), false,
                            false),
                    ltt -> distribution(out, name, help, tags, ltt.takeSnapshot(), true, true),
                    tg -> gauge(out, name, help, tags, tg.value(), false),
                    fc -> counter(out, name, help, tags, fc.count()),
                    ft -> {
                        Family f = out.family(name, Type.SUMMARY, help);
                        f.samples.add(new Sample("_count", MeterExposition.labels(tags), Long.toString((long) ft.count())));
                        f.samples.add(new Sample("_sum", MeterExposition.labels(tags),
                                MeterExposition.number(ft.totalTime(TimeUnit.SECONDS))));
                    },
                    other -> custom(out, name, help, tags, other.measure()));
        }
        return out;
    }

    /**
     * A name as client_java's {@code PrometheusNaming.sanitizeMetricName} leaves it: characters outside
     * {@code [a-zA-Z0-9_:]} become {@code _}, and the suffixes the writers add ({@code _total},
     * {@code _created}, {@code _bucket}, {@code _info}) are cut.
     */
    static String metricName(String conventionName) {
        String n = StatNames.sanitize(conventionName);
        boolean cut = true;
        while (cut) {
            cut = false;
            for (String suffix : new String[]{"_total", "_created", "_bucket", "_info"}) {
                if (n.endsWith(suffix) && n.length() > suffix.length()) {
                    n = n.substring(0, n.length() - suffix.length());
                    cut = true;
                }
            }
        }
        return n;
    }

    private static void counter(MeterExposition out, String name, String help, List<Tag> tags, double value) {
        out.family(name, Type.COUNTER, help).samples
                .add(new Sample("_total", MeterExposition.labels(tags), MeterExposition.number(value)));
    }

    private static void gauge(MeterExposition out, String name, String help, List<Tag> tags, double value, boolean info) {
        if (info) { // Micrometer's ".info" gauges become an info metric: the tags, value 1
            out.family(name, Type.INFO, help).samples.add(new Sample("_info", MeterExposition.labels(tags), "1"));
        } else {
            out.family(name, Type.GAUGE, help).samples
                    .add(new Sample("", MeterExposition.labels(tags), MeterExposition.number(value)));
        }
    }

    /** A timer's, summary's or long task timer's snapshot; {@code time}: its values are nanoseconds, written in seconds. */
    private static void distribution(MeterExposition out, String name, String help, List<Tag> tags, HistogramSnapshot hs,
                                     boolean time, boolean gaugeHistogram) {
        List<String[]> labels = MeterExposition.labels(tags);
        CountAtBucket[] buckets = hs.histogramCounts();
        if (buckets.length == 0) {
            Family f = out.family(name, Type.SUMMARY, help);
            for (ValueAtPercentile v : hs.percentileValues()) {
                f.samples.add(new Sample("", MeterExposition.labels(tags, "quantile", MeterExposition.number(v.percentile())),
                        MeterExposition.number(time ? v.value(TimeUnit.SECONDS) : v.value())));
            }
            f.samples.add(new Sample("_count", labels, Long.toString(hs.count())));
            f.samples.add(new Sample("_sum", labels, MeterExposition.number(time ? hs.total(TimeUnit.SECONDS) : hs.total())));
        } else {
            Family f = out.family(name, gaugeHistogram ? Type.GAUGE_HISTOGRAM : Type.HISTOGRAM, help);
            long cumulative = 0;
            double previous = 0;
            for (CountAtBucket c : buckets) { // Micrometer's counts are cumulative; client_java re-adds the differences
                cumulative += (long) (c.count() - previous);
                previous = c.count();
                f.samples.add(new Sample("_bucket", MeterExposition.labels(tags, "le",
                        MeterExposition.number(time ? c.bucket(TimeUnit.SECONDS) : c.bucket())), Long.toString(cumulative)));
            }
            if (Double.isFinite(buckets[buckets.length - 1].bucket())) {
                cumulative += Math.max(0, (long) (hs.count() - previous));
                f.samples.add(new Sample("_bucket", MeterExposition.labels(tags, "le", "+Inf"), Long.toString(cumulative)));
            }
            f.samples.add(new Sample(gaugeHistogram ? "_gcount" : "_count", labels, Long.toString(cumulative)));
            f.samples.add(new Sample(gaugeHistogram ? "_gsum" : "_sum", labels,
                    MeterExposition.number(time ? hs.total(TimeUnit.SECONDS) : hs.total())));
        }
        out.family(name + "_max", Type.GAUGE, help).samples
                .add(new Sample("", labels, MeterExposition.number(time ? hs.max(TimeUnit.SECONDS) : hs.max())));
    }

    /** A custom meter: one family per statistic, as {@code PrometheusMeterRegistry.newMeter}. */
    private static void custom(MeterExposition out, String name, String help, List<Tag> tags, Iterable<Measurement> ms) {
        for (Measurement m : ms) {
            List<String[]> labels = MeterExposition.labels(tags, "statistic", m.getStatistic().toString());
            String value = MeterExposition.number(m.getValue());
            switch (m.getStatistic()) {
                case TOTAL, TOTAL_TIME -> out.family(name + "_sum", Type.COUNTER, help).samples
                        .add(new Sample("_total", labels, value));
                case COUNT -> out.family(name, Type.COUNTER, help).samples.add(new Sample("_total", labels, value));
                case MAX -> out.family(name + "_max", Type.GAUGE, help).samples.add(new Sample("", labels, value));
                case ACTIVE_TASKS -> out.family(name + "_active_count", Type.GAUGE, help).samples
                        .add(new Sample("", labels, value));
                case DURATION -> out.family(name + "_duration_sum", Type.GAUGE, help).samples
                        .add(new Sample("", labels, value));
                default -> out.family(name + "_value", Type.GAUGE, help).samples.add(new Sample("", labels, value));
            }
        }
    }
}
