package dev.statvar.export;

import dev.statvar.CounterValue;
import dev.statvar.GaugeValue;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatValue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * A collector sink that appends one CSV row per stat per interval to one file, flushed after
 * every interval. Columns ({@link #HEADER}): the interval, the stat's name, labels
 * ({@code a="x",b="y"}), kind, then per kind: a counter's interval {@code value} and
 * {@code total}; a gauge's {@code count, sum, min, max, mean} of the interval and its
 * {@code total} count; a histogram's {@code count, sum, min, max, mean, p50, p90, p99, p999}
 * of the interval. Empty where not applicable. The header is written when the file is new or
 * empty. Called by the collector thread only; {@link #close()} closes the file.
 */
public final class CsvReporter implements Consumer<Snapshot>, AutoCloseable {
    /** The header row. */
    public static final String HEADER = "interval_start,interval_end,name,labels,kind,value,total,count,sum,min,max,mean,p50,p90,p99,p999";

    private final Path file;
    private final BufferedWriter out;

    /**
     * Appends to {@code file}, creating it (and writing the header) if needed.
     *
     * @param file the CSV file; kept open until {@link #close()}
     * @throws IOException if it cannot be opened
     */
    public CsvReporter(Path file) throws IOException {
        this.file = file;
        boolean fresh = !Files.exists(file) || Files.size(file) == 0;
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (fresh) {
            out.write(HEADER);
            out.write('\n');
            out.flush();
        }
    }

    /**
     * Appends one row per stat of {@code s}, then flushes.
     *
     * @param s the interval just closed
     * @throws UncheckedIOException if the file cannot be written, or is closed (the collector logs it
     *                              and goes on)
     */
    @Override
    public synchronized void accept(Snapshot s) {
        try {
            for (StatValue v : s) {
                out.write(row(s, v));
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    static String row(Snapshot s, StatValue v) {
        StringBuilder r = new StringBuilder(128);
        r.append(s.start()).append(',').append(s.end()).append(',').append(v.name()).append(',');
        String labels = v.labels().toString();
        if (!labels.isEmpty()) {
            r.append('"').append(labels.substring(1, labels.length() - 1).replace("\"", "\"\"")).append('"');
        }
        r.append(',').append(v.kind().label()).append(',');
        if (v instanceof CounterValue c) {
            r.append(Long.toUnsignedString(c.value())).append(',').append(Long.toUnsignedString(c.total())).append(",,,,,,,,,");
        } else if (v instanceof GaugeValue g) {
            r.append(",").append(g.totalCount()).append(',').append(g.count()).append(',').append(g.sum()).append(',');
            if (!g.isEmpty()) {
                r.append(g.min()).append(',').append(g.max()).append(',');
            } else {
                r.append(",,");
            }
            r.append(g.count() == 0 ? "" : String.format(Locale.ROOT, "%.4f", g.mean())).append(",,,,");
        } else {
            HistogramValue h = (HistogramValue) v;
            r.append(",,").append(h.count()).append(',').append(Long.toUnsignedString(h.sum())).append(',');
            if (h.count() == 0) {
                r.append(",,,,,,");
            } else {
                r.append(h.min()).append(',').append(h.max()).append(',')
                        .append(String.format(Locale.ROOT, "%.4f", h.mean())).append(',')
                        .append(h.valueAtPercentile(50)).append(',').append(h.valueAtPercentile(90)).append(',')
                        .append(h.valueAtPercentile(99)).append(',').append(h.valueAtPercentile(99.9));
            }
        }
        return r.toString();
    }

    /**
     * Closes the file; a later {@link #accept} throws.
     *
     * @throws IOException if closing the file fails
     */
    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
