package dev.statvar.micrometer;

import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 34 point 2: removing a meter and registering it again neither double counts nor loses nor leaks. */
@Timeout(60)
class MeterRemovalTest {
    @Test
    void aFunctionCounterRegisteredAgainDoesNotDoubleCount() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        AtomicLong state = new AtomicLong(100);
        FunctionCounter fc = FunctionCounter.builder("fc1", state, AtomicLong::doubleValue).register(r);
        stats.collect();
        r.remove(fc);
        FunctionCounter again = FunctionCounter.builder("fc1", state, AtomicLong::doubleValue).register(r);
        Snapshot s = stats.collect();
        assertEquals(100, again.count(), 0.0);
        assertEquals(100, s.counterValue("fc1_total").total(), "statvar's series: 100 as count() says, not twice");
        assertTrue(r.scrape().contains("fc1_total 100.0"), r.scrape());
    }

    @Test
    void aFunctionTimerRegisteredAgainDoesNotDoubleCount() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        AtomicLong count = new AtomicLong(3);
        FunctionTimer ft = FunctionTimer.builder("ft1", count, AtomicLong::get, c -> c.get() * 1_000.0,
                TimeUnit.MILLISECONDS).register(r);
        stats.collect();
        r.remove(ft);
        FunctionTimer.builder("ft1", count, AtomicLong::get, c -> c.get() * 1_000.0, TimeUnit.MILLISECONDS).register(r);
        Snapshot s = stats.collect();
        assertEquals(3, s.counterValue("ft1_count_total").total());
        assertEquals(3_000_000_000L, s.counterValue("ft1_nanoseconds_total").total());
    }

    @Test
    void fractionalIncrementsSurviveRemovalAndLeaveNoSamplerBehind() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        int before = r.feed().samplerCount();
        for (int i = 0; i < 40_000; i++) {
            Counter c = r.counter("half");
            c.increment(0.5);
            r.remove(c);
        }
        assertEquals(20_000, stats.collect().counterValue("half_total").total(),
                "40,000 x increment(0.5) on the series, across removals");
        assertTrue(r.feed().samplerCount() <= before + 1, "one sampler for the series at most, not one per counter: "
                + (r.feed().samplerCount() - before));
    }
}
