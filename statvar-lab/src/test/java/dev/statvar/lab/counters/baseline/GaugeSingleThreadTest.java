package dev.statvar.lab.counters.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Single-thread behaviour of every gauge class: report, then getAndReset returns the stats and resets. */
class GaugeSingleThreadTest {

    static void assertValue(GaugeValue v, long count, long sum, long max, long min) {
        assertNotNull(v);
        assertEquals(count, v.getCount(), "count");
        assertEquals(sum, v.getSum(), "sum");
        assertEquals(max, v.getMax(), "max");
        assertEquals(min, v.getMin(), "min");
    }

    static void assertEmpty(GaugeValue v) {
        assertValue(v, 0, 0, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    static Map<String, Supplier<ServerGauge>> standalone() {
        Map<String, Supplier<ServerGauge>> m = new LinkedHashMap<>();
        m.put("SimpleGauge", SimpleGauge::new);
        m.put("LazyGauge", LazyGauge::new);
        m.put("Padded64LazyGauge", Padded64LazyGauge::new);
        m.put("Padded88LazyGauge", Padded88LazyGauge::new);
        m.put("LazyVolatileGauge", LazyVolatileGauge::new);
        m.put("CompoundGauge(SimpleGauge)", () -> new CompoundGauge(SimpleGauge.class));
        for (Class<? extends ServerGauge> c : List.of(SimpleGauge.class, LazyGauge.class,
                Padded64LazyGauge.class, Padded88LazyGauge.class, LazyVolatileGauge.class,
                LazyAllocGauge.class)) {
            m.put("LazyCompoundGauge(" + c.getSimpleName() + ")", () -> new LazyCompoundGauge(c));
        }
        m.put("FastGauge", FastGauge::new);
        return m;
    }

    @TestFactory
    Stream<DynamicTest> reportThenGetAndResetReturnsStatsAndResets() {
        return standalone().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            ServerGauge g = e.getValue().get();
            Gauge view = g.getThreadLocalView();
            view.report(5);
            view.report(-3);
            view.report(10);
            assertValue(g.getAndReset(), 3, 12, 10, -3);
            assertEmpty(g.getAndReset());
            view.report(7);
            g.report(1); // the gauge itself: same object, or the compound's own (synchronised) gauge
            assertValue(g.getAndReset(), 2, 8, 7, 1);
            assertEmpty(g.getAndReset());
        }));
    }

    @Test
    void emptyGaugeRecordsNothing() {
        EmptyGauge g = new EmptyGauge();
        g.report(5);
        assertEmpty(g.getAndReset());
    }

    @Test
    void lazyGaugeValueIsDetachedFromLaterReports() {
        LazyGauge g = new LazyGauge();
        g.report(4);
        GaugeValue v = g.getAndReset();
        g.report(100);
        assertValue(v, 1, 4, 4, 4);
        assertValue(g.getAndReset(), 1, 100, 100, 100);
    }

    @Test
    void lazyAllocGaugeReturnsNullWhenIdle() {
        LazyAllocGauge g = new LazyAllocGauge();
        assertNull(g.getAndReset());
        g.report(2);
        assertValue(g.getAndReset(), 1, 2, 2, 2);
        assertNull(g.getAndReset());
    }

    @Test
    void mutableGaugeValuesReportAndAdd() {
        for (MutableGaugeValue v : new MutableGaugeValue[] {
                new MutableGaugeValue(), new Padded64MutableGaugeValue(), new Padded88MutableGaugeValue()}) {
            assertEmpty(v);
            v.report(3);
            v.report(-1);
            assertValue(v, 2, 2, 3, -1);
            v.add(new SimpleGaugeValue(2, 50, 40, 10));
            v.add(null);
            assertValue(v, 4, 52, 40, -1);
        }
        MutableVolatileGaugeValue mv = new MutableVolatileGaugeValue();
        assertEmpty(mv);
        mv.report(6);
        mv.report(2);
        assertValue(mv, 2, 8, 6, 2);
    }

    @Test
    void compoundGaugeValueSumsLazilySkippingNulls() {
        MutableGaugeValue a = new MutableGaugeValue();
        a.report(5);
        CompoundGaugeValue c = new CompoundGaugeValue(new GaugeValue[] {a, null, new SimpleGaugeValue(1, 9, 9, 9)});
        assertValue(c, 2, 14, 9, 5);
    }

    @Test
    void fastGaugeIsItsOwnThreadLocalView() {
        FastGauge f = new FastGauge();
        assertSame(f, f.getThreadLocalView());
    }

    @Test
    void bufferHeapIsDirectAnd64ByteAligned() {
        assertTrue(BufferGaugeValue.BYTES.isDirect());
        assertEquals(0, BufferGaugeValue.BYTES.alignmentOffset(0, 64));
        for (int i = 0; i < 300; i++) {
            int a = BufferGaugeValue.alloc();
            assertEquals(0, a % 8, "blocks of 8 longs = 64 bytes");
            assertTrue(a >= 0 && a + 4 <= BufferGaugeValue.BYTES.capacity() / 8);
        }
    }

    @Test
    void bufferGaugeValueReportUpdatesItsBlock() {
        int a = BufferGaugeValue.alloc();
        long c0 = BufferGaugeValue.getCount(a);
        long s0 = BufferGaugeValue.getSum(a);
        BufferGaugeValue.report(a, 5);
        BufferGaugeValue.report(a, 7);
        BufferGaugeValue v = new BufferGaugeValue(a);
        assertEquals(c0 + 2, v.getCount());
        assertEquals(s0 + 12, v.getSum());
        assertTrue(v.getMax() >= 7);
        assertTrue(v.getMin() <= 5);
    }

    /**
     * The block handed out may hold a previous gauge's data (the article's allocator neither
     * clears nor initialises it, and wraps round), so this checks the increments only.
     */
    @Test
    void lazyBufferGaugeReportsIntoItsCurrentBlockAndSwapsIt() {
        LazyBufferGauge g = new LazyBufferGauge();
        int a = g.currentAddress();
        long c0 = BufferGaugeValue.getCount(a);
        long s0 = BufferGaugeValue.getSum(a);
        g.report(5);
        g.report(7);
        GaugeValue v = g.getAndReset();
        assertEquals(c0 + 2, v.getCount());
        assertEquals(s0 + 12, v.getSum());
        assertNotEquals(a, g.currentAddress());
        int b = g.currentAddress();
        long c1 = BufferGaugeValue.getCount(b);
        g.report(1);
        assertEquals(c0 + 2, v.getCount(), "collected block unchanged by later reports");
        assertEquals(c1 + 1, g.getAndReset().getCount());
    }
}
