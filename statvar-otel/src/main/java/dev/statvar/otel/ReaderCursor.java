package dev.statvar.otel;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;

import java.util.Collection;

/**
 * A reader as {@link StatvarMetricProducer#forReader} returns it: the wrapped reader's collections
 * (periodic, {@code forceFlush}, {@code shutdown}) run with this reader's cursor current on the
 * collecting thread, so the producer converts the window since this reader's previous collection.
 * Every other call is the wrapped reader's.
 */
final class ReaderCursor implements MetricReader {
    private final MetricReader reader;
    private final StatvarMetricProducer producer;
    private final SnapshotLog.Cursor cursor;

    ReaderCursor(MetricReader reader, StatvarMetricProducer producer, SnapshotLog.Cursor cursor) {
        this.reader = reader;
        this.producer = producer;
        this.cursor = cursor;
    }

    @Override
    public void register(CollectionRegistration registration) {
        reader.register(new CollectionRegistration() {
            @Override
            public Collection<MetricData> collectAllMetrics() {
                return producer.collectAs(cursor, registration);
            }
        });
    }

    @Override
    public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
        return reader.getAggregationTemporality(instrumentType);
    }

    @Override
    public Aggregation getDefaultAggregation(InstrumentType instrumentType) {
        return reader.getDefaultAggregation(instrumentType);
    }

    @Override
    public MemoryMode getMemoryMode() {
        return reader.getMemoryMode();
    }

    @Override
    public CompletableResultCode forceFlush() {
        return reader.forceFlush();
    }

    /** Shuts the wrapped reader down (its last collection included), then lets the producer forget this cursor. */
    @Override
    public CompletableResultCode shutdown() {
        CompletableResultCode result = reader.shutdown();
        result.whenComplete(() -> producer.release(cursor));
        return result;
    }

    @Override
    public String toString() {
        return "StatvarMetricProducer.forReader(" + reader + ")";
    }
}
