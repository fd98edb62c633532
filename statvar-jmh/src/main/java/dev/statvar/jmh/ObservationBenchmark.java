package dev.statvar.jmh;

import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;
import dev.statvar.micrometer.StatvarMeterRegistry;
import dev.statvar.micrometer.StatvarObservationHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Spring Boot's per-request metrics path, through the Micrometer API only, on statvar's
 * {@link StatvarMeterRegistry} and on Micrometer's {@link PrometheusMeterRegistry} side by side in
 * one run ({@code @Param registry}). Run with {@code -t 1} and again with {@code -t 2}.
 *
 * <p>What one operation is: what Boot's {@code ServerHttpObservationFilter} does per request once
 * the request is parsed. An {@link Observation} named {@code http.server.requests} with Boot's five
 * low-cardinality keys ({@code exception, method, outcome, status, uri}) is created, started and
 * stopped in an {@link ObservationRegistry} whose only handler is Micrometer's
 * {@link DefaultMeterObservationHandler}, as Boot configures it: {@code onStart} registers (looks up)
 * the {@code http.server.requests.active} {@code LongTaskTimer} and starts it, and a
 * {@link Timer.Sample}; {@code onStop} stops both, registering (looking up) the
 * {@code http.server.requests} {@link Timer} and recording into it. The key values cycle through 8
 * routes (uri and status), the same sequence on both registries: a server with a handful of routes.
 * Boot's convention objects and the servlet request are not part of it (they cost the same whatever
 * the registry); the clock is Micrometer's system clock on both.
 *
 * <p>{@code @Param handler}: {@code micrometer} is Micrometer's {@link DefaultMeterObservationHandler}
 * (what Boot installs by default); {@code statvar} is {@link StatvarObservationHandler} (the same
 * meters, looked up once per tag set; what statvar-spring-boot installs); {@code none} is the floor:
 * the same observation with a handler that only counts it ({@link CountingHandler}). Boot with
 * statvar is {@code statvar/statvar}, Boot with Prometheus {@code prometheus/micrometer}; the other
 * pairs separate the registry's share from the handler's.
 *
 * <p>The statvar registry runs a real background collector ({@code startCollector(1 s)}); the
 * Prometheus registry needs none. The trial fails if a background thread died or no request was
 * counted.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
public class ObservationBenchmark {
    /** The routes a request cycles through: uri and status; a power of two, so the next index is a mask. */
    private static final String[][] ROUTES = {
            {"/orders", "200"}, {"/orders/{id}", "200"}, {"/orders/{id}", "404"}, {"/cart", "200"},
            {"/cart/items", "201"}, {"/login", "200"}, {"/login", "401"}, {"/health", "200"}};
    private static final int MASK = ROUTES.length - 1;

    /** One registry and the observation registry that Boot would configure on it, shared by the benchmark threads. */
    @State(Scope.Benchmark)
    public static class Requests {
        @Param({"statvar", "prometheus"})
        String registry;

        /** {@code micrometer}: DefaultMeterObservationHandler; {@code statvar}: StatvarObservationHandler; {@code none}: the floor. */
        @Param({"micrometer", "statvar", "none"})
        String handler;

        MeterRegistry meters;
        ObservationRegistry observations;
        StatCollector collector;
        final AtomicLong intervals = new AtomicLong();

        @Setup(Level.Trial)
        public void setup() {
            Crashes.install();
            switch (registry) {
                case "statvar": {
                    StatRegistry stats = StatRegistry.create();
                    meters = new StatvarMeterRegistry(stats);
                    collector = stats.startCollector(Duration.ofSeconds(1), s -> intervals.incrementAndGet());
                    break;
                }
                case "prometheus":
                    meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
                    break;
                default:
                    throw new IllegalArgumentException("registry: " + registry);
            }
            observations = ObservationRegistry.create();
            switch (handler) {
                case "micrometer":
                    observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
                    break;
                case "statvar":
                    observations.observationConfig().observationHandler(new StatvarObservationHandler(meters));
                    break;
                case "none":
                    observations.observationConfig().observationHandler(new CountingHandler(meters));
                    break;
                default:
                    throw new IllegalArgumentException("handler: " + handler);
            }
        }

        /** Fails the trial if a background thread died, no request was timed, or statvar's collector never ran. */
        @TearDown(Level.Trial)
        public void tearDown() {
            if (collector != null) {
                collector.close();
            }
            Crashes.check();
            long timed = (long) meters.counter("observations.stopped").count();
            for (Timer t : meters.find("http.server.requests").timers()) {
                timed += t.count();
            }
            boolean ok = timed > 0 && (collector == null || intervals.get() >= 1);
            meters.close();
            if (!ok) {
                throw new IllegalStateException(registry + ": " + timed + " requests timed, " + intervals.get() + " intervals");
            }
        }
    }

