package dev.statvar.micrometer;

import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Meters updated from 1,000 virtual threads (JDK 21+; skipped on 17) count exactly. */
class VirtualThreadMeterTest {
    @Test
    void virtualThreadsCountExactly() throws Exception {
        ExecutorService vts;
        try {
            vts = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (NoSuchMethodException e) {
            assumeTrue(false, "virtual threads need JDK 21+");
            return;
        }
        StatvarMeterRegistry r = new StatvarMeterRegistry(StatRegistry.create());
        Counter c = r.counter("tasks");
        Timer t = r.timer("task.time");
        List<Future<?>> fs = new ArrayList<>();
        try {
            for (int i = 0; i < 1_000; i++) {
                fs.add(vts.submit(() -> {
                    for (int k = 0; k < 1_000; k++) {
                        c.increment();
                        t.record(k, TimeUnit.NANOSECONDS);
                    }
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            vts.shutdown(); // ExecutorService is AutoCloseable only from JDK 19; this compiles for 17
        }
        assertEquals(1_000_000, c.count(), 0.0);
        assertEquals(1_000_000, t.count());
        assertEquals(1_000L * (999 * 1_000 / 2), t.totalTime(TimeUnit.NANOSECONDS), 0.0);
    }
}
