package dev.statvar.export;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A collector sink that logs one line per stat per interval through {@link System.Logger}
 * (logger {@code dev.statvar.stats}, level INFO, unless told otherwise), e.g.
 * <pre>
 * requests{method="GET"} +120 (total 4567)
 * queue_depth count=3 mean=4.00 min=1 max=9 (total count 812)
 * latency_ns count=1000 min=812 p50=10011 p90=20100 p99=98112 p99.9=120000 max=130211
 * </pre>
 * Called by the collector thread only.
 */
public final class LogReporter implements Consumer<Snapshot> {
    private final System.Logger logger;
    private final System.Logger.Level level;

    /** Logs to {@code dev.statvar.stats} at INFO. */
    public LogReporter() {
        this(System.getLogger("dev.statvar.stats"), System.Logger.Level.INFO);
    }

    /**
     * Logs to {@code logger} at {@code level}.
     *
     * @param logger where the lines go
     * @param level  the level of every line
     * @throws NullPointerException if an argument is null
     */
    public LogReporter(System.Logger logger, System.Logger.Level level) {
        this.logger = Objects.requireNonNull(logger, "logger");
        this.level = Objects.requireNonNull(level, "level");
    }

    /**
     * Logs one line per stat of {@code snapshot}; nothing when the logger does not log the level.
     *
     * @param snapshot the interval just closed
     */
    @Override
    public void accept(Snapshot snapshot) {
        if (!logger.isLoggable(level)) {
            return;
        }
        for (StatValue v : snapshot) {
            logger.log(level, line(v));
        }
    }

    /** The line of one stat. */
    static String line(StatValue v) {
        String id = v.name() + v.labels();
        if (v instanceof CounterValue c) {
            return id + " +" + Long.toUnsignedString(c.value()) + " (total " + Long.toUnsignedString(c.total()) + ")";
        }
        if (v instanceof GaugeValue g) {
            return g.isEmpty() ? id + " count=0 (total count " + g.totalCount() + ")"
                    : String.format(Locale.ROOT, "%s count=%d mean=%.2f min=%d max=%d (total count %d)", id, g.count(),
                    g.mean(), g.min(), g.max(), g.totalCount());
        }
        HistogramValue h = (HistogramValue) v;
        if (h.count() == 0) {
            return id + " count=0";
        }
        return String.format(Locale.ROOT, "%s count=%d min=%d p50=%d p90=%d p99=%d p99.9=%d max=%d", id, h.count(),
                h.min(), h.valueAtPercentile(50), h.valueAtPercentile(90), h.valueAtPercentile(99),
                h.valueAtPercentile(99.9), h.max());
    }
}
