package dev.statvar;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import org.junit.jupiter.api.Tag;

/**
 * Exactness while updates run concurrently with collect(): the intervals of every counter, the
 * count and sum of every gauge, and the count, sum and every bucket of a histogram add up to
 * all updates; the global min/max over all intervals equal the true ones. The histogram's
 * values widen over the run, so its per-thread buckets grow (are copied) while collecting. No cool-down, no timing assumption: the final collect follows the joins.
 */
@Tag("stress")
class ExactnessTest {

    /**
     * @param writers  updating threads (more than the 2 cores oversubscribes: preemption mid-update)
     * @param path     shared = counter.add(); local = localView(); mixed = alternate
     * @param churn    each writer hands its work to a fresh thread every this many iterations
     *                 (0 = never): exercises folding of terminated threads while collecting
     */
    @ParameterizedTest(name = "{0} writers, {1} path, churn {2}")
    @CsvSource({
            "2, shared, 0",
            "2, local, 0",
            "4, mixed, 0",
            "3, shared, 20000",
            "3, local, 25000",
    })
    void intervalsAddUpToAllUpdates(int writers, String path, int churn) throws Exception {
        final int iterations = 2_000_000;
        StatRegistry r = StatRegistry.create();
        Counter events = r.counter("events");
        Counter amount = r.counter("amount");
        Gauge latency = r.gauge("latency");
        Histogram hist = r.histogram("hist");
        long[][] expectedBuckets = new long[writers][HistogramPrecision.DEFAULT.bucketCount()];
        long[] expectedHSum = new long[writers];
        long[] hmin = new long[writers];
        long[] hmax = new long[writers];

        long[] expectedEvents = new long[writers];
        long[] expectedAmount = new long[writers];
        long[] expectedCount = new long[writers];
        long[] expectedSum = new long[writers];
        long[] min = new long[writers];
        long[] max = new long[writers];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            final int id = w;
            min[w] = Long.MAX_VALUE;
            max[w] = Long.MIN_VALUE;
            hmin[w] = Long.MAX_VALUE;
            hmax[w] = Long.MIN_VALUE;
            Runnable work = () -> {
                SplittableRandom rnd = new SplittableRandom(id * 7919L + 1);
                int done = 0;
                while (done < iterations) {
                    int chunk = churn == 0 ? iterations : Math.min(churn, iterations - done);
                    int from = done;
                    Runnable part = () -> {
                        Counter ev = pick(events, path, id);
                        Counter am = pick(amount, path, id + 1);
                        Gauge la = pick(latency, path, id);
                        Histogram hi = pick(hist, path, id + 1);
                        for (int i = from; i < from + chunk; i++) {
                            ev.add();
                            long n = i % 3;
                            am.add(n);
                            long v = rnd.nextLong(-1_000_000, 1_000_000);
                            la.report(v);
                            expectedAmount[id] += n;
                            expectedSum[id] += v;
                            if (v < min[id]) {
                                min[id] = v;
                            }
                            if (v > max[id]) {
                                max[id] = v;
                            }
                            // Up to 2^(6 + 50 i / iterations): a new octave every 40,000 iterations.
                            long hv = rnd.nextLong(1L << (6 + (int) ((long) i * 50 / iterations)));
                            hi.record(hv);
                            expectedBuckets[id][HistogramPrecision.DEFAULT.bucketIndex(hv)]++;
                            expectedHSum[id] += hv;
                            hmin[id] = Math.min(hmin[id], hv);
                            hmax[id] = Math.max(hmax[id], hv);
                            if (i % 100_000 == 99_999) {
                                // A stat registered mid-run makes this thread's cells grow while collecting.
                                r.counter("dyn_" + id + "_" + i).add(i);
                            }
                        }
                        expectedEvents[id] += chunk;
                        expectedCount[id] += chunk;
                    };
                    if (churn == 0) {
                        part.run();
                    } else {
                        Thread t = new Thread(part, "writer-" + id + "-" + from);
                        t.start();
                        joinQuietly(t);
                    }
                    done += chunk;
                }
            };
            Thread t = new Thread(work, "writer-" + w);
            t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
            threads.add(t);
        }

