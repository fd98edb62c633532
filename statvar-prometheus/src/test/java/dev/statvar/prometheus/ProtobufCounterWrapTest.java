package dev.statvar.prometheus;

import dev.statvar.Counter;
import dev.statvar.StatRegistry;
import dev.statvar.export.StatExporter;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Issue 32 point 8 in the protobuf format too: statvar-export's exporter, with statvar-prometheus' provider,
 * writes a wrapped counter's total as wraps * 2^64 + total (not a reset) and adds
 * {@code statvar_counter_wraps_total}, as its text formats do ({@code CounterWrapTest} there).
 */
class ProtobufCounterWrapTest {
    @Test
    void aWrappedTotalKeepsRisingAndTheWrapIsCounted() {
        StatRegistry r = StatRegistry.create();
        Counter bytes = r.counter("bytes_total");
        StatExporter ex = StatExporter.of(r); // finds ClientJavaProtobufExposition with ServiceLoader
        bytes.add(Long.MAX_VALUE);
        bytes.add(Long.MAX_VALUE); // 2^64 - 2
        ex.accept(r.collect());
        var before = Decoded.families(ex.prometheusProtobuf());
        assertEquals(0x1p64 - 2, before.get("bytes_total").getMetric(0).getCounter().getValue());
        assertFalse(before.containsKey("statvar_counter_wraps_total"), "no wrap yet, no series");

        bytes.add(10); // 2^64 + 8: the total wraps to 8
        ex.accept(r.collect());
        var after = Decoded.families(ex.prometheusProtobuf());
        assertEquals(0x1p64 + 8, after.get("bytes_total").getMetric(0).getCounter().getValue(), "rising, not a reset to 8");
        assertEquals(1.0, after.get("statvar_counter_wraps_total").getMetric(0).getCounter().getValue());
    }
}
