package dev.statvar.jmh;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Tag;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ObservationBenchmark} run for a moment in this JVM (no fork, 0.2 s per registry), as part of
 * {@code mvn verify}: both registries (and the floor) run Boot's request path and count what they timed (the
 * trial's tear-down throws otherwise). A check that the benchmark works, not a measurement: the
 * figures come from {@code benchmarks.jar} (docs/MICROMETER.md, "Request metrics cost").
 */
@Tag("thorough")
class ObservationBenchmarkTest {

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void bothRegistriesRunTheRequestPath() throws Exception {
        Options options = new OptionsBuilder()
                .include(ObservationBenchmark.class.getName() + ".request")
                .forks(0)
                .threads(2)
                .warmupIterations(1).warmupTime(TimeValue.milliseconds(100))
                .measurementIterations(1).measurementTime(TimeValue.milliseconds(200))
                .shouldFailOnError(true)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        Map<String, Double> score = new HashMap<>();
        for (RunResult r : results) {
            score.put(r.getParams().getParam("registry") + "/" + r.getParams().getParam("handler"), r.getPrimaryResult().getScore());
        }
        assertEquals(6, score.size(), score.toString());
        for (double ns : score.values()) {
            assertTrue(ns > 0 && Double.isFinite(ns), score.toString());
        }
    }

    /** The paired CPU-time main, briefly: both pairs run, and it prints both times and the ratio. */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void thePairedMainPrintsBothPathsAndTheirRatio() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream out = System.out;
        System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            ObservationBenchmark.main(new String[]{"20", "50"});
        } finally {
            System.setOut(out);
        }
        String line = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        System.out.print(line);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("statvar/statvar median (\\d+) ns.*prometheus/micrometer "
                + "median (\\d+) ns.*per pair: median (\\d+\\.\\d+)").matcher(line);
        assertTrue(m.find(), line);
        assertTrue(Long.parseLong(m.group(1)) > 0 && Long.parseLong(m.group(2)) > 0, line);
        assertTrue(Double.parseDouble(m.group(3)) > 0, line);
    }
}
