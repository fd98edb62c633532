import dev.statvar.Counter;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatCollector;
import dev.statvar.StatRegistry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * statvar example: worker threads handle fake requests and update counters, gauges and a histogram while
 * the statistic engine prints every interval; at the end the intervals are checked against
 * what the workers know they did (lost counts must be 0).
 *
 * Run: ./statvar example [--seconds N] [--threads N] [--interval-ms N]
 */
public class Example {
    public static void main(String[] args) throws Exception {
        int seconds = 5;
        int threads = Runtime.getRuntime().availableProcessors();
        int intervalMs = 1000;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println("usage: ./statvar example [--seconds N (5)] [--threads N (cores)] [--interval-ms N (1000)]");
                return;
            }
            if (i + 1 >= args.length) {
                die("missing value after " + a);
            }
            int v = parse(a, args[++i]);
            switch (a) {
                case "--seconds" -> seconds = v;
                case "--threads" -> threads = v;
                case "--interval-ms" -> intervalMs = v;
                default -> die("unknown option " + a + " (try --help)");
            }
        }

        StatRegistry stats = StatRegistry.create();
        Counter requests = stats.counter("requests", "requests handled");
        Counter bytes = stats.counter("response_bytes", "bytes sent");
        Histogram latency = stats.histogram("latency_ns", "handling time per request, ns");
        Gauge queue = stats.gauge("queue_depth", "requests waiting when one was taken");

        long[] handled = new long[threads];
        long[] sent = new long[threads];
        AtomicLong intervalsRequests = new AtomicLong();
        AtomicLong intervalsBytes = new AtomicLong();
        AtomicLong intervalsReports = new AtomicLong();
        System.out.printf("statvar example: %d worker threads, %d s, an interval every %d ms%n%n",
                threads, seconds, intervalMs);
        System.out.printf("%-26s %12s %14s %10s %9s %9s %9s %9s%n",
                "interval end", "requests", "bytes", "lat.count", "lat.p50", "lat.p99", "lat.max", "queue.max");
        StatCollector engine = stats.startCollector(Duration.ofMillis(intervalMs), s -> {
            print(s);
            intervalsRequests.addAndGet(s.counter("requests"));
            intervalsBytes.addAndGet(s.counter("response_bytes"));
            intervalsReports.addAndGet(s.histogram("latency_ns").count());
        });

        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            final int id = t;
            Thread w = new Thread(() -> {
                Counter myRequests = requests.localView(); // fastest path for a hot loop
                SplittableRandom rnd = new SplittableRandom(id);
                double work = 0;
                while (System.nanoTime() - deadline < 0) {
                    long t0 = System.nanoTime();
                    int n = 50 + rnd.nextInt(200);
                    for (int j = 1; j <= n; j++) {
                        work += 1.0 / j; // the delay loop of "Statistical variables in Java: not quite legal but very fast": the "request handling"
                    }
                    queue.report(rnd.nextInt(64));
                    int size = 100 + rnd.nextInt(1500);
                    myRequests.add();
                    bytes.add(size); // any-thread path, no view
                    latency.record(System.nanoTime() - t0); // any-thread path
                    handled[id]++;
                    sent[id] += size;
                }
                if (work < 0) {
                    System.out.println(work); // keep the loop alive
                }
            }, "worker-" + t);
            workers.add(w);
            w.start();
        }
        for (Thread w : workers) {
            w.join();
        }
        engine.close(); // delivers the last, partial interval

        long expectRequests = 0;
        long expectBytes = 0;
        for (int t = 0; t < threads; t++) {
            expectRequests += handled[t];
            expectBytes += sent[t];
        }
        System.out.printf("%nrequests: intervals add up to %,d; workers handled %,d; lost %d%n",
                intervalsRequests.get(), expectRequests, expectRequests - intervalsRequests.get());
        System.out.printf("bytes:    intervals add up to %,d; workers sent %,d; lost %d%n",
                intervalsBytes.get(), expectBytes, expectBytes - intervalsBytes.get());
        System.out.printf("latency:  %,d records in intervals; %,d made; lost %d%n",
                intervalsReports.get(), expectRequests, expectRequests - intervalsReports.get());
        boolean exact = expectRequests == intervalsRequests.get() && expectBytes == intervalsBytes.get()
                && expectRequests == intervalsReports.get();
        System.out.println(exact ? "exact: no count lost or doubled" : "MISMATCH: counts were lost or doubled");
        System.exit(exact ? 0 : 1);
    }

    private static void print(Snapshot s) {
        HistogramValue lat = s.histogram("latency_ns");
        GaugeValue q = s.gauge("queue_depth");
        System.out.printf("%-26s %,12d %,14d %,10d %,9d %,9d %,9d %,9d%n", s.end(), s.counter("requests"),
                s.counter("response_bytes"), lat.count(), lat.valueAtPercentile(50), lat.valueAtPercentile(99),
                lat.max(), q.max());
    }

    private static int parse(String opt, String v) {
        try {
            int n = Integer.parseInt(v);
            if (n <= 0) {
                die(opt + " must be positive, was " + v);
            }
            return n;
        } catch (NumberFormatException e) {
            die(opt + " needs a whole number, was '" + v + "'");
            return 0;
        }
    }

    private static void die(String msg) {
        System.err.println("statvar example: " + msg);
        System.exit(2);
    }
}
