package dev.statvar.lab.counters.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Single-thread behaviour of every counter class: add, then collect returns the sum and resets. */
class CounterSingleThreadTest {

    /** Every counter class that works stand-alone, by class (compounds over each view class). */
    static Map<String, Supplier<ServerCounter>> standalone() {
        Map<String, Supplier<ServerCounter>> m = new LinkedHashMap<>();
        m.put("TrivialCounter", TrivialCounter::new);
        m.put("VolatileCounter", VolatileCounter::new);
        m.put("SimpleCounter", SimpleCounter::new);
        m.put("AtomicCounter", AtomicCounter::new);
        m.put("LazyCounter", LazyCounter::new);
        m.put("PaddedLazyCounter", PaddedLazyCounter::new);
        m.put("LazyVolatileCounter", LazyVolatileCounter::new);
        m.put("LazyCounter2", LazyCounter2::new);
        m.put("LazyCounter3", LazyCounter3::new);
        m.put("LazyCounter4", LazyCounter4::new);
        m.put("LongAdderCounter", LongAdderCounter::new);
        m.put("LongAccumulatorCounter", LongAccumulatorCounter::new);
        m.put("LongAdderDeltaCounter", LongAdderDeltaCounter::new);
        m.put("LongAccumulatorDeltaCounter", LongAccumulatorDeltaCounter::new);
        for (Class<? extends ServerCounter> c : java.util.List.of(TrivialCounter.class,
                VolatileCounter.class, SimpleCounter.class, AtomicCounter.class, LazyCounter.class)) {
            m.put("CompoundCounter(" + c.getSimpleName() + ")", () -> new CompoundCounter(c));
        }
        for (Class<? extends IndirectCounter> c : java.util.List.of(LazyCounter.class,
                PaddedLazyCounter.class, LazyVolatileCounter.class, LazyAllocCounter.class,
                LazyCounter2.class, LazyCounter3.class, LazyCounter4.class)) {
            m.put("LazyCompoundCounter(" + c.getSimpleName() + ")", () -> new LazyCompoundCounter(c));
        }
        m.put("FastCounter", FastCounter::new);
        m.put("FastAtomicCounter", FastAtomicCounter::new);
        return m;
    }

    @TestFactory
    Stream<DynamicTest> addThenGetAndResetReturnsSumAndResets() {
        return standalone().entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            ServerCounter c = e.getValue().get();
            Counter view = c.getThreadLocalView();
            view.add(3);
            view.add();
            view.add(10);
            assertEquals(14, c.getAndReset());
            assertEquals(0, c.getAndReset());
            view.add(2);
            c.add(5); // the counter itself: same object, or the compound's own (synchronised) value
            assertEquals(7, c.getAndReset());
            assertEquals(0, c.getAndReset());
        }));
    }

    @Test
    void emptyCounterCountsNothing() {
        EmptyCounter c = new EmptyCounter();
        c.add(5);
        c.add();
        assertSame(c, c.getThreadLocalView());
        assertEquals(0, c.getAndReset());
    }

    @Test
    void compoundCounterSumsItsViews() {
        CompoundCounter c = new CompoundCounter(SimpleCounter.class);
        Counter v1 = c.getThreadLocalView();
        Counter v2 = c.getThreadLocalView();
        v1.add(1);
        v2.add(20);
        c.add(300);
        assertEquals(321, c.getAndReset());
        assertEquals(0, c.getAndReset());
    }

    @Test
    void lazyCounterValueIsDetachedFromLaterAdds() {
        LazyCounter c = new LazyCounter();
        c.add(4);
        CounterValue v = c.getAndResetValue();
        c.add(100); // goes into the new value object
        assertEquals(4, v.get());
        assertEquals(100, c.getAndResetValue().get());
    }

    @TestFactory
    Stream<DynamicTest> twoValueLazyCountersKeepTheCollectedValueUntilTheNextCollection() {
        Map<String, Supplier<IndirectCounter>> m = new LinkedHashMap<>();
        m.put("LazyCounter2", LazyCounter2::new);
        m.put("LazyCounter3", LazyCounter3::new);
        m.put("LazyCounter4", LazyCounter4::new);
        return m.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            IndirectCounter c = e.getValue().get();
            c.add(14);
            CounterValue v = c.getAndResetValue();
            c.add(5);
            assertEquals(14, v.get(), "collected value unchanged by later adds");
            CounterValue v2 = c.getAndResetValue();
            assertEquals(5, v2.get());
            c.add(1);
            assertEquals(1, c.getAndResetValue().get());
        }));
    }

    @Test
    void lazyCounter4SwapAndGet() {
        LazyCounter4 c = new LazyCounter4();
        c.add(3);
        c.swap();
        c.add(9);
        assertEquals(3, c.get());
        c.swap();
        assertEquals(9, c.get());
        c.swap();
        assertEquals(0, c.get());
    }

    @Test
    void lazyAllocCounterAllocatesOnFirstAddAndReturnsNullWhenIdle() {
        LazyAllocCounter c = new LazyAllocCounter();
        assertNull(c.getAndResetValue());
        c.add(4);
        c.add(2);
        CounterValue v = c.getAndResetValue();
        assertNotNull(v);
        assertEquals(6, v.get());
        assertNull(c.getAndResetValue());
        assertThrows(NullPointerException.class, c::getAndReset, "article's stand-alone behaviour");
    }

    @Test
    void compoundCounterValueSkipsNulls() {
        MutableCounterValue a = new MutableCounterValue();
        a.add(5);
        PaddedMutableCounterValue b = new PaddedMutableCounterValue();
        b.add(6);
        assertEquals(12, new CompoundCounterValue(new CounterValue[] {a, null, b}, 1).get());
    }

    @Test
    void mutableCounterValuesAddAndReset() {
        MutableCounterValue a = new MutableCounterValue();
        a.add(5);
        a.add(2);
        assertEquals(7, a.get());
        a.reset();
        assertEquals(0, a.get());
        MutableVolatileCounterValue v = new MutableVolatileCounterValue();
        v.add(8);
        assertEquals(8, v.get());
    }

    @Test
    void deltaCountersReportDeltasWithoutResettingTheAccumulator() {
        for (ServerCounter c : new ServerCounter[] {new LongAdderDeltaCounter(), new LongAccumulatorDeltaCounter()}) {
            c.add(10);
            assertEquals(10, c.getAndReset());
            c.add(3);
            c.add(4);
            assertEquals(7, c.getAndReset());
            assertEquals(0, c.getAndReset());
        }
    }

    @Test
    void fastCountersAreTheirOwnThreadLocalView() {
        FastCounter f = new FastCounter();
        assertSame(f, f.getThreadLocalView());
        FastAtomicCounter a = new FastAtomicCounter();
        assertSame(a, a.getThreadLocalView());
    }
}
