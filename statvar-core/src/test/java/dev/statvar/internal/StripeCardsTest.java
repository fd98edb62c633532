package dev.statvar.internal;

import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatFamily;
import dev.statvar.StatRegistry;
import dev.statvar.testsupport.OnThread;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.concurrent.locks.LockSupport;

import static dev.statvar.internal.StripeCollectTest.assertGauge;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stripes' cards (Stripes): the collector reads a stripe's cells only when their card is
 * dirty, and what it does not read still counts (each stat's collector cell). A cold platform
 * thread (the default hotAfter) reports into the stripes on any JDK.
 */
class StripeCardsTest {
    /** The stripe segment holding stat {@code g}, in the one stripe a lone cold thread wrote. */
    private static long[] writtenSegment(Engine e, Stat g) {
        long[] found = null;
        for (Stripe s : EngineProbe.stripes(e)) {
            long[] seg = s.segments[g.vloc >>> Stripes.VLOC_SHIFT];
            if (seg != null && seg[(g.vloc & ((1 << Stripes.VLOC_SHIFT) - 1)) + Layout.G_COUNT] != 0) {
                found = seg;
            }
        }
        assertNotNull(found, "no stripe holds the report");
        return found;
    }

    @Test
    void aStripeCellWhoseCardIsCleanIsNotReadAndItsChangeCountsOnceTheCardIsDirty() throws Exception {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        Gauge g = r.gauge("g");
        OnThread.run(() -> g.report(5)); // cold: into a stripe
        assertGauge(r.collect().gauge("g"), 1, 5, 5, 5);
        Stat st = EngineProbe.stat(e, 0);
        long[] seg = writtenSegment(e, st);
        int at = st.vloc & ((1 << Stripes.VLOC_SHIFT) - 1);
        // Behind the protocol's back: the sum grows by 1,000 and the card stays clean.
        seg[at + Layout.G_SUM] += 1_000;
        assertEquals(0, seg[Stripes.card(st.vloc)], "the collector took the card");
        assertGauge(r.collect().gauge("g"), 0, 0, 0, 0); // not read: the card is clean
        // The card marked: the next collect reads the cells and counts the change, once.
        seg[Stripes.card(st.vloc)] = 1;
        GaugeValue v = r.collect().gauge("g");
        assertEquals(0, v.count());
        assertEquals(1_000, v.sum());
        assertEquals(0, r.collect().gauge("g").sum(), "the change is counted once");
    }

    @Test
    void everyColdReportCountsOnceWhileCollectsSkipTheCardsThatDidNotChange() throws Exception {
        StatRegistry r = StatRegistry.create();
        int n = 40; // 40 gauges x 10 stripe cells: several cards, over three segments
        Gauge[] gauges = new Gauge[n];
        for (int i = 0; i < n; i++) {
            gauges[i] = r.gauge("g" + i);
        }
        java.util.Random random = new java.util.Random(7);
        for (int interval = 0; interval < 60; interval++) {
            long[] count = new long[n];
            long[] sum = new long[n];
            long[] min = new long[n];
            long[] max = new long[n];
            int reports = random.nextInt(4); // often none: every card clean
            for (int k = 0; k < reports; k++) {
                int i = random.nextInt(n);
                long v = random.nextInt(1_000) - 500;
                OnThread.run(() -> gauges[i].report(v)); // a new thread: cold, its own home stripe
                min[i] = count[i] == 0 ? v : Math.min(min[i], v);
                max[i] = count[i] == 0 ? v : Math.max(max[i], v);
                count[i]++;
                sum[i] += v;
            }
            Snapshot s = r.collect();
            for (int i = 0; i < n; i++) {
                GaugeValue v = s.gauge("g" + i);
                assertEquals(count[i], v.count(), "interval " + interval + ", g" + i + ": count");
                assertEquals(sum[i], v.sum(), "interval " + interval + ", g" + i + ": sum");
                if (count[i] > 0) {
                    assertEquals(min[i], v.min(), "interval " + interval + ", g" + i + ": min");
                    assertEquals(max[i], v.max(), "interval " + interval + ", g" + i + ": max");
                    assertTrue(v.isMinMaxExact());
                }
            }
        }
    }

    @Test
    void aRemovedGaugesLateColdReportsStayOutOfTheSeriesThatReusesItsSlot() {
        StatRegistry r = StatRegistry.create();
        Engine e = EngineProbe.engine(r);
        StatFamily<Gauge> f = r.gaugeFamily("g", "", "k");
        Gauge[] held = {f.labels("a")};
        int offset = ((GaugeImpl) held[0]).offset();
        held[0].report(100); // cold (this thread reports it once an interval): the stripes
        WeakReference<Object> ref = new WeakReference<>(held[0]);
        f.remove("a");
        assertEquals(1, r.collect().gauge("g", Labels.of("k", "a")).count(), "its last interval");
        held[0].report(1_000); // late, through the held handle: counted nowhere ...
        r.collect(); // ... but read here all the same (its card is dirty), into its settled totals: the
        // collect that reclaims the slot finds its card clean
        held[0] = null;
        SlotReuseTest.awaitCleared(ref);
        for (int i = 0; i < 200 && EngineProbe.freeSlots(e) == 0; i++) {
            r.collect();
            LockSupport.parkNanos(1_000_000L);
        }
        assertEquals(1, EngineProbe.freeSlots(e), "reclaimed");
        GaugeImpl b = (GaugeImpl) f.labels("b");
        assertEquals(offset, b.offset(), "the slot is reused");
        b.report(3);
        GaugeValue v = r.collect().gauge("g", Labels.of("k", "b"));
        assertGauge(v, 1, 3, 3, 3);
        assertEquals(1, v.totalCount(), "nothing of the slot's earlier owner");
        assertEquals(3, v.totalSum());
        assertEquals(0, r.collect().gauge("g", Labels.of("k", "b")).count());
    }
}
