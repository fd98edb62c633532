package dev.statvar.micrometer;

import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.internal.DefaultLongTaskTimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link StatvarLongTaskTimer} reads as Micrometer's {@link DefaultLongTaskTimer} does, and holds no stopped task for long. */
class StatvarLongTaskTimerTest {
    private static final Meter.Id ID = new Meter.Id("jobs", Tags.empty(), null, null, Meter.Type.LONG_TASK_TIMER);

    private static DistributionStatisticConfig config() {
        return DistributionStatisticConfig.builder().percentiles(0.0, 0.3, 0.5, 0.95, 1.0)
                .serviceLevelObjectives(Duration.ofMillis(5).toNanos(), Duration.ofMillis(50).toNanos(), Duration.ofSeconds(1).toNanos())
                .build().merge(DistributionStatisticConfig.DEFAULT);
    }

    private static String read(LongTaskTimer t) {
        HistogramSnapshot s = t.takeSnapshot();
        return t.activeTasks() + " active, duration " + t.duration(TimeUnit.NANOSECONDS) + ", max " + t.max(TimeUnit.NANOSECONDS)
                + ", snapshot " + s.count() + " " + s.total() + " " + s.max() + " " + Arrays.toString(s.percentileValues())
                + " " + Arrays.toString(s.histogramCounts());
    }

    @Test
    void readsAsDefaultLongTaskTimerAtEveryStep() {
        MockClock clock = new MockClock();
        LongTaskTimer ours = new StatvarLongTaskTimer(ID, clock, TimeUnit.SECONDS, config(), true);
        LongTaskTimer theirs = new DefaultLongTaskTimer(ID, clock, TimeUnit.SECONDS, config(), true);
        assertEquals(read(theirs), read(ours), "no task");
        SplittableRandom r = new SplittableRandom(7);
        List<LongTaskTimer.Sample[]> running = new ArrayList<>();
        for (int step = 0; step < 400; step++) {
            clock.add(Duration.ofMillis(1 + r.nextInt(20)));
            if (running.isEmpty() || r.nextInt(3) != 0) {
                running.add(new LongTaskTimer.Sample[] {ours.start(), theirs.start()});
            } else {
                LongTaskTimer.Sample[] pair = running.remove(r.nextInt(running.size())); // out of start order
                assertEquals(pair[1].stop(), pair[0].stop(), "a stop returns the task's nanoseconds");
                assertEquals(-1, pair[0].stop(), "a second stop");
                assertEquals(-1, pair[0].duration(TimeUnit.SECONDS), 0.0);
            }
            if (step % 37 == 0) {
                assertEquals(read(theirs), read(ours), "step " + step);
            }
        }
        assertTrue(running.size() > 20, "tasks left running: " + running.size());
        assertEquals(read(theirs), read(ours), "end");
    }

    @Test
    void oneLongTaskDoesNotHoldTheStoppedOnesBehindIt() {
        MockClock clock = new MockClock();
        StatvarLongTaskTimer t = new StatvarLongTaskTimer(ID, clock, TimeUnit.SECONDS, DistributionStatisticConfig.DEFAULT, true);
        t.start(); // runs for the whole test
        int maxHeld = 0;
        for (int i = 0; i < 100_000; i++) {
            t.start().stop();
            maxHeld = Math.max(maxHeld, t.held());
        }
        assertTrue(maxHeld < 2_000, "stopped tasks held at most: " + maxHeld);
        assertEquals(1, t.activeTasks());
        assertEquals(1, t.held(), "a read sweeps");
    }

    @Test
    @Timeout(60)
    void twoThreadsStartingAndStoppingNeverHideAnActiveTaskAndLeaveNone() throws Exception {
        StatvarLongTaskTimer t = new StatvarLongTaskTimer(ID, new MockClock(), TimeUnit.SECONDS, DistributionStatisticConfig.DEFAULT, true);
        LongTaskTimer.Sample pinned = t.start(); // active through the whole run: every read must see it
        CyclicBarrier start = new CyclicBarrier(3);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    LongTaskTimer.Sample[] open = new LongTaskTimer.Sample[8];
                    for (int i = 0; i < 400_000; i++) {
                        int slot = i & 7;
                        if (open[slot] != null) {
                            open[slot].stop();
                        }
                        open[slot] = t.start();
                    }
                    for (LongTaskTimer.Sample s : open) {
                        s.stop();
                    }
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            th.start();
            threads.add(th);
        }
        start.await();
        int seenMin = Integer.MAX_VALUE;
        int reads = 0;
        while (threads.get(0).isAlive() || threads.get(1).isAlive()) {
            seenMin = Math.min(seenMin, t.activeTasks()); // reads racing starts, stops and sweeps
            reads++;
            Thread.sleep(1);
        }
        for (Thread th : threads) {
            th.join();
        }
        assertNull(failure.get());
        assertTrue(reads > 0 && seenMin >= 1, "the pinned task was missed by a read (" + reads + " reads)");
        assertEquals(1, t.activeTasks());
        pinned.stop();
        assertEquals(0, t.activeTasks());
        assertEquals(0, t.held());
    }
}
