package dev.statvar.internal;

import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Tag;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Measures (and bounds) what register/update/remove churn leaves behind: heap after a full GC,
 * the median of 31 collect() calls, and the engine's stat slots, after 0, 10,000 and 100,000
 * cycles (after 20,000 of warm-up) of a labelled counter and gauge beside 1,000 live counters and
 * 100 live gauges, one thread. A collect every 1,000 cycles (an interval's worth of churn). A
 * removed series' cells are reused once the GC has found its handle unreachable, so the figures
 * depend on how often the GC runs: both tests print one line per point (docs/PERFORMANCE.md
 * quotes them with the machine).
 */
@Tag("stress")
@Timeout(300)
class RemovalCostTest {
    private static final int LIVE_COUNTERS = 1_000;
    private static final int LIVE_GAUGES = 100;

    private final StatRegistry r = StatRegistry.create();
    private final Counter[] counters = new Counter[LIVE_COUNTERS];
    private final Gauge[] gauges = new Gauge[LIVE_GAUGES];
    private final StatFamily<Counter> churnCounters = r.counterFamily("churn_total", "", "k");
    private final StatFamily<Gauge> churnGauges = r.gaugeFamily("churn", "", "k");
    private final StatFamily<Histogram> churnHistograms = r.histogramFamily("churn_seconds", "", HistogramPrecision.DEFAULT, "k");
    /** Whether each cycle also registers, records into (5 values, 10 us .. 1 s) and removes a histogram (a request timer). */
    private boolean withHistograms;
    private int next;

    /**
     * With a GC every 5,000 cycles (what a service that allocates gets from its young collections):
     * slots, heap and collect() time flat from 10,000 to 100,000 cycles.
     */
    @Test
    void withTheGcRunningHeapAndCollectTimeStayFlat() {
        long[][] m = run(5_000);
        // Bounds with room for this shared 2-core machine's noise: the claim is "flat", not a figure.
        assertTrue(m[2][0] <= m[1][0] + (4 << 20), "heap grew by more than 4 MiB from 10,000 to 100,000 cycles");
        assertTrue(m[2][1] <= 3 * m[1][1] + 2_000_000, "collect() more than 3x + 2 ms slower after 100,000 cycles");
        // Slots wait for the GC and then for the collect after the reference handler enqueued them:
        // at most about three GC periods of two slots a cycle, however many cycles ran.
        assertTrue(m[2][2] <= LIVE_COUNTERS + LIVE_GAUGES + 6 * 5_000, "slots: " + m[1][2] + " -> " + m[2][2]);
    }

    /**
     * Without a GC during the churn a removed series' cells wait for one (its handle must be found
     * unreachable): the slots then grow with the cycles between GCs. Printed, and bounded by them.
     */
    @Test
    void withoutAGcTheSlotsWaitForOne() {
        long[][] m = run(0);
        assertTrue(m[2][2] <= LIVE_COUNTERS + LIVE_GAUGES + 2 * 120_000L, "at most every cycle's two slots");
    }

    /**
     * With a histogram in each cycle too (a request timer per tenant): heap and collect() time
     * flat, and the histogram slots one collect's worth (at most 1,000), since a histogram's slot
     * does not wait for the GC: it is free from the collect that delivers its last interval (its
     * next owner records into arrays of its own).
     */
    @Test
    void withAHistogramInEachCycleHeapAndCollectTimeStayFlat() {
        withHistograms = true;
        long[][] m = run(5_000);
        assertTrue(m[2][0] <= m[1][0] + (4 << 20), "heap grew by more than 4 MiB from 10,000 to 100,000 cycles");
        assertTrue(m[2][1] <= 3 * m[1][1] + 2_000_000, "collect() more than 3x + 2 ms slower after 100,000 cycles");
        assertTrue(m[2][3] <= 1_000, "histogram slots: " + m[1][3] + " -> " + m[2][3]);
    }

    /** Warm-up churn, then the figures at 0, 10,000 and 100,000 cycles: heap, median collect, slots. */
    private long[][] run(int gcEvery) {
        for (int i = 0; i < LIVE_COUNTERS; i++) {
            counters[i] = r.counter("live_" + i);
        }
        for (int i = 0; i < LIVE_GAUGES; i++) {
            gauges[i] = r.gauge("live_g_" + i);
        }
        churn(20_000, gcEvery); // warm-up: the JIT, and the slots' steady state
        long[] at0 = measure(0, gcEvery);
        churn(10_000, gcEvery);
        long[] at10k = measure(10_000, gcEvery);
        churn(90_000, gcEvery);
        return new long[][]{at0, at10k, measure(100_000, gcEvery)};
    }

    private void churn(int cycles, int gcEvery) {
        for (int i = 0; i < cycles; i++) {
            String k = Integer.toString(next++);
            churnCounters.labels(k).add(i);
            churnGauges.labels(k).report(i);
            churnCounters.remove(k);
            churnGauges.remove(k);
            if (withHistograms) {
                Histogram h = churnHistograms.labels(k);
                for (long v = 10_000; v <= 1_000_000_000L; v *= 31) {
                    h.record(v + i);
                }
                churnHistograms.remove(k);
            }
            if (gcEvery > 0 && i % gcEvery == gcEvery - 1) {
                System.gc();
            }
            if (i % 1_000 == 999) {
                updateLive();
                r.collect();
            }
        }
    }

    private void updateLive() {
        for (Counter c : counters) {
            c.add();
        }
        for (Gauge g : gauges) {
            g.report(7);
        }
    }

    /** Heap used after a full GC (bytes), median collect() (ns), slots, histogram slots. */
    private long[] measure(int cycles, int gcEvery) {
        long[] ns = new long[31];
        for (int i = 0; i < ns.length; i++) {
            updateLive();
            long t0 = System.nanoTime();
            r.collect();
            ns[i] = System.nanoTime() - t0;
        }
        Arrays.sort(ns);
        System.gc();
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        int slots = EngineProbe.slots(EngineProbe.engine(r));
        int hslots = EngineProbe.histogramSlots(EngineProbe.engine(r));
        System.out.printf("RemovalCostTest (%s%s): after %,d register/update/remove cycles: heap %,d KiB, collect() median"
                        + " %,d us (min %,d, max %,d) over 31, stat slots %,d (histograms %,d; live %,d); JDK %s%n",
                gcEvery > 0 ? "GC every " + gcEvery + " cycles" : "no GC during the churn", withHistograms ? ", with a histogram" : "",
                cycles, heap >> 10, ns[15] / 1_000, ns[0] / 1_000, ns[30] / 1_000, slots, hslots, r.size(), Runtime.version());
        return new long[]{heap, ns[15], slots, hslots};
    }
}
