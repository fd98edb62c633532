package dev.statvar;

import dev.statvar.testsupport.LogCapture;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CollectListenerTest {
    @Test
    void aValueSampledBeforeTheSwitchIsInTheIntervalThatCloses() {
        StatRegistry r = StatRegistry.create();
        Gauge queue = r.gauge("queue_depth");
        AtomicLong source = new AtomicLong(7);
        List<Snapshot> seen = new ArrayList<>();
        CollectListener l = new CollectListener() {
            @Override
            public void beforeCollect() {
                queue.report(source.get());
            }

            @Override
            public void afterCollect(Snapshot s) {
                seen.add(s);
            }
        };
        r.addCollectListener(l);
        Snapshot s1 = r.collect();
        assertEquals(1, s1.gauge("queue_depth").count());
        assertEquals(7, s1.gauge("queue_depth").max());
        source.set(9);
        Snapshot s2 = r.collect();
        assertEquals(9, s2.gauge("queue_depth").min());
        assertEquals(List.of(s1, s2), seen, "afterCollect sees the very snapshot collect() returns");
        assertTrue(r.removeCollectListener(l));
        assertFalse(r.removeCollectListener(l));
        assertEquals(0, r.collect().gauge("queue_depth").count(), "removed: no more samples");
        assertEquals(2, seen.size());
    }

    @Test
    void aListenerThatThrowsIsLoggedAndTheCollectGoesOnWithTheOthers() {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c_total");
        List<String> calls = new ArrayList<>();
        r.addCollectListener(new CollectListener() {
            @Override
            public void beforeCollect() {
                calls.add("bad before");
                throw new IllegalStateException("test: a broken sampler");
            }

            @Override
            public void afterCollect(Snapshot s) {
                calls.add("bad after");
                throw new IllegalStateException("test: a broken sink");
            }
        });
        r.addCollectListener(new CollectListener() {
            @Override
            public void beforeCollect() {
                calls.add("good before");
                c.add(3);
            }

            @Override
            public void afterCollect(Snapshot s) {
                calls.add("good after " + s.counter("c_total"));
            }
        });
        List<LogRecord> logged;
        try (LogCapture capture = new LogCapture()) {
            assertEquals(3, r.collect().counter("c_total"));
            logged = capture.records();
        }
        assertEquals(List.of("bad before", "good before", "bad after", "good after 3"), calls);
        assertEquals(2, logged.size(), "one ERROR per failing call: " + logged);
        for (int i = 0; i < 2; i++) {
            LogRecord rec = logged.get(i);
            assertEquals(Level.SEVERE, rec.getLevel(), "System.Logger's ERROR");
            assertTrue(rec.getMessage().startsWith(i == 0 ? "CollectListener.beforeCollect failed: " : "CollectListener.afterCollect failed: "),
                    rec.getMessage());
            assertEquals(i == 0 ? "test: a broken sampler" : "test: a broken sink", rec.getThrown().getMessage());
        }
    }

    @Test
    void aListenerMayNotCollect() {
        StatRegistry r = StatRegistry.create();
        List<RuntimeException> thrown = new ArrayList<>();
        r.addCollectListener(new CollectListener() {
            @Override
            public void afterCollect(Snapshot s) {
                try {
                    r.collect();
                } catch (IllegalStateException e) {
                    thrown.add(e);
                }
            }
        });
        r.collect();
        assertEquals(1, thrown.size());
        assertTrue(thrown.get(0).getMessage().contains("CollectListener"), thrown.get(0).getMessage());
        assertThrows(NullPointerException.class, () -> r.addCollectListener(null));
        assertThrows(NullPointerException.class, () -> r.removeCollectListener(null));
    }

    @Test
    void aCollectorsIntervalsReachTheListenerAndCollectsAreSerialised() throws Exception {
        StatRegistry r = StatRegistry.create();
        Counter c = r.counter("c_total");
        List<Snapshot> seen = new CopyOnWriteArrayList<>();
        AtomicLong inside = new AtomicLong();
        AtomicLong overlaps = new AtomicLong();
        r.addCollectListener(new CollectListener() {
            @Override
            public void beforeCollect() {
                if (inside.getAndIncrement() != 0) {
                    overlaps.incrementAndGet();
                }
            }

            @Override
            public void afterCollect(Snapshot s) {
                seen.add(s);
                inside.decrementAndGet();
            }
        });
        List<Snapshot> delivered = new CopyOnWriteArrayList<>();
        try (StatCollector col = r.startCollector(Duration.ofMillis(1), delivered::add)) {
            for (int i = 0; i < 2_000; i++) {
                c.add();
                if (i % 100 == 0) {
                    r.collect(); // manual collects beside the collector's
                }
            }
        }
        assertEquals(0, overlaps.get(), "one collect's listener calls finish before the next collect begins");
        long sum = 0;
        for (Snapshot s : seen) {
            sum += s.counter("c_total");
        }
        assertEquals(2_000, sum, "every interval, the collector's and the manual ones, reached the listener");
        for (Snapshot d : delivered) {
            assertTrue(seen.stream().anyMatch(s -> s == d), "the collector's snapshots are the ones the listener saw");
        }
        assertSame(seen.get(seen.size() - 1), delivered.get(delivered.size() - 1), "close() delivers the last interval through the listener too");
    }
}