    /**
     * The floor ({@code handler = none}): a handler that only counts the stops, in one
     * {@code Counter} registered once (a handler is needed, or Micrometer makes the observation a no-op).
     * What remains is the Observation's own cost, which no registry can remove.
     */
    static final class CountingHandler implements io.micrometer.observation.ObservationHandler<Observation.Context> {
        private final io.micrometer.core.instrument.Counter stops;

        CountingHandler(MeterRegistry meters) {
            stops = meters.counter("observations.stopped");
        }

        @Override
        public void onStop(Observation.Context context) {
            stops.increment();
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }
    }

    /** The benchmark thread's position in the routes; threads start apart. */
    @State(Scope.Thread)
    public static class Cursor {
        private static final AtomicLong THREADS = new AtomicLong();

        int i;

        @Setup(Level.Trial)
        public void setup() {
            i = (int) (THREADS.getAndIncrement() * 3);
        }

        String[] next() {
            return ROUTES[i++ & MASK];
        }
    }

    /**
     * Boot with statvar ({@code statvar/statvar}) against Boot with Prometheus ({@code prometheus/micrometer}),
     * paired by thread CPU time, for a machine too noisy for JMH's wall clock to compare them (as
     * {@link ScrapeFormatBenchmark#main}): one thread runs a batch of requests on one pair, then a batch on the
     * other (alternating which goes first), each timed by the thread's CPU time; 50 unmeasured pairs first.
     * Prints each side's ns per request and the per-pair ratio (median, p10, p90).
     * {@code java -cp statvar-jmh/target/benchmarks.jar dev.statvar.jmh.ObservationBenchmark [pairs] [batch]}
     * (default 200 pairs of 10,000 requests).
     */
    public static void main(String[] args) {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        Requests statvar = requests("statvar", "statvar");
        Requests prometheus = requests("prometheus", "micrometer");
        Cursor cursor = new Cursor();
        cursor.setup();
        ObservationBenchmark b = new ObservationBenchmark();
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        double[] sv = new double[pairs];
        double[] pm = new double[pairs];
        double[] ratio = new double[pairs];
        long sink = 0;
        for (int i = -50; i < pairs; i++) {
            boolean statvarFirst = (i & 1) == 0;
            long t0 = cpu.getCurrentThreadCpuTime();
            sink += run(b, statvarFirst ? statvar : prometheus, cursor, batch);
            long t1 = cpu.getCurrentThreadCpuTime();
            sink += run(b, statvarFirst ? prometheus : statvar, cursor, batch);
            long t2 = cpu.getCurrentThreadCpuTime();
            if (i >= 0) {
                sv[i] = (double) (statvarFirst ? t1 - t0 : t2 - t1) / batch;
                pm[i] = (double) (statvarFirst ? t2 - t1 : t1 - t0) / batch;
                ratio[i] = pm[i] / sv[i];
            }
        }
        statvar.tearDown();
        prometheus.tearDown();
        java.util.Arrays.sort(sv);
        java.util.Arrays.sort(pm);
        java.util.Arrays.sort(ratio);
        System.out.printf(java.util.Locale.ROOT, "ObservationBenchmark, %d pairs of %d requests, thread CPU time per request: "
                        + "statvar/statvar median %.0f ns (p10 %.0f, p90 %.0f), prometheus/micrometer median %.0f ns (p10 %.0f, "
                        + "p90 %.0f); prometheus/micrometer over statvar/statvar per pair: median %.2f (p10 %.2f, p90 %.2f) [%d]%n",
                pairs, batch, sv[pairs / 2], sv[pairs / 10], sv[pairs * 9 / 10], pm[pairs / 2], pm[pairs / 10],
                pm[pairs * 9 / 10], ratio[pairs / 2], ratio[pairs / 10], ratio[pairs * 9 / 10], sink % 10);
    }

    private static Requests requests(String registry, String handler) {
        Requests r = new Requests();
        r.registry = registry;
        r.handler = handler;
        r.setup();
        return r;
    }

    /** {@code batch} requests on {@code r}; the count of observations returned (all), for the sink. */
    private static long run(ObservationBenchmark b, Requests r, Cursor c, int batch) {
        long n = 0;
        for (int k = 0; k < batch; k++) {
            if (b.request(r, c) != null) {
                n++;
            }
        }
        return n;
    }

    /** One request's observation: created, started and stopped. */
    @Benchmark
    public Observation request(Requests r, Cursor c) {
        String[] route = c.next();
        Observation o = Observation.createNotStarted("http.server.requests", r.observations)
                .lowCardinalityKeyValue("exception", "none")
                .lowCardinalityKeyValue("method", "GET")
                .lowCardinalityKeyValue("outcome", route[1].charAt(0) == '2' ? "SUCCESS" : "CLIENT_ERROR")
                .lowCardinalityKeyValue("status", route[1])
                .lowCardinalityKeyValue("uri", route[0]);
        o.start();
        o.stop();
        return o;
    }
}
