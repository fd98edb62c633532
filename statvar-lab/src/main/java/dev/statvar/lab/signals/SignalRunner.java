package dev.statvar.lab.signals;

import dev.statvar.Histogram;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.lab.kit.ChildProcess;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * The signalling study's child JVM: one mechanism at one pair count. Usage:
 * {@code SignalRunner MECHANISM PAIRS SIGNALS WARMUP}; prints a {@code PROGRESS} line and one
 * {@code RESULT <json>} line.
 *
 * <p>Each pair: the critical thread sends {@code WARMUP + SIGNALS} signals to its partner, one at a
 * time. Before each it waits (parking {@link #POLL_NS} at a time, never spinning) until the partner
 * has announced that it waits for that signal (for park/unpark: until the partner is parked), so
 * that every signal wakes a waiting thread. The last {@code SIGNALS} are measured: the signal's cost
 * to the critical thread and the partner's wake-up latency go into two statvar histograms and into
 * raw arrays (one row per pair, each written by one thread, read by the main thread after
 * {@link Thread#join()}) that feed HdrHistogram for the check ({@link PercentileCheck}).
 *
 * <p>Before the cell the clock is probed: the smallest nonzero difference of consecutive
 * System.nanoTime calls, and the cost of a call.
 */
public final class SignalRunner {
    /** How long the critical thread parks between looks at its partner. */
    static final long POLL_NS = 20_000;
    /** The partner waits at most this long for one signal (then: not seen, a missed signal). */
    static final long WAIT_LIMIT_NS = 2_000_000_000L;
    /** The critical thread waits at most this long for its partner to be waiting (then: the cell is STUCK). */
    static final long READY_LIMIT_NS = 10_000_000_000L;
    /** Percentiles of the spectrum kept for the charts. */
    static final double[] SPECTRUM = {0.001, 10, 25, 50, 75, 90, 95, 97.5, 99, 99.5, 99.75, 99.9, 99.95, 99.99, 100};

    private SignalRunner() {
    }

    public static void main(String[] args) throws Exception {
        Mechanism m = Mechanism.valueOf(args[0]);
        int pairs = Integer.parseInt(args[1]);
        int signals = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        System.out.printf(Locale.ROOT, "PROGRESS %s pairs=%d%n", m, pairs);
        System.out.flush();
        Map<String, Object> r = run(m, pairs, signals, warmup);
        ChildProcess.printResult(r);
        System.out.flush();
    }

    /** Smallest nonzero difference of consecutive System.nanoTime calls, and ns per call: {granularity, cost}. */
    static double[] clock() {
        int n = 2_000_000;
        long min = Long.MAX_VALUE;
        long t0 = System.nanoTime();
        long prev = t0;
        for (int i = 0; i < n; i++) {
            long t = System.nanoTime();
            long d = t - prev;
            if (d > 0 && d < min) {
                min = d;
            }
            prev = t;
        }
        return new double[] {min, (prev - t0) / (double) n};
    }

    /** One cell: the result as the RESULT line's JSON object. */
    static Map<String, Object> run(Mechanism m, int pairs, int signals, int warmup) throws InterruptedException {
        double[] clock = clock();
        StatRegistry registry = StatRegistry.create();
        Histogram costs = registry.histogram("signal_cost_ns", "the signal's cost to the critical thread, ns");
        Histogram wakes = registry.histogram("wake_up_ns", "from just before the signal until the partner runs, ns");
        long[][] costRaw = new long[pairs][signals];
        long[][] wakeRaw = new long[pairs][signals];
        long[] sent = new long[pairs];      // each element written by its critical thread, read after join
        long[] observed = new long[pairs];  // each element written by its partner, read after join
        long[] abandoned = new long[pairs]; // each element written by its partner, read after join
        boolean[] stuck = new boolean[pairs];
        Channel[] ch = new Channel[pairs];
        List<Thread> threads = new ArrayList<>();
        int total = warmup + signals;
        for (int p = 0; p < pairs; p++) {
            int pair = p;
            Channel c = m.channel();
            ch[p] = c;
            java.util.Arrays.fill(wakeRaw[p], -1);
            java.util.Arrays.fill(costRaw[p], -1);
            Thread partner = new Thread(() -> {
                try {
                    for (int i = 1; i <= total; i++) {
                        long w = c.await(i, WAIT_LIMIT_NS);
                        if (w < 0) {
                            abandoned[pair]++; // not posted within the limit: the critical thread was late, no wake-up lost
                        } else {
                            observed[pair]++;
                            if (i > warmup) {
                                wakes.record(w);
                                wakeRaw[pair][i - warmup - 1] = w;
                            }
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "signals-flushing-" + p);
            c.partner = partner;
            Thread critical = new Thread(() -> {
                for (int i = 1; i <= total; i++) {
                    long deadline = System.nanoTime() + READY_LIMIT_NS;
                    while (!c.partnerWaiting(i)) {
                        if (System.nanoTime() - deadline > 0) {
                            stuck[pair] = true;
                            c.partner.interrupt(); // its wait loop stops at the next look
                            return;
                        }
                        LockSupport.parkNanos(POLL_NS);
                    }
                    long cost = c.signal(i);
                    sent[pair]++;
                    if (i > warmup) {
                        costs.record(cost);
                        costRaw[pair][i - warmup - 1] = cost;
                    }
                }
            }, "signals-critical-" + p);
            partner.setDaemon(true);
            critical.setDaemon(true);
            threads.add(partner);
            threads.add(critical);
        }
        long start = System.nanoTime();
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        long elapsed = System.nanoTime() - start;
        Snapshot snap = registry.collect();
        long sentAll = 0;
        long observedAll = 0;
        long abandonedAll = 0;
        long spurious = 0;
        long timeouts = 0;
        long late = 0;
        long spun = 0;
        int stuckPairs = 0;
        for (int p = 0; p < pairs; p++) {
            sentAll += sent[p];
            observedAll += observed[p];
            abandonedAll += abandoned[p];
            spurious += ch[p].spurious;
            timeouts += ch[p].timeouts;
            late += ch[p].lateByTimeout;
            spun += ch[p].spun;
            stuckPairs += stuck[p] ? 1 : 0;
        }
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("mechanism", m.name());
        r.put("pairs", pairs);
        r.put("signals", signals);
        r.put("warmup", warmup);
        r.put("status", stuckPairs > 0 ? "STUCK" : "ok");
        r.put("stuck_pairs", stuckPairs);
        r.put("sent", sentAll);
        r.put("observed", observedAll);
        // missed: posted but never seen, or seen only when a wait ran out; a signal the partner stopped
        // waiting for before it was posted (abandoned) is sent late, not missed
        r.put("missed", sentAll - observedAll - abandonedAll + late);
        r.put("abandoned", abandonedAll);
        r.put("late_by_timeout", late);
        r.put("spurious", spurious);
        r.put("timeouts", timeouts);
        r.put("spun", m == Mechanism.SPIN ? spun : -1);
        r.put("elapsed_ms", elapsed / 1_000_000);
        r.put("clock_granularity_ns", clock[0]);
        r.put("clock_cost_ns", clock[1]);
        Map<String, Object> lat = new LinkedHashMap<>();
        lat.put("signal_cost", latency(snap.histogram("signal_cost_ns"), costRaw));
        lat.put("wake_up", latency(snap.histogram("wake_up_ns"), wakeRaw));
        r.put("latencies", lat);
        return r;
    }

    /** One latency: statvar's figures, HdrHistogram's, the check, the exact mean of the raw samples, the spectrum. */
    static Map<String, Object> latency(HistogramValue v, long[][] raw) {
        org.HdrHistogram.Histogram h = PercentileCheck.hdr(raw);
        PercentileCheck.Result check = PercentileCheck.compare(v, h);
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("count", v.count());
        Map<String, Object> hdr = new LinkedHashMap<>();
        for (PercentileCheck.Row row : check.rows()) {
            String k = key(row.percentile());
            o.put(k, row.statvar());
            hdr.put(k, row.hdr());
        }
        o.put("mean", v.isEmpty() ? 0.0 : v.mean());
        long sum = 0;
        long n = 0;
        for (long[] row : raw) {
            for (long x : row) {
                if (x >= 0) {
                    sum += x;
                    n++;
                }
            }
        }
        o.put("raw_mean", n == 0 ? 0.0 : sum / (double) n);
        o.put("min", v.min());
        hdr.put("count", h.getTotalCount());
        o.put("hdr", hdr);
        o.put("check_ok", check.ok());
        o.put("check_worst", check.worstRatio());
        o.put("check", check.summary());
        List<double[]> spectrum = new ArrayList<>();
        for (double p : SPECTRUM) {
            spectrum.add(new double[] {p, v.isEmpty() ? 0 : p == 100 ? v.max() : v.valueAtPercentile(p)});
        }
        o.put("spectrum", spectrum);
        return o;
    }

    /** The JSON key of a percentile: p50 .. p99_9, max. */
    static String key(double p) {
        return p == 100 ? "max" : "p" + PercentileCheck.label(p).replace('.', '_');
    }
}
