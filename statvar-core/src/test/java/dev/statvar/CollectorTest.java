package dev.statvar;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CollectorTest {

    @Test
    void deliversEveryIntervalAndTheLastPartialOneOnClose() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        List<Snapshot> got = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        StatCollector collector = r.startCollector(Duration.ofMillis(20), s -> {
            got.add(s);
            three.countDown();
        });
        c.add(5);
        assertTrue(three.await(10, TimeUnit.SECONDS), "no intervals delivered");
        c.add(7); // lands in an interval still open: close() must deliver it
        collector.close();
        int n = got.size();
        long total = got.stream().mapToLong(s -> s.counter("c")).sum();
        assertEquals(12, total, "the last partial interval was not delivered");
        for (int i = 1; i < n; i++) {
            assertEquals(got.get(i - 1).end(), got.get(i).start());
        }
        Thread.sleep(60);
        assertEquals(n, got.size(), "delivered after close()");
        collector.close(); // idempotent
    }

    @Test
    void aThrowingSinkDoesNotKillTheEngine() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c");
        AtomicInteger calls = new AtomicInteger();
        List<Long> values = new CopyOnWriteArrayList<>();
        CountDownLatch later = new CountDownLatch(4);
        try (StatCollector ignored = r.startCollector(Duration.ofMillis(10), s -> {
            calls.incrementAndGet();
            values.add(s.counter("c"));
            later.countDown();
            if (calls.get() <= 2) {
                throw new IllegalStateException("sink failure (expected by the test)");
            }
        })) {
            c.add(3);
            assertTrue(later.await(10, TimeUnit.SECONDS), "engine died after the sink threw");
        }
        assertEquals(3, values.stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void oneCollectorAtATime() {
        StatRegistry r = StatRegistry.create();
        StatCollector a = r.startCollector(Duration.ofSeconds(1), s -> { });
        assertThrows(IllegalStateException.class, () -> r.startCollector(Duration.ofSeconds(1), s -> { }));
        a.close();
        r.startCollector(Duration.ofSeconds(1), s -> { }).close(); // allowed again after close
        assertThrows(IllegalArgumentException.class, () -> r.startCollector(Duration.ZERO, s -> { }));
        assertThrows(IllegalArgumentException.class, () -> r.startCollector(Duration.ofMillis(-1), s -> { }));
    }

    @Test
    void closeFromTheSinkStopsAfterDeliveringTheLastInterval() throws Exception {
        StatRegistry r = StatRegistry.create();
        r.counter("c").add(1);
        AtomicReference<StatCollector> self = new AtomicReference<>();
        List<Snapshot> got = new CopyOnWriteArrayList<>();
        CountDownLatch stopped = new CountDownLatch(2);
        StatCollector c = r.startCollector(Duration.ofMillis(10), s -> {
            got.add(s);
            stopped.countDown();
            while (self.get() == null) {
                Thread.onSpinWait(); // bounded: set right after startCollector returns
            }
            self.get().close();
        });
        self.set(c);
        assertTrue(stopped.await(10, TimeUnit.SECONDS));
        c.close();
        assertEquals(2, got.size(), "one regular interval, then the last partial one");
        assertEquals(1, got.get(0).counter("c") + got.get(1).counter("c"));
    }
}
