package dev.statvar.micrometer;

import dev.statvar.StatRegistry;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link StatvarObservationHandler} makes the meters {@link DefaultMeterObservationHandler} makes, with the same values. */
class StatvarObservationHandlerTest {

    /** Observations of every shape the handler meets, with the clock advanced between start and stop. */
    private static void observe(ObservationRegistry observations, MockClock clock, MeterRegistry meters) {
        for (int i = 0; i < 5; i++) {
            Observation o = Observation.createNotStarted("http.server.requests", observations)
                    .lowCardinalityKeyValue("method", "GET").lowCardinalityKeyValue("uri", i % 2 == 0 ? "/a" : "/b");
            o.start();
            clock.add(Duration.ofMillis(10 + i));
            o.lowCardinalityKeyValue("status", i == 4 ? "500" : "200"); // known only at the end, as Boot's
            if (i == 4) {
                o.error(new IllegalStateException("boom"));
            }
            if (i == 3) {
                o.event(Observation.Event.of("retry"));
            }
            o.stop();
        }
        // an observation still running: the long task is active
        Observation.createNotStarted("http.server.requests", observations).lowCardinalityKeyValue("method", "POST")
                .lowCardinalityKeyValue("uri", "/a").start();
        clock.add(Duration.ofMillis(7));
        // a meter removed and the same tags observed again: a new meter, as the default handler gets
        Meter t = meters.find("http.server.requests").tag("uri", "/b").timer();
        assertNotNull(t);
        meters.remove(t);
        Observation o = Observation.createNotStarted("http.server.requests", observations)
                .lowCardinalityKeyValue("method", "GET").lowCardinalityKeyValue("uri", "/b");
        o.start();
        clock.add(Duration.ofMillis(3));
        o.lowCardinalityKeyValue("status", "200");
        o.stop();
    }

    /** Every meter as {@code type name{tags}} -> its measurements, after {@link #observe}. */
    private static Map<String, String> run(Function<MeterRegistry, MeterObservationHandler<Observation.Context>> handler,
                                           Function<MockClock, MeterRegistry> registry) {
        MockClock clock = new MockClock();
        MeterRegistry meters = registry.apply(clock);
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(handler.apply(meters));
        observe(observations, clock, meters);
        Map<String, String> out = new TreeMap<>();
        for (Meter m : meters.getMeters()) {
            StringBuilder v = new StringBuilder();
            m.measure().forEach(ms -> v.append(ms.getStatistic()).append('=').append(ms.getValue()).append(' '));
            out.put(m.getId().getType() + " " + m.getId().getName() + m.getId().getTags(), v.toString());
        }
        return out;
    }

    @Test
    void theSameMetersWithTheSameValuesAsDefaultMeterObservationHandler() {
        Function<MockClock, MeterRegistry> simple = c -> new SimpleMeterRegistry(SimpleConfig.DEFAULT, c);
        Map<String, String> micrometers = run(DefaultMeterObservationHandler::new, simple);
        Map<String, String> ours = run(StatvarObservationHandler::new, simple);
        assertTrue(micrometers.size() >= 6, micrometers.toString());
        assertEquals(micrometers, ours);
    }

    @Test
    void theSameOnStatvarsRegistry() {
        Function<MockClock, MeterRegistry> statvar = c -> new StatvarMeterRegistry(StatRegistry.create(), c);
        assertEquals(run(DefaultMeterObservationHandler::new, statvar), run(StatvarObservationHandler::new, statvar));
    }

    @Test
    void withoutLongTaskTimersAndWithTheLongTaskFilteredOutTheTimerStillTimes() {
        for (boolean ltt : new boolean[] {false, true}) {
            MockClock clock = new MockClock();
            SimpleMeterRegistry meters = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
            meters.config().meterFilter(MeterFilter.denyNameStartsWith("job.active")); // the long task is a no-op
            ObservationRegistry observations = ObservationRegistry.create();
            observations.observationConfig().observationHandler(new StatvarObservationHandler(meters, ltt));
            Observation o = Observation.start("job", observations);
            clock.add(Duration.ofMillis(25));
            o.stop();
            Timer t = meters.get("job").tag("error", "none").timer();
            assertEquals(1, t.count());
            assertEquals(25, t.totalTime(TimeUnit.MILLISECONDS), 0.0, "ltt " + ltt);
            assertEquals(0, meters.find("job.active").meters().size());
        }
    }

    @Test
    void aLongTaskIsActiveUntilItsObservationStops() {
        MockClock clock = new MockClock();
        SimpleMeterRegistry meters = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(new StatvarObservationHandler(meters));
        Observation o = Observation.start("job", observations);
        clock.add(Duration.ofSeconds(2));
        LongTaskTimer active = meters.get("job.active").longTaskTimer();
        assertEquals(1, active.activeTasks());
        assertEquals(2, active.duration(TimeUnit.SECONDS), 0.0);
        o.stop();
        assertEquals(0, active.activeTasks());
        assertEquals(2, meters.get("job").timer().totalTime(TimeUnit.SECONDS), 0.0);
    }
}
