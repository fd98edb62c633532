package dev.statvar.lab.counters.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

class ImplementationsTest {

    private static List<String> names(List<? extends Implementations.Impl<?>> impls) {
        List<String> names = new ArrayList<>();
        for (Implementations.Impl<?> impl : impls) {
            names.add(impl.name());
        }
        return names;
    }

    @Test
    void namesAreUniqueAndNonBlank() {
        List<String> all = new ArrayList<>(names(Implementations.counters()));
        Set<String> counters = new HashSet<>(all);
        assertEquals(all.size(), counters.size(), "counter names unique: " + all);
        List<String> gauges = names(Implementations.gauges());
        assertEquals(gauges.size(), new HashSet<>(gauges).size(), "gauge names unique: " + gauges);
        for (String n : all) {
            assertFalse(n.isBlank());
        }
        for (String n : gauges) {
            assertFalse(n.isBlank());
        }
    }

    @Test
    void articleDisplayNamesArePresent() {
        assertTrue(names(Implementations.counters()).containsAll(List.of(
                "EmptyCounter", "TrivialCounter", "VolatileCounter", "SimpleCounter", "AtomicCounter",
                "Compound Trivial", "Compound Volatile", "Compound Simple", "Compound Atomic",
                "Compound Lazy", "FastCounter", "FastAtomicCounter", "Compound Lazy Volatile",
                "Compound LazyAlloc", "LongAccumulatorCounter", "LongAdderCounter")));
        assertTrue(names(Implementations.gauges()).containsAll(List.of(
                "Simple", "Compound Simple", "Compound Lazy", "FastGauge", "Compound Lazy Volatile",
                "Compound LazyAlloc", "Compound Lazy Buffer")));
    }

    @Test
    void eachCounterFactoryCreatesAFreshInstance() {
        for (Implementations.Impl<ServerCounter> impl : Implementations.counters()) {
            ServerCounter a = impl.factory().get();
            ServerCounter b = impl.factory().get();
            assertNotNull(a, impl.name());
            assertNotSame(a, b, impl.name());
            if (impl.indirect()) {
                assertInstanceOf(IndirectCounter.class, a, impl.name());
            }
            a.getThreadLocalView().add(5);
            assertEquals(0, b.getAndReset(), impl.name() + ": instances share no state");
        }
    }

    @Test
    void eachGaugeFactoryCreatesAFreshInstance() {
        for (Implementations.Impl<ServerGauge> impl : Implementations.gauges()) {
            ServerGauge a = impl.factory().get();
            ServerGauge b = impl.factory().get();
            assertNotNull(a, impl.name());
            assertNotSame(a, b, impl.name());
        }
    }

    @Test
    void emptyCounterReturnsZero() {
        Implementations.Impl<ServerCounter> empty = Implementations.counters().get(0);
        assertEquals("EmptyCounter", empty.name());
        ServerCounter c = empty.factory().get();
        assertInstanceOf(EmptyCounter.class, c);
        c.add(7);
        c.getThreadLocalView().add();
        assertEquals(0, c.getAndReset());
        assertFalse(empty.expectedExact());
    }

    /** Every registered counter but the empty one counts a single thread's adds under its protocol. */
    @TestFactory
    Stream<DynamicTest> registeredCountersCountOneThread() {
        return Implementations.counters().stream().filter(i -> !i.name().equals("EmptyCounter"))
                .map(impl -> DynamicTest.dynamicTest(impl.name(), () -> {
                    ServerCounter c = impl.factory().get();
                    Counter view = c.getThreadLocalView();
                    view.add(2);
                    view.add();
                    assertEquals(3, collect(impl, c));
                    assertEquals(0, collect(impl, c));
                    view.add(4);
                    assertEquals(4, collect(impl, c));
                }));
    }

    private static long collect(Implementations.Impl<ServerCounter> impl, ServerCounter c) {
        return impl.indirect() ? ((IndirectCounter) c).getAndResetValue().get() : c.getAndReset();
    }

    /**
     * Every registered gauge but the empty one and the buffer one (whose blocks may hold stale data,
     * see {@link BufferGaugeValue}) records a single thread's reports.
     */
    @TestFactory
    Stream<DynamicTest> registeredGaugesRecordOneThread() {
        return Implementations.gauges().stream()
                .filter(i -> !i.name().equals("EmptyGauge") && !i.name().equals("Compound Lazy Buffer"))
                .map(impl -> DynamicTest.dynamicTest(impl.name(), () -> {
                    ServerGauge g = impl.factory().get();
                    Gauge view = g.getThreadLocalView();
                    view.report(4);
                    view.report(-6);
                    GaugeSingleThreadTest.assertValue(g.getAndReset(), 2, -2, 4, -6);
                    GaugeSingleThreadTest.assertEmpty(g.getAndReset());
                }));
    }
}
