package dev.statvar.micrometer;

import dev.statvar.Labels;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 34, "Bad input": a meter statvar cannot hold is reported through onMeterRegistrationFailed and
 * counted in statvar_micrometer_meters_rejected_total{reason}; no exception reaches the caller; the
 * meter still records (a Micrometer meter) and scrape() exports it.
 */
@Timeout(60)
class RejectedMeterTest {
    @Test
    void aReservedLabelIsReportedCountedAndStillRecorded() {
        StatRegistry stats = StatRegistry.create();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        List<String> failures = new ArrayList<>();
        r.config().onMeterRegistrationFailed((id, reason) -> failures.add(id.getName() + ": " + reason));
        Timer t = assertDoesNotThrow(() -> r.timer("jobs.latency", "le", "x")); // 'le' is reserved in statvar histograms
        t.record(2, TimeUnit.SECONDS);
        DistributionSummary s = assertDoesNotThrow(() -> r.summary("jobs.size", "quantile", "y"));
        s.record(5);
        assertEquals(2, failures.size(), failures.toString());
        assertTrue(failures.get(0).startsWith("jobs.latency: statvar cannot hold this meter (conflict)"), failures.get(0));
        assertEquals(1, t.count(), "recorded by a Micrometer timer, not dropped");
        assertEquals(5, s.totalAmount(), 0.0);
        Snapshot snap = stats.collect();
        assertEquals(2, snap.counterValue(StatBinder.REJECTED, Labels.of("reason", "conflict")).total());
        String scrape = r.scrape();
        assertTrue(scrape.contains("jobs_latency_seconds_count{le=\"x\"} 1"), scrape);
        assertTrue(scrape.contains("jobs_latency_seconds_sum{le=\"x\"} 2.0"), scrape);
        assertTrue(scrape.contains("jobs_size_sum{quantile=\"y\"} 5.0"), scrape);
    }

    @Test
    void aFullStatRegistryIsReportedCountedAndStillRecorded() {
        StatRegistry stats = StatRegistry.builder().maxStats(4).build();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        List<String> failures = new ArrayList<>();
        r.config().onMeterRegistrationFailed((id, reason) -> failures.add(id.getName() + ": " + reason));
        List<Counter> counters = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Counter c = assertDoesNotThrow(() -> r.counter("c" + counters.size()));
            c.increment(3);
            counters.add(c);
        }
        assertTrue(!failures.isEmpty(), "some counters did not fit");
        assertTrue(failures.get(0).contains("(capacity)"), failures.get(0));
        for (Counter c : counters) {
            assertEquals(3, c.count(), 0.0, c.getId().getName());
        }
        assertEquals(failures.size(), stats.collect().counterValue(StatBinder.REJECTED, Labels.of("reason", "capacity")).total());
        String scrape = r.scrape();
        for (int i = 0; i < 8; i++) {
            assertTrue(scrape.contains("c" + i + "_total 3.0"), scrape);
        }
    }

    @Test
    void aMeterPastItsFamilysCapIsReportedCountedAndStillRecorded() {
        StatRegistry stats = StatRegistry.builder().maxSeriesPerFamily(2).build();
        StatvarMeterRegistry r = new StatvarMeterRegistry(stats);
        List<String> failures = new ArrayList<>();
        r.config().onMeterRegistrationFailed((id, reason) -> failures.add(id.getName() + ": " + reason));
        for (String tenant : new String[]{"a", "b", "c"}) {
            r.counter("requests", "tenant", tenant).increment(4);
        }
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).contains("(capacity)") && failures.get(0).contains("overflow"), failures.get(0));
        for (String tenant : new String[]{"a", "b", "c"}) {
            Timer.builder("latency").tag("tenant", tenant).register(r).record(3, TimeUnit.MILLISECONDS);
            DistributionSummary.builder("size").tag("tenant", tenant).register(r).record(7);
        }
        assertEquals(3, failures.size(), failures.toString());
        assertEquals(4, r.counter("requests", "tenant", "c").count(), 0.0, "its own count, read back");
        Snapshot snap = stats.collect();
        assertEquals(3, snap.counterValue(StatBinder.REJECTED, Labels.of("reason", "capacity")).total());
        Labels overflow = Labels.of(dev.statvar.StatFamily.OVERFLOW_LABEL, "true");
        assertEquals(4, snap.counterValue("requests_total", overflow).total(), "statvar's overflow series counts it too");
        assertEquals(3_000_000, snap.histogram("latency_nanoseconds", overflow).totals().sum());
        assertEquals(7, snap.histogram("size", overflow).totals().sum());
        String scrape = r.scrape();
        assertTrue(scrape.contains("requests_total{tenant=\"c\"} 4.0"), scrape);
        assertTrue(scrape.contains("latency_seconds_count{tenant=\"c\"} 1"), scrape);
        assertTrue(scrape.contains("size_sum{tenant=\"c\"} 7.0"), scrape);
    }
}
