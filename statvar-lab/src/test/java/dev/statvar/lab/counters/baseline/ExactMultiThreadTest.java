package dev.statvar.lab.counters.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every implementation the registry marks {@code expectedExact} counts exactly with
 * {@value #THREADS} client threads, each updating its own {@code getThreadLocalView()} (obtained
 * in the client thread), while this thread collects periodically following the registry's
 * protocol: direct ones with {@code getAndReset()} used at once; indirect ones collected, then
 * read after a cool-down and before the next collection (see {@link Workers#coolDown()}). After the
 * joins, one last collection (legal for lazy ones too). The workers pause half-way until
 * {@value #COLLECTIONS_BEFORE_RELEASE} collections have been made, so collections surely happen
 * during the run. The buggy implementations are not tested here: their losses are
 * nondeterministic.
 */
class ExactMultiThreadTest {
    static final int THREADS = 4;
    static final int PER_THREAD = 200_000;
    static final int COLLECTIONS_BEFORE_RELEASE = 3;

    @TestFactory
    Stream<DynamicTest> exactCountersCountExactly() {
        return Implementations.counters().stream().filter(Implementations.Impl::expectedExact)
                .map(impl -> DynamicTest.dynamicTest(impl.name(), () -> runCounter(impl)));
    }

    @TestFactory
    Stream<DynamicTest> exactGaugesRecordExactly() {
        return Implementations.gauges().stream().filter(Implementations.Impl::expectedExact)
                .map(impl -> DynamicTest.dynamicTest(impl.name(), () -> runGauge(impl)));
    }

    private static void runCounter(Implementations.Impl<ServerCounter> impl) throws Exception {
        ServerCounter counter = impl.factory().get();
        Workers ws = Workers.start(THREADS, PER_THREAD, w -> {
            Counter view = counter.getThreadLocalView();
            return i -> view.add();
        });
        long total = 0;
        int collections = 0;
        while (ws.anyAlive()) {
            total += collect(impl, counter, ws);
            if (++collections == COLLECTIONS_BEFORE_RELEASE) {
                ws.releaseMidpoint();
            }
            Thread.yield();
        }
        ws.join();
        assertTrue(collections >= COLLECTIONS_BEFORE_RELEASE, "collected during the run");
        total += collect(impl, counter, null);
        assertEquals((long) THREADS * PER_THREAD, total,
                impl.name() + " after " + collections + " collections during the run");
    }

    private static long collect(Implementations.Impl<ServerCounter> impl, ServerCounter counter, Workers ws) {
        if (!impl.indirect()) {
            return counter.getAndReset();
        }
        IndirectCounter ic = assertInstanceOf(IndirectCounter.class, counter);
        CounterValue value = ic.getAndResetValue();
        if (ws != null) {
            ws.coolDown();
        }
        return value.get();
    }

    /** A deterministic spread of positive and negative values, distinct per worker. */
    static long value(int worker, int i) {
        return (i * 7919L + worker * 104_729L) % 20_011 - 10_000 + worker;
    }

    private static void runGauge(Implementations.Impl<ServerGauge> impl) throws Exception {
        ServerGauge gauge = impl.factory().get();
        Workers ws = Workers.start(THREADS, PER_THREAD, w -> {
            Gauge view = gauge.getThreadLocalView();
            return i -> view.report(value(w, i));
        });
        MutableGaugeValue total = new MutableGaugeValue();
        int collections = 0;
        while (ws.anyAlive()) {
            GaugeValue v = gauge.getAndReset();
            if (impl.indirect()) {
                ws.coolDown();
            }
            total.add(v);
            if (++collections == COLLECTIONS_BEFORE_RELEASE) {
                ws.releaseMidpoint();
            }
            Thread.yield();
        }
        ws.join();
        total.add(gauge.getAndReset());

        MutableGaugeValue expected = new MutableGaugeValue();
        for (int w = 0; w < THREADS; w++) {
            for (int i = 1; i <= PER_THREAD; i++) {
                expected.report(value(w, i));
            }
        }
        assertTrue(collections >= COLLECTIONS_BEFORE_RELEASE, "collected during the run");
        assertEquals(expected.getCount(), total.getCount(),
                impl.name() + " count after " + collections + " collections");
        assertEquals(expected.getSum(), total.getSum(), impl.name() + " sum");
        assertEquals(expected.getMax(), total.getMax(), impl.name() + " max");
        assertEquals(expected.getMin(), total.getMin(), impl.name() + " min");
    }
}
