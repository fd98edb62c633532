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
        Counter c = r.counter("half");
        for (int i = 0; i < 40_000; i++) {
            c.increment(0.5);
        }
        r.remove(c);
        assertEquals(before, r.feed().samplerCount(), "the series' fraction sampler goes with it");
        Snapshot last = stats.collect();
        assertEquals(20_000, last.counterValue("half_total").total(), "the removed series' last interval holds every whole unit");
        assertEquals(20_000, last.counterValue("half_total").value());
        assertTrue(stats.collect().values().stream().noneMatch(v -> v.name().equals("half_total")), "then it is gone");
        for (int i = 0; i < 40_000; i++) {
            Counter d = r.counter("churn", "tenant", Integer.toString(i % 100));
            d.increment(0.5);
            r.remove(d);
        }
        assertEquals(before, r.feed().samplerCount(), "no sampler left behind by 40,000 removed counters");
    }

    @Test
    void aRemovedMeterRemovesItsStatvarSeriesAndARegistrationStartsANewOne() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        Counter c = r.counter("jobs.done", "queue", "q1");
        c.increment(5);
        io.micrometer.core.instrument.Timer t = io.micrometer.core.instrument.Timer.builder("jobs.latency")
                .serviceLevelObjectives(java.time.Duration.ofMillis(100)).register(r);
        t.record(50, TimeUnit.MILLISECONDS);
        r.remove(c);
        r.remove(t);
        Snapshot last = stats.collect();
        assertEquals(5, last.counterValue("jobs_done_total", dev.statvar.Labels.of("queue", "q1")).total(), "its last interval");
        assertEquals(1, last.histogram("jobs_latency_nanoseconds").totals().count());
        Snapshot after = stats.collect();
        assertTrue(after.values().isEmpty() || after.values().stream().allMatch(v -> v.name().startsWith("statvar_micrometer")),
                after.values().toString());
        r.counter("jobs.done", "queue", "q1").increment(2);
        assertEquals(2, stats.collect().counterValue("jobs_done_total", dev.statvar.Labels.of("queue", "q1")).total(),
                "a new series, as PrometheusMeterRegistry starts a new counter");
        assertTrue(r.scrape().contains("jobs_done_total{queue=\"q1\"} 2.0"), r.scrape());
    }
}
