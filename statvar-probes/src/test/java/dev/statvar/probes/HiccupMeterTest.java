package dev.statvar.probes;

import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class HiccupMeterTest {
    private static final long MS = 1_000_000L;

    /** A clock that only the fake sleeper moves: each sleep takes the next scripted duration. */
    private static final class FakeTime {
        long now = 1_000 * MS;
        final Deque<Long> sleeps = new ArrayDeque<>();

        long clock() {
            return now;
        }

        void sleep(long requested) {
            now += sleeps.removeFirst();
        }
    }

    private static HiccupMeter meter(StatRegistry r, FakeTime t) {
        return new HiccupMeter(r, "hiccup", Duration.ofMillis(1), t::clock, t::sleep);
    }

    @Test
    void aHundredMillisecondHiccupAtOneMillisecondIsCorrectedAsHdrHistogramDoes() throws Exception {
        StatRegistry r = StatRegistry.create();
        FakeTime t = new FakeTime();
        t.sleeps.add(1 * MS);                 // on time: records 0
        t.sleeps.add(1 * MS + 100 * MS);      // a 100 ms hiccup: 100, 99, ..., 1 ms
        t.sleeps.add(1 * MS + 50_000);        // 50 µs late: one value, below the resolution
        HiccupMeter m = meter(r, t);
        assertEquals(0, m.sampleOnce());
        assertEquals(100 * MS, m.sampleOnce());
        assertEquals(50_000, m.sampleOnce());

        HistogramValue v = r.collect().histogram("hiccup");
        assertEquals(1 + 100 + 1, v.count());
        long expectedSum = 50_000;
        for (int k = 1; k <= 100; k++) {
            expectedSum += k * MS;
        }
        assertEquals(expectedSum, v.sum());
        assertEquals(0, v.min());
        assertEquals(100 * MS, v.max());
        // Every bucket holds exactly the expected values (above 64 ms a bucket is wider than 1 ms
        // and holds two of them).
        HistogramPrecision p = v.precision();
        Map<Integer, Long> expected = new TreeMap<>();
        expected.merge(p.bucketIndex(0), 1L, Long::sum);
        expected.merge(p.bucketIndex(50_000), 1L, Long::sum);
        for (int k = 1; k <= 100; k++) {
            expected.merge(p.bucketIndex(k * MS), 1L, Long::sum);
        }
        Map<Integer, Long> actual = new TreeMap<>();
        for (HistogramValue.Bucket b : v.buckets()) {
            actual.put(p.bucketIndex(b.lowerBound()), b.count());
        }
        assertEquals(expected, actual);
        m.close(); // never started: a no-op
    }

    @Test
    void aPauseWhileTheMeterRecordsLandsInTheNextPeriod() throws Exception {
        StatRegistry r = StatRegistry.create();
        FakeTime t = new FakeTime();
        t.sleeps.add(1 * MS);
        t.sleeps.add(1 * MS);
        t.sleeps.add(1 * MS);
        HiccupMeter m = meter(r, t);
        assertEquals(0, m.sampleOnce());
        t.now += 50 * MS; // a 50 ms pause after the wake-up, before the next sleep starts
        assertEquals(50 * MS, m.sampleOnce(), "measured from the previous wake-up, not from after the pause");
        assertEquals(0, m.sampleOnce());
        assertEquals(50 * MS, r.collect().histogram("hiccup").max());
    }

    @Test
    void anInterruptedSleepIsNotASampleAndRestartsThePeriod() throws Exception {
        StatRegistry r = StatRegistry.create();
        FakeTime t = new FakeTime();
        HiccupMeter m = new HiccupMeter(r, "hiccup", Duration.ofMillis(1), t::clock, requested -> {
            Long next = t.sleeps.removeFirst();
            t.now += Math.abs(next);
            if (next < 0) {
                throw new InterruptedException("stray");
            }
        });
        t.sleeps.add(1 * MS);
        t.sleeps.add(-30 * MS); // interrupted after 30 ms: no sample
        t.sleeps.add(1 * MS);   // a fresh period: on time
        assertEquals(0, m.sampleOnce());
        assertThrows(InterruptedException.class, m::sampleOnce);
        assertEquals(0, m.sampleOnce(), "the interrupted 30 ms are not a hiccup");
        assertEquals(2, r.collect().histogram("hiccup").count());
    }

    @Test
    void correctionStopsAtTheResolution() throws Exception {
        StatRegistry r = StatRegistry.create();
        FakeTime t = new FakeTime();
        t.sleeps.add(1 * MS + 2 * MS - 1);    // H = 2 ms - 1 ns: H - 1 ms < 1 ms, one value
        t.sleeps.add(1 * MS + 2 * MS);        // H = 2 ms: 2 ms and 1 ms
        t.sleeps.add(1 * MS - 30_000);        // woke early: 0
        HiccupMeter m = meter(r, t);
        m.sampleOnce();
        assertEquals(1, r.collect().histogram("hiccup").count());
        m.sampleOnce();
        HistogramValue v = r.collect().histogram("hiccup");
        assertEquals(2, v.count());
        assertEquals(3 * MS, v.sum());
        m.sampleOnce();
        v = r.collect().histogram("hiccup");
        assertEquals(1, v.count());
        assertEquals(0, v.sum());
    }

    @Test
    void invalidArgumentsAreRefusedWithTheirReason() {
        StatRegistry r = StatRegistry.create();
        Duration ms = Duration.ofMillis(1);
        assertMessage("registry", () -> HiccupMeter.start(null, "h", ms));
        assertMessage("name must not be null", () -> HiccupMeter.start(r, null, ms));
        assertMessage("resolution must not be null", () -> HiccupMeter.start(r, "h", null));
        assertMessage("resolution must be in", () -> HiccupMeter.start(r, "h", Duration.ofNanos(999_999)));
        assertMessage("resolution must be in", () -> HiccupMeter.start(r, "h", Duration.ofSeconds(61)));
        assertMessage("resolution must be in", () -> HiccupMeter.start(r, "h", Duration.ofMillis(-1)));
        assertMessage("invalid stat name", () -> HiccupMeter.start(r, "not a name", ms));
        r.counter("taken");
        assertThrows(IllegalArgumentException.class, () -> HiccupMeter.start(r, "taken", ms));
        assertEquals(0, threadsNamed("statvar-hiccup-"), "no thread left by a refused start");
    }

    private static void assertMessage(String part, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    @Test
    void startRecordsOnItsDaemonThreadAndCloseStopsItOnce() throws Exception {
        StatRegistry r = StatRegistry.create();
        HiccupMeter m = HiccupMeter.start(r, "jvm_hiccup", Duration.ofMillis(1));
        Thread t = thread("statvar-hiccup-jvm_hiccup");
        assertTrue(t.isDaemon());
        assertTrue(m.isRunning());
        assertEquals(1_000_000, m.resolutionNanos());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long count = 0;
        while (count < 3) {
            if (System.nanoTime() - deadline > 0) {
                fail("the meter recorded " + count + " samples in 10 s");
            }
            Thread.sleep(5);
            count = r.collect().histogram("jvm_hiccup").totals().count();
        }
        m.close();
        assertFalse(m.isRunning());
        assertFalse(t.isAlive());
        long after = r.collect().histogram("jvm_hiccup").totals().count();
        m.close(); // idempotent
        assertEquals(after, r.collect().histogram("jvm_hiccup").totals().count(), "nothing recorded after close");
    }

    @Test
    void closeFromAnInterruptedThreadStillWaitsAndKeepsTheInterrupt() {
        StatRegistry r = StatRegistry.create();
        HiccupMeter m = HiccupMeter.start(r, "h2", Duration.ofMillis(5));
        Thread.currentThread().interrupt();
        try {
            m.close();
            assertFalse(m.isRunning());
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    @Timeout(30)
    void aSecondMeterOnTheSameNameIsRefusedUntilTheFirstIsClosedThenItStartsAgain() throws Exception {
        StatRegistry r = StatRegistry.create();
        Duration ms = Duration.ofMillis(1);
        HiccupMeter first = HiccupMeter.start(r, "twice", ms);
        try {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> HiccupMeter.start(r, "twice", ms));
            assertTrue(e.getMessage().contains("'twice'") && e.getMessage().contains("already running"), e.getMessage());
            assertEquals(1, threadsNamed("statvar-hiccup-twice"), "the refused start left no thread");
            HiccupMeter.start(StatRegistry.create(), "twice", ms).close(); // another registry: another histogram
            HiccupMeter.start(r, "other", ms).close(); // another name
        } finally {
            first.close();
        }
        long before = r.collect().histogram("twice").totals().count();
        HiccupMeter again = HiccupMeter.start(r, "twice", ms); // closed: the name is free again
        try {
            long count = before;
            while (count < before + 3) { // records on into the same histogram (the @Timeout bounds it)
                Thread.sleep(5);
                count = r.collect().histogram("twice").totals().count();
            }
            first.close(); // again, late: must not release the running meter's name
            assertThrows(IllegalStateException.class, () -> HiccupMeter.start(r, "twice", ms));
        } finally {
            again.close();
        }
        assertFalse(again.isRunning());
    }

    private static Thread thread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread named " + name));
    }

    private static long threadsNamed(String prefix) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
    }
}