        Totals totals = new Totals();
        threads.forEach(Thread::start);
        boolean running = true;
        int collects = 0;
        while (running) {
            running = threads.stream().anyMatch(Thread::isAlive);
            totals.add(r.collect()); // the collect after the last join sees everything
            collects++;
            LockSupport.parkNanos(20_000);
        }
        for (Thread t : threads) {
            t.join();
        }
        totals.add(r.collect());
        assertNull(failure.get());
        assertTrue(collects > 10, "too few concurrent collects to test anything: " + collects);

        assertEquals(sum(expectedEvents), totals.events, "lost or double-counted events");
        assertEquals(sum(expectedAmount), totals.amount, "lost or double-counted amount");
        assertEquals(sum(expectedCount), totals.count, "lost or double-counted gauge reports");
        assertEquals(sum(expectedSum), totals.sum, "gauge sum does not add up");
        long trueMin = Long.MAX_VALUE;
        long trueMax = Long.MIN_VALUE;
        for (int w = 0; w < writers; w++) {
            trueMin = Math.min(trueMin, min[w]);
            trueMax = Math.max(trueMax, max[w]);
        }
        assertEquals(trueMin, totals.min, "global min over intervals");
        assertEquals(trueMax, totals.max, "global max over intervals");
        HistogramValue h = totals.hist;
        long[] buckets = new long[HistogramPrecision.DEFAULT.bucketCount()];
        long hSum = 0;
        for (int w = 0; w < writers; w++) {
            for (int k = 0; k < buckets.length; k++) {
                buckets[k] += expectedBuckets[w][k];
            }
            hSum += expectedHSum[w];
        }
        assertEquals((long) writers * iterations, h.count(), "lost or double-counted histogram records");
        assertEquals(hSum, h.sum(), "histogram sum does not add up");
        for (int k = 0; k < buckets.length; k++) {
            assertEquals(buckets[k], h.bucketCount(k), "histogram bucket " + k);
        }
        assertEquals(Arrays.stream(hmin).min().getAsLong(), totals.hmin, "histogram global min over intervals");
        assertEquals(Arrays.stream(hmax).max().getAsLong(), totals.hmax, "histogram global max over intervals");
        for (int w = 0; w < writers; w++) {
            for (int i = 99_999; i < iterations; i += 100_000) {
                assertEquals(i, totals.dynamic("dyn_" + w + "_" + i), "dyn_" + w + "_" + i);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T pick(T stat, String path, int id) {
        boolean local = path.equals("local") || (path.equals("mixed") && id % 2 == 0);
        if (!local) {
            return stat;
        }
        if (stat instanceof Histogram h) {
            return (T) h.localView();
        }
        return stat instanceof Counter c ? (T) c.localView() : (T) ((Gauge) stat).localView();
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long x : a) {
            s += x;
        }
        return s;
    }

    /** Adds up intervals, checking each on the way. */
    static final class Totals {
        long events;
        long amount;
        long count;
        long sum;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        final java.util.Map<String, Long> dynamic = new java.util.HashMap<>();
        HistogramValue hist = HistogramValue.empty("hist", "", HistogramPrecision.DEFAULT);
        long hmin = Long.MAX_VALUE;
        long hmax = Long.MIN_VALUE;

        void add(Snapshot s) {
            long e = s.counter("events");
            long a = s.counter("amount");
            assertTrue(e >= 0 && a >= 0, "negative interval: a double count was undone");
            events += e;
            amount += a;
            GaugeValue g = s.gauge("latency");
            assertTrue(g.count() >= 0);
            count += g.count();
            sum += g.sum();
            if (!g.isEmpty()) {
                assertTrue(g.min() <= g.max(), "min > max in " + g);
                min = Math.min(min, g.min());
                max = Math.max(max, g.max());
            }
            HistogramValue h = s.histogram("hist");
            long bucketTotal = h.buckets().stream().mapToLong(HistogramValue.Bucket::count).sum();
            assertEquals(h.count(), bucketTotal, "count and buckets of one interval disagree");
            if (h.count() > 0 || h.min() != 0 || h.max() != 0) { // min/max present (possibly of a racing record)
                assertTrue(h.min() <= h.max(), "min > max in " + h);
                hmin = Math.min(hmin, h.min());
                hmax = Math.max(hmax, h.max());
            }
            hist = hist.merge(h);
            for (StatValue v : s) {
                if (v.name().startsWith("dyn_")) {
                    dynamic.merge(v.name(), ((CounterValue) v).value(), Long::sum);
                }
            }
        }

        long dynamic(String name) {
            return dynamic.getOrDefault(name, 0L);
        }
    }
}
