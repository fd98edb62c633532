package dev.statvar.micrometer;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.NamingConvention;

/**
 * micrometer-registry-prometheus 1.17.2's {@code PrometheusNamingConvention} (without a timer suffix),
 * the default convention of {@link StatvarMeterRegistry}'s scrape: snake case through client_java's
 * escaping (characters outside {@code [a-zA-Z0-9_:]} become {@code _}); counters, summaries and gauges
 * get their base unit appended, timers and long task timers {@code _seconds}; the suffixes the writer
 * adds ({@code _total}, {@code _created}, {@code _bucket}, {@code _info}) are cut. Stateless.
 */
final class PrometheusConvention implements NamingConvention {
    @Override
    public String name(String name, Meter.Type type, String baseUnit) {
        String n = StatNames.sanitize(name);
        switch (type) {
            case COUNTER, DISTRIBUTION_SUMMARY, GAUGE -> {
                if (baseUnit != null && !n.endsWith("_" + baseUnit)) {
                    n += "_" + baseUnit;
                }
            }
            case TIMER, LONG_TASK_TIMER -> {
                if (!n.endsWith("_seconds")) {
                    n += "_seconds";
                }
            }
            default -> {
            }
        }
        return ScrapeRenderer.metricName(n);
    }

    @Override
    public String tagKey(String key) {
        return StatNames.labelName(key);
    }
}
