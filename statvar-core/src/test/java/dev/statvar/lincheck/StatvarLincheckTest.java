package dev.statvar.lincheck;

import dev.statvar.Counter;
import dev.statvar.CounterValue;
import dev.statvar.Gauge;
import dev.statvar.GaugeValue;
import dev.statvar.Histogram;
import dev.statvar.HistogramPrecision;
import dev.statvar.HistogramValue;
import dev.statvar.Snapshot;
import dev.statvar.StatRegistry;
import dev.statvar.StatValue;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Model checking, with Lincheck, of the invariants the jcstress suite checks on the hardware:
 * updates racing {@link StatRegistry#collect()} are never lost nor doubled, whatever the
 * interleaving.
 *
 * <h2>What Lincheck does here</h2>
 * {@link Lincheck#runConcurrentTest(int, Runnable)} runs the block {@code invocations} times
 * under its model checker: it instruments the loaded classes (a Java agent it attaches to this
 * JVM on the first call; each call installs the instrumentation and removes it again on
 * return, so the other tests of this JVM run uninstrumented code), runs the threads the block
 * starts one at a time, and switches between them at shared-memory accesses (fields, array
 * elements, {@code VarHandle} calls, monitors, {@code Thread.start/join}), choosing other
 * switch points in each invocation. So it explores interleavings the hardware rarely produces,
 * e.g. a collect that runs entirely between an updater's plain read of its cell and its opaque
 * store, or between its epoch read and its min/max store. A failing invocation is reported as
 * a {@link LincheckAssertionError} (an {@link AssertionError}) carrying the exception the block
 * threw and the interleaving that led to it, switch by switch. Every invocation uses a fresh
 * registry and fresh threads, so each thread's first update takes the slow path (its cell
 * array is created and installed under the lock) and its later ones the lock-free path.
 * Invariants are asserted in the block after the joins, with plain exceptions.
 *
 * <h2>What it does not do, and what the checks do about it (Lincheck 3.7)</h2>
 * <ul>
 *   <li>It executes every interleaving under sequential consistency: the opaque, release and
 *       acquire modes of statvar's VarHandle accesses are all treated as sequentially
 *       consistent. Reorderings the Java Memory Model allows under weaker modes are the
 *       jcstress suite's domain, not this one's.</li>
 *   <li>Exploration is bounded by the invocation count: a pass is evidence, not a proof.</li>
 *   <li>Objects it takes for thread-local get no switch points at all. On JDK 25 (not on JDK
 *       17) an object reachable only through the {@code Runnable} given to
 *       {@code new Thread(...)} is taken for thread-local: with it, two threads doing
 *       {@code count++} on a plain or even a volatile field of a captured object pass 1,000
 *       invocations, while the same object published through a static field, or held by a
 *       {@code Thread} subclass, fails at once. So every block first {@link #share shares} the
 *       objects its threads use through a static volatile field; the interleavings printed on
 *       JDK 25 then show the engine's plain reads (e.g. the owner check of a cell array) as on
 *       JDK 17.</li>
 *   <li>Its default settings, the only ones {@code runConcurrentTest} offers, take a loop of
 *       more than 50 iterations while the other threads wait for a livelock ("Concurrent test
 *       has hung"); see {@link #PRECISION} for the histograms.</li>
 *   <li>Virtual threads (the stripes: an atomic add for a counter, a ReentrantLock for a
 *       gauge or histogram) are not covered: on JDK 25, joining a virtual thread inside
 *       {@code runConcurrentTest} fails inside Lincheck ("You've caught a bug in Lincheck":
 *       NullPointerException in ManagedStrategy.switchCurrentThread, from onThreadJoin). On
 *       platform threads statvar takes no ReentrantLock.</li>
 *   <li>{@code Unsafe.objectFieldOffset} refuses the fields of records and of lambdas (hidden
 *       classes), so Lincheck logs "Failed to get object field offset for field ..." for the
 *       final fields of {@code CounterImpl}, {@code GaugeImpl} and the lambdas: final fields,
 *       never raced.</li>
 * </ul>
 *
 * <p>Invocation counts keep this class around a minute on the 2-core machine;
 * {@code -Dstatvar.lincheck.scale=N} multiplies them for a deeper local run.
 */
@Tag("thorough")
class StatvarLincheckTest {

    /** Multiplier of every invocation count (system property {@code statvar.lincheck.scale}, default 1). */
    private static final int SCALE = Integer.getInteger("statvar.lincheck.scale", 1);

    private static int invocations(int n) {
        return n * Math.max(1, SCALE);
    }

    /**
     * The histograms' precision: 4 sub-buckets per power of two. runConcurrentTest runs with
     * Lincheck's default settings, which take a loop of more than 50 iterations, while other
     * threads wait, for a livelock ("Concurrent test has hung ... All unfinished threads are in
     * livelock due to non-terminating loops"). The collector's loop over a thread's histogram
     * buckets (HistogramCells.readBuckets) is bounded, but at the default precision an array holds at
     * least 64 buckets (one octave), and the public API has no setting for that bound. So the
     * histograms here use a coarser precision, whose arrays hold at most 36 buckets for these
     * values: the same code, fewer buckets per octave.
     */
    private static final HistogramPrecision PRECISION = HistogramPrecision.ofSubBucketBits(2);

    // ------------------------------------------------------------------ 1, 2: counters

    /** 1. Two threads add() while a third collects: the intervals add up exactly; none is negative. */
    @Test
    void counterAddsRacingCollectAddUp() {
        check("counter add() racing collect()", invocations(60), () -> {
            StatRegistry r = StatRegistry.create();
            Counter c = r.counter("c");
            List<Snapshot> seen = new ArrayList<>();
            share(r, c, seen);
            // Powers of two: the total tells which add was lost or doubled.
            race(() -> collectTwice(r, seen), () -> {
                c.add();
                c.add(2);
            }, () -> {
                c.add(4);
                c.add(8);
            });
            seen.add(r.collect()); // after the joins: everything is in by now
            expectCounter(seen, "c", 15);
        });
    }

    /** 2. As 1, through localView() (each thread's own one-stat array), mixed with the shared path. */
    @Test
    void localViewAddsRacingCollectAddUp() {
        check("counter localView().add() racing collect()", invocations(50), () -> {
            StatRegistry r = StatRegistry.create();
            Counter c = r.counter("c");
            List<Snapshot> seen = new ArrayList<>();
            share(r, c, seen);
            race(() -> collectTwice(r, seen), () -> {
                Counter v = c.localView();
                v.add();
                c.add(2); // the same thread's shared cell beside its view
                v.add(4);
            }, () -> {
                Counter v = c.localView();
                v.add(8);
                v.add(16);
            });
            seen.add(r.collect());
            expectCounter(seen, "c", 31);
        });
    }

    // ------------------------------------------------------------------ 3: gauges

    /**
     * 3. Two threads report() while a third collects: counts and sums over all intervals are
     * exact, and the min and max over all intervals are the true ones. With two collects a
     * thread's reports can fall into three epochs: the retag that moves its current min/max
     * slot to the previous one, and the fold of the previous slot into the cumulative min/max,
     * both run (the first thread reports three times).
     */
    @Test
    void gaugeReportsRacingCollectAddUp() {
        long[] values = {5, -30, 11, 700, -2}; // non-zero: an interval without min/max reports (0, 0)
        check("gauge report() racing collect()", invocations(50), () -> {
            StatRegistry r = StatRegistry.create();
            Gauge g = r.gauge("g");
            List<Snapshot> seen = new ArrayList<>();
            share(r, g, seen);
            race(() -> collectTwice(r, seen), () -> {
                g.report(values[0]);
                g.report(values[1]);
                g.report(values[2]);
            }, () -> {
                g.report(values[3]);
                g.report(values[4]);
            });
            seen.add(r.collect());
            expectGauge(seen, "g", values);
        });
    }

    // ------------------------------------------------------------------ 4: histograms

    /**
     * 4. Two threads record() while a third collects: count, sum and every bucket over all
     * intervals equal those of the same values recorded on one thread. Each thread's second
     * value lies outside the octaves its array covers, so the array is replaced by a wider copy
     * (under the lock) while the collector may be reading it: upwards in one thread, downwards
     * in the other.
     */
    @Test
    void histogramRecordsRacingCollectAddUp() {
        checkHistogramRace("histogram record() racing collect()", invocations(30), new long[]{3, 1001, 100}, new long[]{100, 5});
    }

    /**
     * 4b. One thread records two values while the main thread collects twice: the min and max
     * of all intervals merged are the values recorded. The regression test of a bug this check
     * found: when every record of an interval raced its switch, the interval reported its
     * buckets' middles as min/max (here 959 for a record of 1010), below the true minimum 1001.
     * With that engine this check failed in 3 runs of 3 (after about 30 s), and passed all 3
     * runs of 600 invocations: hence the larger count. Every interval's min/max now cover the
     * records it counts (GaugeCells), so their union is exact whatever the interleaving.
     */
    @Test
    void histogramMinMaxOverIntervalsAreTheValuesRecorded() {
        checkHistogramRace("histogram min/max over intervals", invocations(1000), new long[]{1001, 1010});
    }

    /**
     * One thread per array of {@code perThread} records its values in order while the main
     * thread collects twice; then the intervals must merge to the same values recorded on one
     * thread (count, sum, buckets, exact min and max).
     */
    private static void checkHistogramRace(String what, int invocations, long[]... perThread) {
        HistogramValue expected = reference(Arrays.stream(perThread).flatMapToLong(Arrays::stream).toArray());
        check(what, invocations, () -> {
            StatRegistry r = StatRegistry.create();
            Histogram h = r.histogram("h", "", PRECISION);
            List<Snapshot> seen = new ArrayList<>();
            share(r, h, seen);
            Runnable[] recorders = new Runnable[perThread.length];
            for (int t = 0; t < perThread.length; t++) {
                long[] values = perThread[t];
                recorders[t] = () -> {
                    for (long v : values) {
                        h.record(v);
                    }
                };
            }
            race(() -> collectTwice(r, seen), recorders);
            seen.add(r.collect());
            expectHistogram(seen, "h", expected);
        });
    }

    // ------------------------------------------------------------------ 5: registration

    /**
     * 5. A stat registered while another thread updates and collect() runs. Three gauges are
     * registered up front so that the new stat lies beyond a thread's first cell array: the
     * updater's array must grow (copied under the lock) when it first updates the new stat.
     * Both threads ask for "late", racing on which of them registers it.
     */
    @Test
    void registrationRacingUpdatesAndCollectIsExact() {
        check("registration racing updates and collect()", invocations(30), () -> {
            StatRegistry r = StatRegistry.create();
            Counter c = r.counter("c");
            r.gauge("pad1");
            r.gauge("pad2");
            r.gauge("pad3");
            List<Snapshot> seen = new ArrayList<>();
            share(r, c, seen);
            race(() -> collectTwice(r, seen), () -> {
                c.add();
                Counter late = r.counter("late");
                late.add(2);
                c.add(4);
            }, () -> {
                Counter late = r.counter("late");
                late.add(8);
            });
            seen.add(r.collect());
            expectCounter(seen, "c", 5);
            expectCounter(seen, "late", 10);
        });
    }

    // ------------------------------------------------------------------ 6: terminated threads

    /**
     * 6. Threads that update and terminate while collect() runs: a collect that finds a thread
     * dead ({@code isAlive()} false) folds its storage into the settled totals and frees it.
     * Every counter, gauge and histogram adds up exactly, and one more collect afterwards
     * reports nothing (nothing folded twice).
     */
    @Test
    void terminatingThreadsFoldedWhileCollectingAreExact() {
        long[] gaugeValues = {4, -6};
        long[] histValues = {1001, 9};
        HistogramValue expectedHist = reference(histValues);
        check("terminating threads folded by collect()", invocations(30), () -> {
            StatRegistry r = StatRegistry.create();
            Counter c = r.counter("c");
            Gauge g = r.gauge("g");
            Histogram h = r.histogram("h", "", PRECISION);
            List<Snapshot> seen = new ArrayList<>();
            share(r, c, g, h, seen);
            race(() -> collectTwice(r, seen), () -> {
                c.add();
                g.report(gaugeValues[0]);
                h.record(histValues[0]);
            }, () -> {
                c.add(2);
                g.report(gaugeValues[1]);
                h.record(histValues[1]);
            });
            seen.add(r.collect());
            expectCounter(seen, "c", 3);
            expectGauge(seen, "g", gaugeValues);
            expectHistogram(seen, "h", expectedHist);
            Snapshot after = r.collect();
            long c2 = after.counter("c");
            GaugeValue g2 = after.gauge("g");
            HistogramValue h2 = after.histogram("h");
            if (c2 != 0 || g2.count() != 0 || g2.sum() != 0 || h2.count() != 0 || h2.sum() != 0) {
                throw new AssertionError("a collect after everything was folded reported more: c=" + c2 + " g count="
                        + g2.count() + " sum=" + g2.sum() + " h " + describe(h2));
            }
        });
    }

    // ------------------------------------------------------------------ the checks can fail

    /**
     * The same shape as check 1 against the trivial counter of
     * "Statistical variables in Java: not quite legal but very fast" (2017) (a plain field, read then
     * reset by the collector): Lincheck must find an interleaving that loses or doubles adds.
     */
    @Test
    void brokenReadThenResetCounterIsCaught() {
        long t0 = System.nanoTime();
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () ->
                Lincheck.runConcurrentTest(invocations(1_000), () -> {
                    TrivialCounter c = new TrivialCounter();
                    long[] seen = new long[2];
                    share(c, seen);
                    race(() -> {
                        seen[0] = c.getAndReset();
                        seen[1] = c.getAndReset();
                    }, () -> {
                        c.add(1);
                        c.add(2);
                    }, () -> {
                        c.add(4);
                        c.add(8);
                    });
                    long total = seen[0] + seen[1] + c.getAndReset();
                    if (total != 15) {
                        throw new AssertionError("trivial counter: intervals add up to " + total + ", not 15");
                    }
                }));
        String report = String.valueOf(e.getMessage());
        assertTrue(report.contains("trivial counter: intervals add up to"), report);
        assertTrue(report.contains("The following interleaving leads to the error"), report);
        System.out.printf("lincheck: broken read-then-reset counter caught after %.1f s:%n%s%n",
                (System.nanoTime() - t0) / 1e9, firstPart(report));
    }

    /** The article's TrivialCounter: a plain long, added to by clients, read and reset by the collector. */
    private static final class TrivialCounter {
        private long count;

        void add(long n) {
            count += n;
        }

        long getAndReset() {
            long result = count;
            count = 0;
            return result;
        }
    }

    // ------------------------------------------------------------------ helpers

    /** Runs {@code block} under Lincheck and prints how long it took. */
    private static void check(String what, int invocations, Runnable block) {
        long t0 = System.nanoTime();
        Lincheck.runConcurrentTest(invocations, block);
        System.out.printf("lincheck: %s: %d invocations, %.1f s%n", what, invocations, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * Only written: objects stored here are shared in Lincheck's eyes, as is everything they
     * reach (see the class comment: JDK 25).
     */
    @SuppressWarnings("unused")
    private static volatile Object shared;

    /** Makes {@code objects}, and all they reach, shared for Lincheck: it then switches threads at their accesses. */
    private static void share(Object... objects) {
        shared = objects;
    }

    /**
     * Starts one thread per updater, runs {@code collector} on the calling thread (the block's
     * main thread, the third party of the race), then joins the updaters. Inside
     * runConcurrentTest, Lincheck schedules all of them.
     */
    private static void race(Runnable collector, Runnable... updaters) {
        Thread[] threads = new Thread[updaters.length];
        for (int i = 0; i < updaters.length; i++) {
            threads[i] = new Thread(updaters[i]);
        }
        for (Thread t : threads) {
            t.start();
        }
        collector.run();
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static void collectTwice(StatRegistry r, List<Snapshot> seen) {
        seen.add(r.collect());
        seen.add(r.collect());
    }

    /** The stat {@code name} in {@code s}, or null when it was registered after that interval closed. */
    private static StatValue find(Snapshot s, String name) {
        for (StatValue v : s) {
            if (v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    private static void expectCounter(List<Snapshot> intervals, String name, long expected) {
        long sum = 0;
        StringBuilder got = new StringBuilder();
        for (Snapshot s : intervals) {
            CounterValue v = (CounterValue) find(s, name);
            long value = v == null ? 0 : v.value();
            got.append(' ').append(value);
            if (value < 0) {
                throw new AssertionError("counter " + name + ": a negative interval:" + got);
            }
            sum += value;
        }
        if (sum != expected) {
            throw new AssertionError("counter " + name + ": intervals" + got + " add up to " + sum + ", not " + expected);
        }
    }

    private static void expectGauge(List<Snapshot> intervals, String name, long[] reported) {
        long count = 0;
        long sum = 0;
        boolean has = false;
        long min = 0;
        long max = 0;
        StringBuilder got = new StringBuilder();
        for (Snapshot s : intervals) {
            GaugeValue v = (GaugeValue) find(s, name);
            got.append(" [count=").append(v.count()).append(" sum=").append(v.sum())
                    .append(" min=").append(v.min()).append(" max=").append(v.max()).append(']');
            count += v.count();
            sum += v.sum();
            if (v.min() != 0 || v.max() != 0) { // every reported value is non-zero: (0, 0) means no min/max
                min = has ? Math.min(min, v.min()) : v.min();
                max = has ? Math.max(max, v.max()) : v.max();
                has = true;
            }
        }
        long trueSum = 0;
        long trueMin = Long.MAX_VALUE;
        long trueMax = Long.MIN_VALUE;
        for (long x : reported) {
            trueSum += x;
            trueMin = Math.min(trueMin, x);
            trueMax = Math.max(trueMax, x);
        }
        if (count != reported.length || sum != trueSum || !has || min != trueMin || max != trueMax) {
            throw new AssertionError("gauge " + name + ": intervals" + got + " give count=" + count + " sum=" + sum
                    + " min=" + (has ? min : "none") + " max=" + (has ? max : "none") + ", not count="
                    + reported.length + " sum=" + trueSum + " min=" + trueMin + " max=" + trueMax);
        }
    }

    private static void expectHistogram(List<Snapshot> intervals, String name, HistogramValue expected) {
        List<HistogramValue> values = new ArrayList<>();
        StringBuilder got = new StringBuilder();
        for (Snapshot s : intervals) {
            HistogramValue v = (HistogramValue) find(s, name);
            values.add(v);
            got.append(" [").append(describe(v)).append(']');
        }
        HistogramValue merged = HistogramValue.mergeAll(name, "", values);
        if (merged.count() != expected.count() || merged.sum() != expected.sum()
                || !merged.buckets().equals(expected.buckets()) || merged.min() != expected.min()
                || merged.max() != expected.max()) {
            throw new AssertionError("histogram " + name + ": intervals" + got + " merge to " + describe(merged)
                    + ", not " + describe(expected));
        }
    }

    /**
     * count, sum, min, max and buckets, spelt out: the values' own toString() formats with
     * String.format, whose locale data fails to initialise under Lincheck's instrumentation
     * (NoClassDefFoundError: sun.util.cldr.CLDRLocaleProviderAdapter), which would hide the
     * failure being reported.
     */
    private static String describe(HistogramValue v) {
        StringBuilder sb = new StringBuilder("count=").append(v.count()).append(" sum=").append(v.sum())
                .append(" min=").append(v.min()).append(" max=").append(v.max())
                .append(v.isMinMaxExact() ? "" : " (estimated)").append(" buckets");
        for (HistogramValue.Bucket b : v.buckets()) {
            sb.append(' ').append(b.lowerBound()).append("..").append(b.upperBound()).append(':').append(b.count());
        }
        return sb.toString();
    }

    /** The same values recorded on one thread, collected once: what the intervals must merge to. */
    private static HistogramValue reference(long[] values) {
        StatRegistry r = StatRegistry.create();
        Histogram h = r.histogram("h", "", PRECISION);
        for (long v : values) {
            h.record(v);
        }
        return r.collect().histogram("h");
    }

    /** Lincheck's report up to its detailed trace (the interleaving table alone). */
    private static String firstPart(String report) {
        int i = report.indexOf("Detailed trace:");
        return i < 0 ? report : report.substring(0, i).stripTrailing();
    }
}
