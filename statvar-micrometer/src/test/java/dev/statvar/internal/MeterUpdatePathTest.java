package dev.statvar.internal;

import dev.statvar.StatRegistry;
import dev.statvar.micrometer.StatvarMeterRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The update paths of statvar-backed Micrometer meters execute no locked instruction on a platform
 * thread: core's bytecode check ({@link UpdatePathScanner}, from statvar-core's test-jar) run on
 * {@code Counter.increment(double)}, {@code Timer.record(long, TimeUnit)} and
 * {@code DistributionSummary.record(double)}. The meters call statvar through its interfaces, which the
 * scanner cannot follow; the test shows which implementation each meter holds and scans that
 * implementation's update method too.
 */
class MeterUpdatePathTest {
    private static final String M = "dev/statvar/micrometer/";

    @Test
    void meterUpdatesHaveNoLockedInstruction() throws Exception {
        UpdatePathScanner scanner = new UpdatePathScanner("dev/statvar/", true);
        List<String> violations = scanner.scan(List.of(
                M + "StatvarCounter.increment.(D)V",
                M + "StatvarTimer.record.(JLjava/util/concurrent/TimeUnit;)V",
                M + "StatvarDistributionSummary.record.(D)V"));
        // calls through dev.statvar.Counter / Histogram: the interfaces have no code to scan
        assertEquals(Set.of("cannot find dev/statvar/Counter.add.(J)V", "cannot find dev/statvar/Histogram.record.(J)V"),
                Set.copyOf(violations));
        assertEquals(Set.of(M + "StatvarCounter.fractional.(JD)V"), scanner.slowPathsReached(),
                "only the documented slow path (fractional amounts) is left out");

        // which implementations the meters hold: those, scanned as core scans them
        StatvarMeterRegistry r = new StatvarMeterRegistry(StatRegistry.create());
        assertSame(CounterImpl.class, field(r.counter("c"), "stat").getClass());
        assertSame(HistogramImpl.class, field(r.timer("t"), "nanos").getClass());
        assertSame(HistogramImpl.class, field(r.summary("s"), "stat").getClass());
        UpdatePathScanner core = new UpdatePathScanner("dev/statvar/", true);
        assertEquals(List.of(), core.scan(List.of(
                "dev/statvar/internal/CounterImpl.add.(J)V",
                "dev/statvar/internal/HistogramImpl.record.(J)V")));
    }

    @Test
    void withoutTheSlowPathAnnotationTheFractionalCasIsFound() {
        // proves the scan of the meters looks: the fractional path's DoubleAdder is a locked instruction
        UpdatePathScanner all = new UpdatePathScanner("dev/statvar/", false);
        List<String> v = all.scan(List.of(M + "StatvarCounter.increment.(D)V"));
        assertTrue(v.stream().anyMatch(s -> s.contains("DoubleAdder")), v.toString());
    }

    private static Object field(Object meter, String name) throws ReflectiveOperationException {
        Class<?> c = meter instanceof Counter ? Class.forName("dev.statvar.micrometer.StatvarCounter")
                : meter instanceof Timer ? Class.forName("dev.statvar.micrometer.StatvarTimer")
                : meter instanceof DistributionSummary ? Class.forName("dev.statvar.micrometer.StatvarDistributionSummary")
                : meter.getClass();
        assertSame(c, meter.getClass());
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(meter);
    }
}
